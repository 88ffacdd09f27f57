const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `--since` / `since=`: an age (`30m`, `12h`, `7d`, `2w`) or an ISO 8601 date. Returns the
 * earliest time wanted (epoch ms), or an error message naming what was given.
 */
export function parseSince(text: string, nowMs: number): { readonly sinceMs: number } | { readonly error: string } {
  const age = /^(\d+)([smhdw])$/.exec(text.trim());
  if (age?.[1] !== undefined && age[2] !== undefined) return { sinceMs: nowMs - Number(age[1]) * (UNIT_MS[age[2]] ?? 0) };
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return { sinceMs: ms };
  }
  return { error: `since: '${text}' is neither an age (30m, 12h, 7d, 2w) nor an ISO 8601 date` };
}
