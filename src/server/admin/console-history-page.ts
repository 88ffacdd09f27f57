import { HISTORY_KINDS, type HistoryEntry, type HistoryKind } from "../../stores/history/history-entry.js";
import type { DailyWriteCount } from "../../stores/history/daily-write-counts.js";
import { CONSOLE_PATH, escapeHtml, langOf, timeElement } from "./console-html.js";
import { dashboardJobHref } from "./console-overview-page.js";

export interface HistorySearch {
  readonly collection?: string | undefined;
  readonly option?: string | undefined;
  readonly since?: string | undefined;
  readonly cursor?: string | undefined;
}

/** Colours told apart with the common colour-vision deficiencies (Okabe–Ito), each kind also named in the legend. */
const KIND_COLOUR: Record<HistoryKind, string> = {
  added: "#009E73",
  relabelled: "#0072B2",
  renamed: "#CC79A7",
  deleted: "#D55E00",
  replaced: "#6b6b6b",
  kept: "#E69F00",
};

const BAR = 8;
const GAP = 2;
const HEIGHT = 120;

/** Writes per day by kind as stacked bars, with the figures as a table for those who cannot see it. */
function dailyChart(project: number, days: readonly DailyWriteCount[]): string {
  const max = Math.max(1, ...days.map((day) => day.total));
  const bars = days
    .map((day, index) => {
      let top = HEIGHT;
      const parts = HISTORY_KINDS.filter((kind) => day.counts[kind] > 0).map((kind) => {
        const height = Math.max(1, Math.round((day.counts[kind] / max) * HEIGHT));
        top -= height;
        return `<rect x="${index * (BAR + GAP)}" y="${top}" width="${BAR}" height="${height}" fill="${KIND_COLOUR[kind]}"><title>${day.day}: ${day.counts[kind]} ${kind}</title></rect>`;
      });
      return parts.join("");
    })
    .join("");
  const width = Math.max(1, days.length * (BAR + GAP));
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const total = days.reduce((sum, day) => sum + day.total, 0);
  const legend = HISTORY_KINDS.map(
    (kind) =>
      `<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${KIND_COLOUR[kind]}"></rect></svg> ${kind}</li>`,
  ).join("");
  const rows = days
    .filter((day) => day.total > 0)
    .map(
      (day) =>
        `<tr><th scope="row">${day.day}</th>${HISTORY_KINDS.map((kind) => `<td>${day.counts[kind]}</td>`).join("")}<td>${day.total}</td></tr>`,
    )
    .join("");
  return `<figure class="chart">
<svg role="img" aria-labelledby="chart-title" viewBox="0 0 ${width} ${HEIGHT}" width="${width}" height="${HEIGHT}" preserveAspectRatio="none">
<title id="chart-title">Writes per day by kind for project ${project}, ${first} to ${last}: ${total} in all, the highest day ${max}</title>
${bars}
</svg>
<figcaption>Writes per day (UTC) over the retention, ${escapeHtml(first)} to ${escapeHtml(last)}; highest day: ${max}.<ul class="legend">${legend}</ul></figcaption>
</figure>
<details>
<summary>Writes per day as a table</summary>
<table>
<caption>Days with writes</caption>
<thead><tr><th scope="col">Day</th>${HISTORY_KINDS.map((kind) => `<th scope="col">${kind}</th>`).join("")}<th scope="col">total</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</details>`;
}

const labelsText = (labels: Readonly<Record<string, string>> | null): string =>
  labels === null
    ? "—"
    : Object.entries(labels)
        .map(([locale, label]) => `<span lang="${langOf(locale)}">${escapeHtml(locale)}: ${escapeHtml(label)}</span>`)
        .join("<br>");

function entryRow(entry: HistoryEntry, queue: string): string {
  const job = /^\d+\/[^/]+$/.test(entry.job)
    ? `<a href="${dashboardJobHref(queue, entry.job.slice(entry.job.indexOf("/") + 1))}">${escapeHtml(entry.job)}</a>`
    : escapeHtml(entry.job);
  return `<tr>
<td>${timeElement(entry.at)}</td>
<td class="kind-${entry.kind}">${entry.kind}</td>
<td>${escapeHtml(entry.collection)}</td>
<td><code>${escapeHtml(entry.option)}</code>${entry.renamedFrom ? `<br>was ${entry.renamedFrom.map(escapeHtml).join(", ")}` : ""}</td>
<td>${labelsText(entry.labelsBefore)}</td>
<td>${labelsText(entry.labelsAfter)}</td>
<td>${job}</td>
<td>${entry.trigger}${entry.requestedBy === undefined ? "" : ` (${escapeHtml(entry.requestedBy)})`}</td>
<td>${reasonCell(entry.reason)}</td>
</tr>`;
}

/** Past this, a reason shows its start and folds the rest: a long one made rows a screen tall. */
const REASON_SHOWN = 120;

function reasonCell(reason: string): string {
  if (reason.length <= REASON_SHOWN) return escapeHtml(reason);
  return `${escapeHtml(reason.slice(0, REASON_SHOWN))}<details class="more"><summary>the rest</summary>${escapeHtml(reason.slice(REASON_SHOWN))}</details>`;
}

const PERIODS = [
  ["", "the whole retention"],
  ["24h", "the last 24 hours"],
  ["7d", "the last 7 days"],
  ["30d", "the last 30 days"],
] as const;

/** A project's history: the search form, the chart of writes per day, then a page of entries, newest first. */
export function historyMain(args: {
  readonly project: number;
  readonly queue: string;
  readonly search: HistorySearch;
  readonly entries: readonly HistoryEntry[];
  readonly nextCursor: string | null;
  readonly days: readonly DailyWriteCount[];
  readonly problems: readonly string[];
}): string {
  const { project, search } = args;
  const value = (text: string | undefined): string => escapeHtml(text ?? "");
  const known = PERIODS.some(([since]) => since === (search.since ?? ""));
  const periods = [...PERIODS, ...(known ? [] : [[search.since ?? "", search.since ?? ""] as const])]
    .map(
      ([since, text]) =>
        `<option value="${escapeHtml(since)}"${since === (search.since ?? "") ? " selected" : ""}>${escapeHtml(text)}</option>`,
    )
    .join("");
  const next =
    args.nextCursor === null
      ? ""
      : `<p><a rel="next" href="${CONSOLE_PATH}/projects/${project}/history?${escapeHtml(
          new URLSearchParams({
            ...(search.collection ? { collection: search.collection } : {}),
            ...(search.option ? { option: search.option } : {}),
            ...(search.since ? { since: search.since } : {}),
            cursor: args.nextCursor,
          }).toString(),
        )}">Older entries</a></p>`;
  const problems =
    args.problems.length === 0
      ? ""
      : `<div class="problems" role="alert"><p>The search was not run:</p><ul>${args.problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul></div>`;
  return `<h1>Project ${project}: change history</h1>
${dailyChart(project, args.days)}
<form method="get" action="${CONSOLE_PATH}/projects/${project}/history" class="search" role="search" aria-label="Search the history">
<p><label for="collection">Collection</label> <input id="collection" name="collection" value="${value(search.collection)}" autocomplete="off"></p>
<p><label for="option">Option</label> <input id="option" name="option" value="${value(search.option)}" autocomplete="off"></p>
<p><label for="since">Period</label> <select id="since" name="since">${periods}</select></p>
<p><button type="submit">Search</button></p>
</form>
${problems}
<table id="history">
<caption>${args.entries.length === 0 ? "No entry matches" : `Entries, newest first${search.cursor ? " (an older page)" : ""}`}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Collection</th><th scope="col">Option</th><th scope="col">Labels before</th><th scope="col">Labels after</th><th scope="col">Job</th><th scope="col">Trigger</th><th scope="col">Reason</th></tr></thead>
<tbody>
${args.entries.map((entry) => entryRow(entry, args.queue)).join("\n")}
</tbody>
</table>
${next}`;
}
