/**
 * The candidate a mistyped name most likely meant, for a "did you mean" hint: the one at the
 * smallest edit distance, case aside (a swap of two neighbouring letters counts as one edit, the commonest
 * slip), if it is close enough to be a typo of it rather than another word; else the one
 * candidate the name begins (`--conf` for `--config`). Undefined when nothing is close, or when
 * two candidates are equally close: a hint that guesses is worse than none.
 */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  // One edit in a short word, up to a third of a long one: `--jsno` is `--json`, `--all` is not `--id`.
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tied = false;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance) tied = true;
  }
  if (best !== undefined && bestDistance <= allowed && !tied) return best;
  if (word.length >= 3) {
    const extended = [...new Set(candidates)].filter((candidate) => candidate.toLowerCase().startsWith(word));
    if (extended.length === 1) return extended[0];
  }
  return undefined;
}

/** Insertions, deletions, substitutions and swaps of neighbouring letters (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const substitution = (above[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let cost = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(cost);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}
