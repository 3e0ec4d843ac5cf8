/**
 * "Did you mean": the known name a typo most likely stands for (`tms pul`, `--jsn`, an option
 * `locale` for `locales`). Edit distance with transpositions, and only a close one: a name far from
 * every known one gets no guess, since a wrong guess misleads more than none.
 */

/** Edits (insert, delete, replace, swap two neighbours) between two names, case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i])
  for (let j = 1; j <= t.length; j++) rows[0]![j] = j
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[s.length]![t.length]!
}

/** The closest known name within a third of its length (at least 1, at most 3 edits), or undefined. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of known) {
    const d = distance(name, candidate)
    const limit = Math.min(3, Math.max(1, Math.floor(candidate.length / 3)))
    if (d <= limit && d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}
