/**
 * The one enqueue of each kind of queue is typed by the job catalog: a name the catalog does not
 * have, or of the other kind of queue, does not compile, and the data must be what the named
 * entry's schema takes. These are compile-time checks: `npm run typecheck` (first in `npm test`)
 * fails when a line marked `@ts-expect-error` compiles, i.e. when the typing is loosened.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ActivationJobName, ProjectJobName } from "../../../../src/jobs/catalog/job-catalog.js";
import type { ActivationQueue } from "../../../../src/jobs/queues/activation-queue.js";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";

describe("enqueue is typed by the job catalog", () => {
  it("takes a project queue's job names only, each with its own entry's data", () => {
    const calls = (queues: JobQueues): unknown[] => [
      queues.enqueue("sync.run", { project: 67, full: true }),
      queues.enqueue("sync.events", { project: 67 }),
      queues.enqueue("options.add", { project: 67, attribute: "color", options: [{ name: "teal" }] }, { idempotencyKey: "k" }),
      // @ts-expect-error a name the catalog does not have
      queues.enqueue("sync.nope", { project: 67 }),
      // @ts-expect-error an Activation job is not queued on a project queue
      queues.enqueue("activation.orders.pull", { connection: "amazon-fr" }),
      // @ts-expect-error sync.run's data has no attribute (the data follows the name)
      queues.enqueue("sync.run", { project: 67, attribute: "color" }),
      // @ts-expect-error options.add needs the options to add
      queues.enqueue("options.add", { project: 67, attribute: "color" }),
      // @ts-expect-error the project is a number
      queues.enqueue("sync.run", { project: "67" }),
    ];
    expectTypeOf(calls).toBeFunction();
    expectTypeOf<Parameters<JobQueues["enqueue"]>[0]>().toEqualTypeOf<ProjectJobName>();
  });

  it("takes the Activation queue's job names only, each with its own entry's data; no named shortcuts", () => {
    const calls = (queue: ActivationQueue): unknown[] => [
      queue.enqueue("activation.orders.pull", { connection: "amazon-fr", trigger: "cli" }),
      queue.enqueue("activation.orders.resend", { connection: "amazon-fr", order_ids: ["o-1"] }),
      queue.enqueue("activation.offers.put", { connection: "amazon-fr", offers: [{ sku: "a" }] }, { idempotencyKey: "k" }),
      // @ts-expect-error a project job is not queued on the Activation queue
      queue.enqueue("sync.run", { project: 67 }),
      // @ts-expect-error a shipment update carries a shipment, not offers
      queue.enqueue("activation.shipment.update", { connection: "amazon-fr", offers: [] }),
    ];
    expectTypeOf(calls).toBeFunction();
    expectTypeOf<Parameters<ActivationQueue["enqueue"]>[0]>().toEqualTypeOf<ActivationJobName>();
    expectTypeOf<keyof ActivationQueue>().toEqualTypeOf<"queue" | "enqueue" | "jobOptions" | "enforceOneAtATime" | "close">();
  });
});
