/**
 * Each upstream fault against a real sync (in process, real Redis state, both simulators as real
 * HTTP servers). Every scenario: a clean baseline sync, a PIM change, the faulted sync, then a
 * clean follow-up sync. After it: the service equals what a clean sync of the changed PIM gives,
 * no write ever removed an option the PIM had at that moment, and the faulted run wrote nothing
 * but the collections the PIM change touched (a write anywhere else came from a wrong read).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadSimCatalog } from "../../../sim/catalog/catalog-file.js";
import { DEFAULT_OAUTH_CLIENT } from "../../../sim/pim/oauth.js";
import { defaultCatalogPath } from "../../../sim/start-simulators.js";
import type { SyncReport } from "../../../src/features/sync/sync-report.js";
import { collectionsOf, type CollectionsByName } from "../../support/process-jobs.js";
import { startSyncHarness, type SyncHarness } from "../../support/sync-harness.js";
import { chaosCounters } from "../support/chaos-results.js";
import {
  CHANGED_COLLECTIONS,
  CHAOS_RECORDS_PAGE_SIZE,
  CHAOS_SERVICE_PAGE_SIZE,
  changePim,
  editChaosCatalog,
  lastRecordsPageCursor,
  PAGED_ATTRIBUTE,
  PAGED_ENTITY,
} from "../support/chaos-catalog.js";
import { startTrapServer, type TrapServer } from "../support/trap-server.js";
import { watchWrites, type WriteWatch } from "../support/write-watch.js";

const OPTIONS_PATH = `/api/rest/v1/attributes/${PAGED_ATTRIBUTE}/options`;
const RECORDS_PATH = `/api/rest/v1/reference-entities/${PAGED_ENTITY}/records`;
const COLLECTIONS_PATH = /\/options_collections\/options_collections\/?$/;
const UPDATE_OPTIONS_PATH = /\/update-options\/$/;
const SERVICE_TOKEN = "sim-service-token";

interface Context {
  readonly harness: SyncHarness;
  /** On 127.0.0.1, another port than both simulators. */
  readonly trap: TrapServer;
  /** On 127.0.0.2: another host. */
  readonly otherHostTrap: TrapServer;
  /** The search_after cursor of the records' last page. */
  readonly recordsCursor: string;
}

interface Scenario {
  readonly name: string;
  /** The defect of issue 7 this scenario guards, if any (for the fault matrix). */
  readonly defect?: string;
  /** Arms the fault before the faulted run. */
  arm(context: Context): void;
  /** Runs beside the faulted sync (a fault that must land mid-run). */
  during?(context: Context): Promise<void>;
  /** Undoes what must not outlive the faulted run (a revoked token). */
  restore?(context: Context): void;
  readonly client?: { readonly timeoutMs?: number };
}

const paging =
  (path: string | RegExp, fault: Parameters<SyncHarness["pim"]["pagingFaults"]["arm"]>[1]["fault"], target: "pim" | "service" = "pim") =>
  (context: Context): void =>
    context.harness[target].pagingFaults.arm({ method: "GET", path }, { fault, atPage: 2 });

const SCENARIOS: readonly Scenario[] = [
  // Paging that misbehaves, page-based (attribute options) and search_after (records).
  { name: "attribute options: next loops back to the first page", defect: "1", arm: paging(OPTIONS_PATH, { kind: "loop" }) },
  { name: "attribute options: next repeats the page just read", defect: "1", arm: paging(OPTIONS_PATH, { kind: "repeat-cursor" }) },
  { name: "attribute options: a page repeats the previous page's items", defect: "1", arm: paging(OPTIONS_PATH, { kind: "repeat-items" }) },
  {
    name: "attribute options: the list ends early (no next on page 2 of 3)",
    defect: "new",
    arm: paging(OPTIONS_PATH, { kind: "truncate" }),
  },
  { name: "records: next loops back to the first page", defect: "1", arm: paging(RECORDS_PATH, { kind: "loop" }) },
  { name: "records: a search_after cursor is repeated", defect: "1", arm: paging(RECORDS_PATH, { kind: "repeat-cursor" }) },
  { name: "records: a page repeats the previous page's items", defect: "1", arm: paging(RECORDS_PATH, { kind: "repeat-items" }) },
  { name: "service collection list: next loops back", arm: paging(COLLECTIONS_PATH, { kind: "loop" }, "service") },
  { name: "service collection list: ends early", arm: paging(COLLECTIONS_PATH, { kind: "truncate" }, "service") },
  // next links to another origin: credentials must not follow them.
  {
    name: "attribute options: next on another port",
    defect: "2",
    arm: (context) => paging(OPTIONS_PATH, { kind: "other-origin", origin: context.trap.origin })(context),
  },
  {
    name: "records: next on another host",
    defect: "2",
    arm: (context) => paging(RECORDS_PATH, { kind: "other-origin", origin: context.otherHostTrap.origin })(context),
  },
  {
    name: "service collection list: next on another port",
    defect: "2",
    arm: (context) => paging(COLLECTIONS_PATH, { kind: "other-origin", origin: context.trap.origin }, "service")(context),
  },
  // Storms that start mid-list: the read fails after pages were read; none of it may be used.
  {
    name: "PIM 503 storm from page 3 of the options, with Retry-After",
    arm: ({ harness }) =>
      harness.pim.faults.failNext({ path: OPTIONS_PATH, query: { page: "3" } }, { status: 503, times: 12, retryAfterSeconds: 0 }),
  },
  {
    name: "PIM 500 storm on the last page of the records, without Retry-After",
    arm: ({ harness, recordsCursor }) =>
      harness.pim.faults.failNext({ path: RECORDS_PATH, query: { search_after: recordsCursor } }, { status: 500, times: 12 }),
  },
  {
    name: "PIM connections dropped from page 3 of the options",
    arm: ({ harness }) =>
      harness.pim.faults.failNext({ path: OPTIONS_PATH, query: { page: "3" } }, { status: 502, times: 12, dropConnection: true }),
  },
  {
    name: "PIM option reads time out from page 3",
    arm: ({ harness }) =>
      harness.pim.faults.failNext({ path: OPTIONS_PATH, query: { page: "3" } }, { status: 200, times: 12, delayMs: 1_000 }),
    client: { timeoutMs: 250 },
  },
  // Storms: more failures than the client's attempts, so the read or write fails for this run.
  {
    name: "PIM 503 storm with Retry-After",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: OPTIONS_PATH }, { status: 503, times: 12, retryAfterSeconds: 0 }),
  },
  {
    name: "PIM 500 storm without Retry-After",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: RECORDS_PATH }, { status: 500, times: 12 }),
  },
  {
    name: "PIM 429 storm without Retry-After",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: /\/options$/ }, { status: 429, times: 12 }),
  },
  {
    name: "PIM 429 with Retry-After, shorter than the attempts",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: OPTIONS_PATH }, { status: 429, times: 2, retryAfterSeconds: 1 }),
  },
  {
    name: "PIM connections dropped",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: OPTIONS_PATH }, { status: 502, times: 12, dropConnection: true }),
  },
  {
    name: "service 503 storm on writes, with Retry-After",
    arm: ({ harness }) =>
      harness.service.faults.failNext({ method: "PATCH", path: UPDATE_OPTIONS_PATH }, { status: 503, times: 30, retryAfterSeconds: 0 }),
  },
  {
    name: "service 429 storm on writes, without Retry-After",
    arm: ({ harness }) => harness.service.faults.failNext({ method: "PATCH", path: UPDATE_OPTIONS_PATH }, { status: 429, times: 30 }),
  },
  {
    name: "service 500 storm on the collection list",
    arm: ({ harness }) => harness.service.faults.failNext({ path: COLLECTIONS_PATH }, { status: 500, times: 12 }),
  },
  // Timeouts: answers slower than the client's timeout.
  {
    name: "PIM option reads time out",
    arm: ({ harness }) => harness.pim.faults.failNext({ path: OPTIONS_PATH }, { status: 200, times: 12, delayMs: 1_000 }),
    client: { timeoutMs: 250 },
  },
  {
    name: "service writes time out",
    arm: ({ harness }) =>
      harness.service.faults.failNext({ method: "PATCH", path: UPDATE_OPTIONS_PATH }, { status: 200, times: 30, delayMs: 1_000 }),
    client: { timeoutMs: 250 },
  },
  // Tokens revoked mid-run.
  {
    name: "PIM tokens revoked mid-run",
    arm: () => undefined,
    async during({ harness }) {
      await harness.pim.waitForRequest((request) => request.path === OPTIONS_PATH || request.path === RECORDS_PATH, 10_000);
      harness.pim.revokeAllTokens();
    },
  },
  {
    name: "service token revoked mid-run",
    // Slow writes, so the revocation lands between the run's writes rather than after the last.
    arm: ({ harness }) => harness.service.setLatencyMs(100),
    async during({ harness }) {
      await harness.service.waitForRequest((request) => UPDATE_OPTIONS_PATH.test(request.path), 10_000);
      harness.service.revokeToken(SERVICE_TOKEN);
    },
    restore({ harness }) {
      harness.service.restoreToken(SERVICE_TOKEN);
      harness.service.setLatencyMs(0);
    },
  },
];

async function startChaosHarness(): Promise<SyncHarness> {
  return startSyncHarness({
    editCatalog: editChaosCatalog,
    pim: { recordsPageSize: CHAOS_RECORDS_PAGE_SIZE, clients: [DEFAULT_OAUTH_CLIENT] },
    service: { pageSizeMax: CHAOS_SERVICE_PAGE_SIZE, requestsPerSecond: 1_000 },
  });
}

/** The client side of the service budget is raised with the simulator's: speed is not under test here. */
const FAST_SERVICE = { serviceRequestsPerSecond: 1_000 } as const;

describe("chaos: upstream faults against a real sync", () => {
  const results = chaosCounters("upstream-faults");
  let reference: CollectionsByName;
  let trap: TrapServer;
  let otherHostTrap: TrapServer;
  let recordsCursor: string;
  let harness: SyncHarness | undefined;
  let watch: WriteWatch | undefined;

  beforeAll(async () => {
    const catalog = await loadSimCatalog(defaultCatalogPath());
    editChaosCatalog(catalog);
    recordsCursor = lastRecordsPageCursor(catalog);
    const clean = await startChaosHarness();
    try {
      changePim(clean.pim.state);
      const report = await clean.sync({}, FAST_SERVICE);
      expect(report.failures).toEqual([]);
      reference = collectionsOf(clean.service);
    } finally {
      await clean.close();
    }
    trap = await startTrapServer();
    otherHostTrap = await startTrapServer("127.0.0.2");
  });

  afterEach(async () => {
    watch?.stop();
    await harness?.close();
    harness = undefined;
  });

  afterAll(async () => {
    await Promise.all([trap.close(), otherHostTrap.close()]);
  });

  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))("%s", async (_name, scenario) => {
    harness = await startChaosHarness();
    const context: Context = { harness, trap, otherHostTrap, recordsCursor };
    watch = watchWrites(harness.service, harness.pim);

    watch.phase("baseline");
    const baseline = await harness.sync({}, FAST_SERVICE);
    expect(baseline.failures).toEqual([]);
    changePim(harness.pim.state);

    watch.phase("faulted");
    // From here the logs hold the faulted run only: waits for "mid-run" match its requests.
    harness.pim.clearRequests();
    harness.service.clearRequests();
    const trapBefore = trap.requests.length + otherHostTrap.requests.length;
    scenario.arm(context);
    const during = scenario.during?.(context);
    // A fault may fail the whole run (the collection list): that is an outcome, not a test error.
    const faulted: SyncReport | Error = await harness
      .sync({}, { ...FAST_SERVICE, ...scenario.client })
      .catch((error: unknown) => error as Error);
    await during;
    scenario.restore?.(context);
    const injected =
      harness.pim.requests.filter((request) => request.fault).length +
      harness.service.requests.filter((request) => request.fault).length +
      (scenario.during === undefined ? 0 : 1);
    expect(injected, "the fault never fired: the scenario tested nothing").toBeGreaterThan(0);

    const afterFaulted = collectionsOf(harness.service);

    watch.phase("follow-up");
    harness.pim.faults.clear();
    harness.pim.pagingFaults.clear();
    harness.service.faults.clear();
    harness.service.pagingFaults.clear();
    const followUp = await harness.sync({}, FAST_SERVICE);

    const partial = watch.writesOutside("faulted", CHANGED_COLLECTIONS);
    const credentialsLeaked = [...trap.requests, ...otherHostTrap.requests].slice(trapBefore).filter((request) => request.withCredentials);
    results.add({
      faultScenarios: 1,
      faultsInjected: injected,
      optionsLost: watch.lost.length,
      writesFromPartialReads: partial.length,
    });

    expect(watch.lost, "options the PIM had were deleted from the service").toEqual([]);
    expect(partial, "the faulted run wrote collections whose PIM source did not change (a wrong read)").toEqual([]);
    expect(credentialsLeaked, "credentials were sent to another origin").toEqual([]);
    // A faulted run that says it finished must have finished: nothing silently left out.
    if (!(faulted instanceof Error) && faulted.failures.length === 0) expect(afterFaulted).toEqual(reference);
    expect(followUp.failures).toEqual([]);
    expect(collectionsOf(harness.service)).toEqual(reference);
  });
});
