/**
 * The console's stylesheet and script, served as static files from `/admin/console/` (the
 * console's CSP allows its own files only: no inline script or style, nothing from elsewhere).
 * Plain text here rather than files beside the build: `tsc` copies no assets into `dist/`, and
 * the page needs no bundler for a few dozen lines.
 */
export const CONSOLE_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.4; color: #1a1a1a; background: #fff; }
body { margin: 0 1.5rem 2rem; }
a { color: #0b57a4; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible, main:focus-visible {
  outline: 3px solid #1a1a1a; outline-offset: 2px;
}
.skip { position: absolute; left: -10000px; }
.skip:focus { position: static; }
header { display: flex; justify-content: space-between; align-items: center; border-bottom: 1px solid #ccc; }
nav ul { list-style: none; display: flex; gap: 1rem; padding: 0; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; max-width: 100%; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
/* A laptop's 1280 px: the history's columns get fixed shares, the reason what is left. */
#history { table-layout: fixed; width: 100%; font-size: 0.9em; }
#history th:nth-child(1) { width: 9.5rem; }
#history th:nth-child(2) { width: 5rem; }
#history th:nth-child(3) { width: 7rem; }
#history th:nth-child(4) { width: 8rem; }
#history th:nth-child(5), #history th:nth-child(6) { width: 8.5rem; }
#history th:nth-child(7) { width: 5rem; }
#history th:nth-child(8) { width: 6rem; }
details.more summary { cursor: pointer; color: #0b57a4; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
thead th { background: #f0f0f0; }
.bad { color: #a4001c; }
.warn { color: #7a4100; }
.ok { color: #1b5e20; }
.muted { color: #555; }
.counts { color: #333; font-size: 0.9em; }
.labels { color: #333; }
ul.jobs, ul.options { margin: 0.25rem 0 0; padding-left: 1.1rem; }
ul.jobs { max-width: 32rem; overflow-wrap: anywhere; }
time { white-space: nowrap; }
.plan { border: 1px solid #bbb; border-radius: 4px; padding: 0.5rem 1rem; margin-bottom: 1rem; }
.plan dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
.plan dd { margin: 0; }
.actions { display: flex; gap: 0.75rem; }
button { font: inherit; padding: 0.35rem 0.9rem; border: 1px solid #0b57a4; background: #0b57a4; color: #fff; border-radius: 4px; cursor: pointer; }
button[data-sync] { background: #fff; color: #0b57a4; }
button:disabled { opacity: 0.6; cursor: default; }
.status { font-weight: 600; min-height: 1.4em; }
.search { display: flex; flex-wrap: wrap; gap: 0 1.25rem; align-items: end; }
.search label { display: block; }
.problems { border: 2px solid #a4001c; padding: 0 1rem; }
.chart svg { border-bottom: 1px solid #888; max-width: 100%; }
ul.legend { list-style: none; display: flex; gap: 1rem; padding: 0; }
`;

export const CONSOLE_SCRIPT = `
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, url, body) {
  const init = { method, credentials: "same-origin", headers: { accept: "application/json" } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const answer = await fetch(url, init);
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  return { ok: answer.ok, status: answer.status, data };
}

function problemOf(answer) {
  if (answer.data && typeof answer.data.error === "string") return answer.data.error;
  if (answer.data && Array.isArray(answer.data.errors)) return answer.data.errors.join("; ");
  return "HTTP " + answer.status;
}

function say(article, text) {
  const status = article.querySelector(".status");
  if (status) status.textContent = text;
}

// Once a run has carried out an approved plan it is gone from the held list; its deletions are
// in the history, naming the plan in their reason.
async function watchApplied(article) {
  const project = article.dataset.project;
  const plan = article.dataset.plan;
  const approvedAt = article.dataset.approved;
  for (;;) {
    await pause(2000);
    const held = await call("GET", "/admin/api/projects/" + project + "/held");
    if (!held.ok || !held.data || !Array.isArray(held.data.held)) continue;
    if (!held.data.held.some((candidate) => candidate.id === plan)) break;
  }
  // Dismissed from this card meanwhile: the card already says so.
  if (article.dataset.dismissed === "true") return;
  const history = await call(
    "GET",
    "/admin/api/projects/" + project + "/history?limit=1000&since=" + encodeURIComponent(approvedAt),
  );
  const entries = history.ok && history.data && Array.isArray(history.data.entries) ? history.data.entries : [];
  const applied = entries.filter((entry) => entry.kind === "deleted" && entry.reason.includes(plan));
  article.dataset.applied = String(applied.length);
  say(
    article,
    applied.length === 0
      ? "The plan is done with: no option of it was left to delete (the PIM has them again, or the plan expired)."
      : "Applied by job " + applied[0].job + ": deleted " + applied.map((entry) => entry.collection + " / " + entry.option).join(", ") + ".",
  );
}

// An admin's decision on a plan (approve, dismiss): the answer's data, or null once the card says why it was refused.
async function decide(button, action, doing, refused) {
  const article = button.closest("article");
  const plan = article.dataset.plan;
  button.disabled = true;
  say(article, doing + " plan " + plan + "…");
  const answer = await call("POST", "/admin/api/projects/" + article.dataset.project + "/held/" + encodeURIComponent(plan) + "/" + action);
  if (answer.ok) return answer.data;
  button.disabled = false;
  say(article, refused + problemOf(answer));
  return null;
}

// The card's new outcome, the buttons that no longer apply gone, the focus on its status for screen readers.
function decided(article, gone, next, status) {
  article.querySelector(".next").textContent = next;
  for (const action of article.querySelectorAll(gone)) action.remove();
  const line = article.querySelector(".status");
  line.tabIndex = -1;
  line.focus();
  say(article, status);
}

async function approve(button) {
  const article = button.closest("article");
  const project = article.dataset.project;
  const data = await decide(button, "approve", "Approving", "Not approved: ");
  if (data === null) return;
  const approved = data.approved.approved;
  article.dataset.approved = approved.at;
  // An approved plan can still be dismissed, as the server allows: only the Approve button goes.
  decided(
    article,
    "button[data-approve]",
    "Approved by " + approved.by + " at " + approved.at + ": the next sync of project " + project +
      " deletes exactly those of these options the PIM still lacks.",
    "Approved. The next sync of project " + project + " applies it; its result shows here.",
  );
  void watchApplied(article);
}

// A dismissal keeps the options in the service; the history records each as kept, under the admin's name.
async function dismiss(button) {
  const article = button.closest("article");
  if ((await decide(button, "dismiss", "Dismissing", "Not dismissed: ")) === null) return;
  article.dataset.dismissed = "true";
  decided(
    article,
    "button[data-approve], button[data-dismiss]",
    "Dismissed: these options stay in the service, each recorded as kept in the history; a later sync that still finds them missing from the PIM decides again.",
    "Dismissed.",
  );
}

async function syncNow(button) {
  const article = button.closest("article");
  button.disabled = true;
  const answer = await call("POST", "/admin/api/projects/" + button.dataset.sync + "/sync", {});
  button.disabled = false;
  if (!answer.ok) return say(article, "Not queued: " + problemOf(answer));
  // A sync waiting for its retry (an upstream's Retry-After) runs later: say when, not "queued".
  if (answer.data.status === "delayed")
    return say(article, "Joined job " + answer.data.job_id + ", waiting for its retry: it runs at " + new Date(answer.data.runs_at).toLocaleString() + ".");
  say(article, "Sync queued as job " + answer.data.job_id + ".");
}

function planText(result) {
  const plan = Array.isArray(result.plan) ? result.plan : [];
  if (plan.length === 0) return "No collection matched.";
  return plan
    .map((c) =>
      c.collection + ": " + c.action +
      (c.upserts.length ? "; upsert " + c.upserts.join(", ") : "") +
      (c.deletes.length ? "; delete " + c.deletes.join(", ") : "") +
      (c.held_back.length ? "; held back " + c.held_back.join(", ") : "") +
      (c.more ? "; " + c.more + " more" : ""))
    .join("\\n");
}

async function resync(form, mode) {
  const project = form.dataset.resync;
  const body = { dry_run: mode === "dry" };
  for (const name of ["collection", "attribute"]) {
    const value = form.elements[name].value.trim();
    if (value) body[name] = value;
  }
  const output = form.querySelector(".plan-output");
  output.textContent = "";
  say(form, mode === "dry" ? "Planning…" : "Resyncing…");
  const answer = await call("POST", "/admin/api/projects/" + project + "/resync", body);
  if (!answer.ok) return say(form, "Not queued: " + problemOf(answer));
  const ref = answer.data.job_id;
  for (;;) {
    await pause(1000);
    const job = await call("GET", "/admin/api/jobs/" + ref);
    if (!job.ok || !job.data) continue;
    if (job.data.state === "failed") return say(form, "Job " + ref + " failed: " + (job.data.failed_reason || ""));
    if (job.data.state !== "completed") continue;
    say(form, (mode === "dry" ? "Dry run " + ref + ": nothing written; it would write:" : "Job " + ref + " wrote:"));
    output.textContent = planText(job.data.result || {});
    return;
  }
}

for (const form of document.querySelectorAll("form[data-resync]"))
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void resync(form, event.submitter ? event.submitter.value : "dry");
  });
for (const button of document.querySelectorAll("button[data-approve]")) button.addEventListener("click", () => void approve(button));
for (const button of document.querySelectorAll("button[data-dismiss]")) button.addEventListener("click", () => void dismiss(button));
for (const button of document.querySelectorAll("button[data-sync]")) button.addEventListener("click", () => void syncNow(button));
for (const article of document.querySelectorAll("article[data-approved]")) if (article.dataset.approved) void watchApplied(article);
`;
