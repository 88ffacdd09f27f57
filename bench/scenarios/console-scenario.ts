/**
 * The operator console with a fleet: an in-process worker with `projects` projects on the
 * simulators, a tenth of them with a held plan and every one with history entries, and the
 * time its overview takes to answer (`GET /admin/console`, the HTML, and `GET /admin/api/overview`),
 * as a browser would ask for it after login. Nothing is synced: the overview's cost is its reads
 * of every project's queue, events, held plans and the budgets, whatever the queues hold.
 */
import { pino } from "pino";
import { createRedisHeldStore } from "../../src/features/sync/held/redis-held-store.js";
import { createRedisHistoryStore } from "../../src/stores/history/redis-history-store.js";
import { settingsSchema } from "../../src/settings/settings-schema.js";
import { startSimulators } from "../../sim/start-simulators.js";
import { createApp } from "../../src/app/create-app.js";
import { startWorkerApp } from "../../src/app/start-worker-app.js";
import { openBenchRedis } from "../worker/bench-redis.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";
import { percentile } from "./latency-percentiles.js";

export const CONSOLE_PROJECTS = 200;
const ROUNDS = 20;
const USER = { name: "bench", password: "bench-password-0123", role: "admin" } as const;

export interface ConsoleResult {
  readonly projects: number;
  readonly rounds: number;
  readonly page: { readonly p50_ms: number; readonly p95_ms: number; readonly bytes: number };
  readonly api: { readonly p50_ms: number; readonly p95_ms: number; readonly bytes: number };
}

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const answer = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${USER.name}:${USER.password}`).toString("base64")}` },
  });
  const body = await answer.text();
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: ${body.slice(0, 200)}`);
  return { ms: performance.now() - started, bytes: Buffer.byteLength(body) };
}

export async function measureConsole(args: {
  readonly redisUrl: string;
  readonly projects?: number;
  readonly progress: (line: string) => void;
}): Promise<ConsoleResult> {
  const count = args.projects ?? CONSOLE_PROJECTS;
  const bench = await openBenchRedis(args.redisUrl);
  const sims = await startSimulators();
  try {
    const ids = Array.from({ length: count }, (_, index) => index + 1);
    const settings = settingsSchema.parse({
      redis: { url: args.redisUrl, prefix: bench.prefix },
      log_level: "warn",
      server: { host: "127.0.0.1", port: 0, admin: { users: [USER] } },
      projects: ids.map((id) => ({
        id,
        pim: { url: sims.pim.url, ...SIM_PIM_CREDENTIALS },
        service: { url: sims.service.url, token: SIM_SERVICE_TOKEN },
        schedule: { cron: "0 3 * * *" },
      })),
    });
    const held = createRedisHeldStore(bench.redis, bench.prefix);
    const history = createRedisHistoryStore(bench.redis, bench.prefix, { retentionMs: settings.history.retention_ms });
    const at = new Date().toISOString();
    for (const id of ids) {
      await history.append(id, [
        {
          collection: "color",
          kind: "added",
          reason: "new in the PIM",
          job: `${id}/1`,
          trigger: "schedule",
          at,
          options: [["red", null, { "en-US": "Red" }]],
        },
      ]);
      if (id % 10 !== 0) continue;
      const plan = {
        id: `bench-${id}`,
        project: id,
        collections: [{ collection: "color", options: ["blue", "green", "black"], reason: "would delete 3 of 5 options (more than 50%)" }],
        heldAt: at,
        lastHeldAt: at,
        run: { job: `${id}/1`, trigger: "schedule" as const },
        expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        approved: null,
        revision: 0,
      };
      if (!(await held.save(plan, null))) throw new Error(`could not seed the held plan of project ${id}`);
    }
    args.progress(`console: starting a worker with ${count} projects`);
    // Started as the worker command starts it: through the app, whose stop releases every part.
    const app = createApp(settings, { logger: pino({ level: "warn" }), role: "worker" });
    try {
      await startWorkerApp(app);
      const base = app.worker().serverUrl ?? "";
      await timed(`${base}/admin/console`);
      const pages: number[] = [];
      const apis: number[] = [];
      let pageBytes = 0;
      let apiBytes = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const page = await timed(`${base}/admin/console`);
        const api = await timed(`${base}/admin/api/overview`);
        pages.push(page.ms);
        apis.push(api.ms);
        pageBytes = page.bytes;
        apiBytes = api.bytes;
      }
      const round1 = (value: number | null): number => Math.round((value ?? 0) * 10) / 10;
      return {
        projects: count,
        rounds: ROUNDS,
        page: { p50_ms: round1(percentile(pages, 50)), p95_ms: round1(percentile(pages, 95)), bytes: pageBytes },
        api: { p50_ms: round1(percentile(apis, 50)), p95_ms: round1(percentile(apis, 95)), bytes: apiBytes },
      };
    } finally {
      await app.stop();
    }
  } finally {
    await sims.close();
    await bench.cleanup();
  }
}
