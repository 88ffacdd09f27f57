/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A PIM locale (`en_US`) as HTML's `lang` wants it (BCP 47: `en-US`), so screen readers pick the voice. */
export function langOf(locale: string): string {
  return escapeHtml(locale.replace(/_/g, "-"));
}

/** Every console page's path starts here; the assets sit beside the pages. */
export const CONSOLE_PATH = "/admin/console";

/**
 * A whole console page: its own stylesheet and script only (the console's CSP allows nothing
 * else), a skip link to the content, and the navigation between the console and the dashboard.
 */
export function consoleDocument(page: {
  readonly title: string;
  readonly user: string;
  readonly role: string;
  readonly main: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · pim-sync console</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="${CONSOLE_PATH}/console.css">
<script type="module" src="${CONSOLE_PATH}/console.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<nav aria-label="Console">
<ul>
<li><a href="${CONSOLE_PATH}">Overview</a></li>
<li><a href="/admin">Job dashboard</a></li>
</ul>
</nav>
<p class="who">Signed in as <strong>${escapeHtml(page.user)}</strong> (${escapeHtml(page.role)})</p>
</header>
<main id="main" tabindex="-1">
${page.main}
</main>
</body>
</html>
`;
}

/** How long ago, for a person: `45 s`, `12 min`, `3 h`, `2 d`. */
export function ageText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** A time the browser can read (`datetime`) and a person too (UTC, to the second). */
export function timeElement(iso: string | null): string {
  if (iso === null) return "—";
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace("T", " ").replace(/\.\d+Z$/, "Z"))}</time>`;
}
