import type { BudgetUsage } from "../../infra/budgets/budget-usage.js";
import type { ServiceLabels } from "../../core/domain/option-collection.js";
import type { HeldCollection, HeldPlan } from "../../features/sync/held/held-plan.js";
import type { ProjectJobStatus } from "../../jobs/admin/project-job-status.js";
import type { SubscriptionStatus } from "../../features/events/subscription-state-store.js";
import type { SubscriptionState } from "../../features/events/subscription-notification.js";

/** Where the console's overview reads each part; every read is the caller's, bounded in time. */
export interface FleetSources {
  readonly projects: readonly number[];
  /** The projects with `pim.events` configured: only theirs are expected to receive events. */
  readonly eventProjects: ReadonlySet<number>;
  jobStatus(project: number): Promise<ProjectJobStatus>;
  lastEventAt(project: number): Promise<number | null>;
  /** The subscription's state as its last notification left it (null: never notified). */
  subscription?(project: number): Promise<SubscriptionStatus | null>;
  /** The interval of the project's fallback syncs, as its queue holds them now; null when there are none. */
  fallbackEveryMs?(project: number): Promise<number | null>;
  held(project: number): Promise<HeldPlan[]>;
  /** The labels pim-sync last wrote for these options of a collection (the sync state), null where none is known. */
  optionLabels(project: number, collection: string, options: readonly string[]): Promise<(ServiceLabels | null)[]>;
  budgets(): Promise<BudgetUsage[]>;
}

/** A held plan with each option's last-written labels beside its code. */
export interface LabelledHeldPlan extends HeldPlan {
  readonly collections: (HeldCollection & { readonly labels: (ServiceLabels | null)[] })[];
}

/** Why a project needs a person, most urgent first. */
export type Attention = "failing" | "held" | "subscription_down" | "events_silent";
const WEIGHT: Record<Attention, number> = { failing: 4, held: 2, subscription_down: 1, events_silent: 1 };

/** Events older than this count as silent: the alert docs/pim-events.md suggests. */
export const EVENTS_SILENT_MS = 3_600_000;

export interface ProjectOverview extends ProjectJobStatus {
  readonly project: number;
  readonly events: {
    readonly configured: boolean;
    readonly lastAt: string | null;
    readonly ageSeconds: number | null;
    /** The subscription's state (`active` until a notification says otherwise), for a subscribed project. */
    readonly subscription: {
      readonly state: SubscriptionState;
      /** When the notification that set it was built (the platform's time); null when never notified. */
      readonly since: string | null;
      readonly reason: string | null;
    } | null;
    /** The project's fallback syncs' interval while its events cannot be counted on; null when there are none. */
    readonly fallbackEveryMs: number | null;
  };
  /** Plans awaiting an admin's approval, and approved ones the next sync applies. */
  readonly heldPending: number;
  readonly heldApproved: number;
  readonly heldOptions: number;
  /** The plans themselves, oldest first. */
  readonly held: readonly LabelledHeldPlan[];
  readonly attention: readonly Attention[];
}

export interface FleetOverview {
  readonly generatedAt: string;
  /** Those needing a person first (failing, then held, then silent events), then by id. */
  readonly projects: readonly ProjectOverview[];
  readonly budgets: readonly BudgetUsage[];
}

const weightOf = (attention: readonly Attention[]): number => attention.reduce((sum, reason) => sum + WEIGHT[reason], 0);

async function projectOverview(sources: FleetSources, project: number, nowMs: number): Promise<ProjectOverview> {
  const configured = sources.eventProjects.has(project);
  const [status, lastEventAt, plans, subscription, fallbackEveryMs] = await Promise.all([
    sources.jobStatus(project),
    configured ? sources.lastEventAt(project) : Promise.resolve(null),
    sources.held(project),
    configured && sources.subscription ? sources.subscription(project) : Promise.resolve(null),
    configured && sources.fallbackEveryMs ? sources.fallbackEveryMs(project) : Promise.resolve(null),
  ]);
  const pending = plans.filter((plan) => plan.approved === null);
  const labelled = await Promise.all(
    plans.map(async (plan) => ({
      ...plan,
      collections: await Promise.all(
        plan.collections.map(async (collection) => ({
          ...collection,
          labels: await sources.optionLabels(project, collection.collection, collection.options),
        })),
      ),
    })),
  );
  const ageSeconds = lastEventAt === null ? null : Math.max(0, Math.round((nowMs - lastEventAt) / 1000));
  const attention: Attention[] = [];
  if (status.failedCount > 0 || status.lastSync?.outcome === "failed") attention.push("failing");
  if (pending.length > 0) attention.push("held");
  if (subscription !== null && subscription.state !== "active") attention.push("subscription_down");
  if (configured && (ageSeconds === null || ageSeconds * 1000 > EVENTS_SILENT_MS)) attention.push("events_silent");
  return {
    project,
    ...status,
    events: {
      configured,
      lastAt: lastEventAt === null ? null : new Date(lastEventAt).toISOString(),
      ageSeconds,
      subscription: !configured
        ? null
        : subscription === null
          ? { state: "active", since: null, reason: null }
          : { state: subscription.state, since: new Date(subscription.at).toISOString(), reason: subscription.reason },
      fallbackEveryMs,
    },
    heldPending: pending.length,
    heldApproved: plans.length - pending.length,
    heldOptions: pending.reduce((sum, plan) => sum + plan.collections.reduce((n, collection) => n + collection.options.length, 0), 0),
    held: labelled,
    attention,
  };
}

/** Every project's state at a glance, and each upstream budget's use now. */
export async function fleetOverview(sources: FleetSources, nowMs: number): Promise<FleetOverview> {
  const [projects, budgets] = await Promise.all([
    Promise.all(sources.projects.map((project) => projectOverview(sources, project, nowMs))),
    sources.budgets(),
  ]);
  return {
    generatedAt: new Date(nowMs).toISOString(),
    projects: projects.sort((a, b) => weightOf(b.attention) - weightOf(a.attention) || a.project - b.project),
    budgets,
  };
}
