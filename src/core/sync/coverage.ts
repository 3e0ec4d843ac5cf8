/** A locale's coverage in a sync's result: how many of the messages its checked translations cover. */
export interface LocaleCoverage {
  messages: number
  translated: number
  missing: number
  coverage: number
  /**
   * ICU translations that lack plural categories the locale needs (Polish without `few`): still
   * used, listed as `<hashcode>: few, many`. Absent when there are none.
   */
  incomplete?: string[]
}

/** A checked locale's coverage, with the ICU translations that lack plural categories when there are any. */
export function checkedCoverage(
  messages: number,
  translated: number,
  incomplete: readonly string[],
): LocaleCoverage {
  const coverage = coverageOf(messages, translated)
  if (incomplete.length > 0) coverage.incomplete = [...incomplete]
  return coverage
}

/** A locale's coverage: translated of all messages, to a tenth of a percent, rounded down. */
export function coverageOf(messages: number, translated: number): LocaleCoverage {
  return {
    messages,
    translated,
    missing: messages - translated,
    coverage: messages === 0 ? 100 : Math.floor((translated / messages) * 1000) / 10,
  }
}
