import { describe, expect, it } from "vitest";
import { historyMain } from "../../../../src/server/admin/console-history-page.js";
import { consoleDocument } from "../../../../src/server/admin/console-html.js";
import { overviewMain } from "../../../../src/server/admin/console-overview-page.js";
import type { FleetOverview } from "../../../../src/server/admin/fleet-overview.js";
import type { HistoryEntry } from "../../../../src/stores/history/history-entry.js";

const HOSTILE = `<script>alert("x")</script>`;

const overview: FleetOverview = {
  generatedAt: "2026-11-27T12:00:00.000Z",
  budgets: [],
  projects: [
    {
      project: 67,
      queue: "project-67",
      lastSync: null,
      nextRunAt: null,
      retrying: null,
      failedCount: 0,
      failed: [],
      events: { configured: false, lastAt: null, ageSeconds: null, subscription: null, fallbackEveryMs: null },
      heldPending: 1,
      heldApproved: 0,
      heldOptions: 1,
      attention: ["held"],
      held: [
        {
          id: "plan-1",
          project: 67,
          collections: [{ collection: "color", options: [HOSTILE], reason: "would delete 1 of 1", labels: [{ "en-US": HOSTILE }] }],
          heldAt: "2026-11-27T10:00:00Z",
          lastHeldAt: "2026-11-27T10:00:00Z",
          run: { job: "67/1", trigger: "event" },
          expiresAt: "2026-12-04T10:00:00Z",
          approved: null,
          revision: 0,
        },
      ],
    },
  ],
};

describe("the console's pages", () => {
  it("escape everything that comes from the PIM, and load only their own script and stylesheet", () => {
    const page = consoleDocument({ title: HOSTILE, user: HOSTILE, role: "admin", main: overviewMain(overview, true) });
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;");
    expect(page.match(/<script\b[^>]*>/g)).toEqual([`<script type="module" src="/admin/console/console.js">`]);
    expect(page).not.toMatch(/\sstyle=|\son[a-z]+=/);
  });

  it("show a sync waiting for its retry as delayed, with the time it runs and its job", () => {
    const [project] = overview.projects;
    if (!project) throw new Error("the overview has no project");
    const retrying = { ref: "67/9", id: "9", name: "sync.events", runsAt: "2026-11-27T12:01:00.000Z", attemptsStarted: 1 };
    const page = overviewMain({ ...overview, projects: [{ ...project, retrying }] }, true);
    expect(page).toContain(`data-retrying="67/9">sync.events delayed until <time datetime="2026-11-27T12:01:00.000Z">`);
    expect(page).toContain(`href="/admin/queue/project-67/9"`);
    expect(overviewMain(overview, true)).not.toContain("delayed until");
  });

  it("give an admin the approve button and a viewer none", () => {
    expect(overviewMain(overview, true)).toContain(`data-approve="plan-1"`);
    expect(overviewMain(overview, true)).toContain(`data-dismiss="plan-1"`);
    expect(overviewMain(overview, true)).toContain("<dd>job 67/1 (trigger: event)</dd>");
    const viewer = overviewMain(overview, false);
    expect(viewer).not.toContain(`data-approve="`);
    expect(viewer).not.toContain(`data-dismiss="`);
    expect(viewer).not.toContain(`data-sync="`);
    expect(viewer).toContain("Only an admin may approve or dismiss");
  });

  it("link the next page of the history with the search's filters and the cursor", () => {
    const entry: HistoryEntry = {
      collection: "color",
      option: "teal",
      kind: "deleted",
      labelsBefore: { "en-US": "Teal" },
      labelsAfter: null,
      reason: "the PIM no longer has it",
      job: "67/4",
      trigger: "event",
      at: "2026-11-27T11:00:00Z",
    };
    const main = historyMain({
      project: 67,
      queue: "project-67",
      search: { collection: "color", option: "teal", since: "7d" },
      entries: [entry],
      nextCursor: "1-0.5",
      days: [],
      problems: [],
    });
    expect(main).toContain(`href="/admin/console/projects/67/history?collection=color&#38;option=teal&#38;since=7d&#38;cursor=1-0.5"`);
    expect(main).toContain(`<a href="/admin/queue/project-67/4">67/4</a>`);
    expect(main).toMatch(/<td>event<\/td>/);
  });
});

describe("the console's pages on a laptop", () => {
  const entry = (reason: string): HistoryEntry => ({
    collection: "color",
    option: "teal",
    kind: "kept",
    labelsBefore: { en_US: "Teal" },
    labelsAfter: null,
    reason,
    job: "67/4",
    trigger: "admin",
    at: "2026-11-27T11:00:00Z",
  });
  const history = (reason: string): string =>
    historyMain({ project: 67, queue: "project-67", search: {}, entries: [entry(reason)], nextCursor: null, days: [], problems: [] });

  it("fold a long reason after its start and show a short one whole", () => {
    const long = `${"a".repeat(120)}THE REST`;
    expect(history(long)).toContain(`${"a".repeat(120)}<details class="more"><summary>the rest</summary>THE REST</details>`);
    expect(history("a".repeat(120))).not.toContain('<details class="more">');
  });

  it("fold a held plan's options after the first 12", () => {
    const [project] = overview.projects;
    const [plan] = project?.held ?? [];
    if (!project || !plan) throw new Error("the overview has no plan");
    const options = Array.from({ length: 20 }, (_, index) => `option-${index}`);
    const big = {
      ...plan,
      collections: [{ collection: "color", options, reason: "would delete 20 of 21", labels: options.map(() => null) }],
    };
    const page = overviewMain({ ...overview, projects: [{ ...project, held: [big] }] }, true);
    expect(page).toContain("<summary>8 more options</summary>");
    expect(page.indexOf("<code>option-11</code>")).toBeLessThan(page.indexOf("<summary>"));
    expect(page.indexOf("<code>option-12</code>")).toBeGreaterThan(page.indexOf("<summary>"));
    expect(overviewMain(overview, true)).not.toContain("more options");
  });

  it("mark labels with their locale as HTML spells it (en-US, not en_US)", () => {
    expect(history("why")).toContain(`<span lang="en-US">en_US: Teal</span>`);
  });

  it("ask for the icon the worker serves", () => {
    expect(consoleDocument({ title: "t", user: "u", role: "viewer", main: "" })).toContain(
      `<link rel="icon" href="/favicon.ico" type="image/svg+xml">`,
    );
  });
});
