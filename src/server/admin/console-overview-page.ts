import type { BudgetUsage } from "../../infra/budgets/budget-usage.js";
import type { ServiceLabels } from "../../core/domain/option-collection.js";
import { ageText, CONSOLE_PATH, escapeHtml, langOf, timeElement } from "./console-html.js";
import type { Attention, FleetOverview, LabelledHeldPlan, ProjectOverview } from "./fleet-overview.js";

const ATTENTION_TEXT: Record<Attention, string> = {
  failing: "failing",
  held: "deletions held",
  subscription_down: "event subscription down",
  events_silent: "events silent",
};

/** The dashboard's page of one job (bull-board routes by the queue's name). */
export function dashboardJobHref(queue: string, id: string): string {
  return `/admin/queue/${encodeURIComponent(queue)}/${encodeURIComponent(id)}`;
}

const jobIdOf = (ref: string): string => ref.slice(ref.indexOf("/") + 1);

function lastSyncCell(project: ProjectOverview): string {
  const last = project.lastSync;
  if (last === null) return "never (in the kept jobs)";
  const outcome =
    last.outcome === "failed"
      ? `<strong class="bad">failed</strong>`
      : last.outcome === "held_back"
        ? `<strong class="warn">held back</strong>`
        : `<span class="ok">done</span>`;
  const counts = `${last.written} written, ${last.held} held, ${last.failed} failed${last.missing > 0 ? `, ${last.missing} missing` : ""}`;
  const job = `<a href="${dashboardJobHref(project.queue, jobIdOf(last.job))}">job ${escapeHtml(last.job)}</a>`;
  return `${outcome} ${timeElement(last.finishedAt)}<br><span class="counts">${counts}</span> · ${job}`;
}

function subscriptionLine(project: ProjectOverview): string {
  const subscription = project.events.subscription;
  if (subscription === null || subscription.state === "active")
    return `<br><span class="subscription" data-subscription="active">subscription active</span>`;
  const since = subscription.since === null ? "" : ` since ${timeElement(subscription.since)}`;
  const reason = subscription.reason === null ? "" : `: ${escapeHtml(subscription.reason.slice(0, 160))}`;
  return `<br><strong class="bad subscription" data-subscription="${subscription.state}">subscription ${subscription.state}</strong>${since}${reason}`;
}

function eventsCell(project: ProjectOverview): string {
  if (!project.events.configured) return `<span class="muted">not subscribed</span>`;
  if (project.events.ageSeconds === null) return `<strong class="warn">none received</strong>${subscriptionLine(project)}`;
  const age = `last ${ageText(project.events.ageSeconds)} ago`;
  return `${project.attention.includes("events_silent") ? `<strong class="warn">${age}</strong>` : age}${subscriptionLine(project)}`;
}

/**
 * The schedule's next run, with the fallback interval while events cannot be relied on, and first
 * the sync waiting for its retry: the project's events and "Sync now" wait for it.
 */
function nextRunCell(project: ProjectOverview): string {
  const scheduled = project.nextRunAt === null ? `<span class="muted">no schedule</span>` : timeElement(project.nextRunAt);
  const every = project.events.fallbackEveryMs;
  const planned =
    every === null
      ? scheduled
      : `${scheduled}<br><strong class="warn" data-fallback-every-ms="${every}">fallback: every ${ageText(Math.round(every / 1000))}</strong>`;
  const retrying = project.retrying;
  if (retrying === null) return planned;
  const job = `<a href="${dashboardJobHref(project.queue, retrying.id)}">job ${escapeHtml(retrying.ref)}</a>`;
  return `<strong class="warn" data-retrying="${escapeHtml(retrying.ref)}">${escapeHtml(retrying.name)} delayed until ${timeElement(retrying.runsAt)}</strong> (${job}, waiting for its retry)<br>${planned}`;
}

function failedCell(project: ProjectOverview): string {
  if (project.failedCount === 0) return "0";
  const links = project.failed
    .map(
      (job) =>
        `<li><a href="${dashboardJobHref(job.queue, job.id)}">${escapeHtml(job.ref)} ${escapeHtml(job.name)}</a>${
          job.failedReason === null ? "" : `: ${escapeHtml(job.failedReason.slice(0, 160))}`
        }</li>`,
    )
    .join("");
  return `<strong class="bad">${project.failedCount}</strong><ul class="jobs">${links}</ul>`;
}

function projectRow(project: ProjectOverview): string {
  const needs =
    project.attention.length === 0
      ? `<span class="ok">nothing</span>`
      : project.attention.map((reason) => ATTENTION_TEXT[reason]).join(", ");
  const held =
    project.heldPending === 0 && project.heldApproved === 0
      ? "0"
      : `<a href="#held-${project.project}">${project.heldPending} pending (${project.heldOptions} options)</a>${
          project.heldApproved > 0 ? `, ${project.heldApproved} approved` : ""
        }`;
  return `<tr data-project="${project.project}">
<th scope="row">${project.project}</th>
<td>${needs}</td>
<td>${lastSyncCell(project)}</td>
<td>${nextRunCell(project)}</td>
<td>${eventsCell(project)}</td>
<td>${held}</td>
<td>${failedCell(project)}</td>
<td><a href="${CONSOLE_PATH}/projects/${project.project}/history">history</a></td>
</tr>`;
}

function budgetRow(budget: BudgetUsage): string {
  const full = budget.inUse >= budget.limit;
  const unit = budget.kind === "requests" ? `requests / ${budget.windowMs / 1000} s` : "calls in flight";
  return `<tr>
<th scope="row"><code>${escapeHtml(budget.identity)}</code></th>
<td>${unit}</td>
<td>${full ? `<strong class="warn">${budget.inUse} / ${budget.limit}</strong>` : `${budget.inUse} / ${budget.limit}`}</td>
<td>${budget.pausedForMs > 0 ? `<strong class="warn">paused ${Math.ceil(budget.pausedForMs / 1000)} s more</strong>` : "no"}</td>
<td>${budget.projects.join(", ")}</td>
</tr>`;
}

function optionItem(option: string, labels: ServiceLabels | null | undefined): string {
  const shown =
    labels === null || labels === undefined
      ? ""
      : ` <span class="labels">${Object.entries(labels)
          .map(([locale, label]) => `<span lang="${langOf(locale)}">${escapeHtml(label)}</span>`)
          .join(" · ")}</span>`;
  return `<li><code>${escapeHtml(option)}</code>${shown}</li>`;
}

/** Past this many, a plan's options show the first ones and fold the rest. */
const OPTIONS_SHOWN = 12;

function optionList(items: readonly string[]): string {
  const shown = `<ul class="options">${items.slice(0, OPTIONS_SHOWN).join("")}</ul>`;
  if (items.length <= OPTIONS_SHOWN) return shown;
  const rest = items.slice(OPTIONS_SHOWN);
  return `${shown}<details class="more"><summary>${rest.length} more options</summary><ul class="options">${rest.join("")}</ul></details>`;
}

function planSection(plan: LabelledHeldPlan, canApprove: boolean): string {
  const optionCount = plan.collections.reduce((sum, collection) => sum + collection.options.length, 0);
  const collections = plan.collections
    .map(
      (collection) => `<tr>
<th scope="row">${escapeHtml(collection.collection)}</th>
<td>${optionList(collection.options.map((option, index) => optionItem(option, collection.labels[index])))}</td>
<td>${escapeHtml(collection.reason)}</td>
</tr>`,
    )
    .join("");
  const next =
    plan.approved === null
      ? `Until an admin approves it, every run keeps these ${optionCount} options in the service (and holds them again). Approved, the next sync of project ${plan.project} deletes exactly those of them the PIM still lacks.`
      : `Approved by ${escapeHtml(plan.approved.by)} at ${timeElement(plan.approved.at)}: the next sync of project ${plan.project} deletes exactly those of these ${optionCount} options the PIM still lacks.`;
  const actions = canApprove
    ? `<div class="actions">${
        plan.approved === null
          ? `<button type="button" data-approve="${escapeHtml(plan.id)}" data-project="${plan.project}">Approve plan ${escapeHtml(plan.id)}</button>`
          : ""
      }<button type="button" data-dismiss="${escapeHtml(plan.id)}" data-project="${plan.project}">Dismiss plan ${escapeHtml(plan.id)}</button><button type="button" data-sync="${plan.project}">Sync project ${plan.project} now</button></div>`
    : `<p class="muted">Only an admin may approve or dismiss a plan.</p>`;
  return `<article class="plan" id="held-plan-${escapeHtml(plan.id)}" data-plan="${escapeHtml(plan.id)}" data-project="${plan.project}" data-approved="${
    plan.approved === null ? "" : escapeHtml(plan.approved.at)
  }">
<h3>Project ${plan.project}: plan <code>${escapeHtml(plan.id)}</code></h3>
<dl>
<dt>Held</dt><dd>${timeElement(plan.heldAt)} (last ${timeElement(plan.lastHeldAt)})</dd>
<dt>By run</dt><dd>job ${escapeHtml(plan.run.job)} (trigger: ${escapeHtml(plan.run.trigger)}${
    plan.run.requestedBy === undefined ? "" : `, asked by ${escapeHtml(plan.run.requestedBy)}`
  })</dd>
<dt>Expires</dt><dd>${plan.approved === null ? timeElement(plan.expiresAt) : "never: approved, it waits for the run that carries it out"}</dd>
</dl>
<table>
<caption>Deletions held in plan ${escapeHtml(plan.id)}</caption>
<thead><tr><th scope="col">Collection</th><th scope="col">Options</th><th scope="col">Why held</th></tr></thead>
<tbody>${collections}</tbody>
</table>
<p class="next">${next}</p>
${actions}
<p class="status" role="status" aria-live="polite"></p>
</article>`;
}

/** An admin's resync of one project: a dry run first, then the same for real (console.js sends both). */
function resyncForm(project: number): string {
  return `<form class="resync" data-resync="${project}" aria-label="Resync project ${project}">
<h3>Project ${project}</h3>
<p><label>Collection <input name="collection" autocomplete="off"></label> <label>or attribute <input name="attribute" autocomplete="off"></label> (neither: the whole project)</p>
<p><button type="submit" name="mode" value="dry">Dry run</button> <button type="submit" name="mode" value="write">Resync</button></p>
<p class="status" role="status" aria-live="polite"></p>
<pre class="plan-output"></pre>
</form>`;
}

/** The console's front page: the fleet, the budgets and the held deletions. */
export function overviewMain(overview: FleetOverview, canApprove: boolean): string {
  const plans = overview.projects.flatMap((project) => project.held);
  const byProject = new Map<number, LabelledHeldPlan[]>();
  for (const plan of plans) byProject.set(plan.project, [...(byProject.get(plan.project) ?? []), plan]);
  const heldSections = [...byProject]
    .sort(([a], [b]) => a - b)
    .map(
      ([project, projectPlans]) =>
        `<section id="held-${project}" aria-label="Held deletions of project ${project}">${projectPlans
          .map((plan) => planSection(plan, canApprove))
          .join("")}</section>`,
    )
    .join("");
  const attention = overview.projects.filter((project) => project.attention.length > 0).length;
  return `<h1>pim-sync console</h1>
<p>As of ${timeElement(overview.generatedAt)}: ${overview.projects.length} projects, ${attention} needing a person.</p>
<section aria-labelledby="fleet-heading">
<h2 id="fleet-heading">Projects</h2>
<table id="fleet">
<caption>Every project, those needing a person first</caption>
<thead><tr><th scope="col">Project</th><th scope="col">Needs</th><th scope="col">Last sync</th><th scope="col">Next run</th><th scope="col">PIM events</th><th scope="col">Held plans</th><th scope="col">Failed jobs</th><th scope="col">History</th></tr></thead>
<tbody>
${overview.projects.map(projectRow).join("\n")}
</tbody>
</table>
</section>
<section aria-labelledby="held-heading">
<h2 id="held-heading">Held deletions</h2>
${plans.length === 0 ? "<p>No deletion is held.</p>" : heldSections}
</section>
${
  canApprove
    ? `<section aria-labelledby="resync-heading">
<h2 id="resync-heading">Resync</h2>
<p>Through the path PIM events take (deletion guard, held review, history under your name). Run the dry run first: it lists what the resync would write.</p>
${overview.projects
  .map((project) => project.project)
  .sort((a, b) => a - b)
  .map(resyncForm)
  .join("\n")}
</section>`
    : ""
}
<section aria-labelledby="budget-heading">
<h2 id="budget-heading">Upstream budgets</h2>
<table id="budgets">
<caption>Each upstream identity's budget in use now, shared by every process</caption>
<thead><tr><th scope="col">Identity</th><th scope="col">Counts</th><th scope="col">In use / limit</th><th scope="col">Paused</th><th scope="col">Projects</th></tr></thead>
<tbody>
${overview.budgets.map(budgetRow).join("\n")}
</tbody>
</table>
</section>`;
}
