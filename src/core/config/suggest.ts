/**
 * "Did you mean …?": the nearest known word to a misspelt one, by edit distance. Pure.
 */

/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment), so
 * `lnaes` is one edit from `lanes`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * The candidate closest to `input` (case-insensitive), or null when none is close: at most one edit
 * for short words, up to three for long ones. Ties go to the earlier candidate.
 */
export function suggest(input: string, candidates: readonly string[]): string | null {
  const word = input.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` when a candidate is close, else the empty string. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const near = suggest(input, candidates);
  return near === null ? '' : `; did you mean "${near}"?`;
}
