import type { App } from "../../app/create-app.js";
import type { ActivationQueue } from "../../jobs/queues/activation-queue.js";

/** The app's Activation queue, for the commands that ask the worker for an Activation job. */
export async function activationQueueOf(app: App): Promise<ActivationQueue> {
  const activation = await app.activationQueue();
  // The callers checked the config first: this is a bug, not a usage error.
  if (!activation) throw new Error("the config has no `activation` section");
  return activation;
}
