import type { ResolvedOptions } from '../options'
import type { LocaleCoverage, SyncResult } from './sync'

/** What a build or `tms status` tells: coverage per locale, strings pushed, requests made. */
export interface TmsReport {
  locales: Record<string, LocaleCoverage>
  pushed: number
  requests: number
}

export function buildReport(result: Pick<SyncResult, 'coverage' | 'pushed'>, requests: number): TmsReport {
  const locales: Record<string, LocaleCoverage> = {}
  for (const locale of Object.keys(result.coverage).sort()) locales[locale] = result.coverage[locale]!
  return { locales, pushed: result.pushed, requests }
}

/** The report as an aligned text table, one line per locale. */
export function formatReport(report: TmsReport): string {
  const rows = [['locale', 'messages', 'translated', 'missing', 'coverage']]
  for (const [locale, c] of Object.entries(report.locales)) {
    rows.push([
      locale,
      String(c.messages),
      String(c.translated),
      String(c.missing),
      `${c.coverage.toFixed(1)}%`,
    ])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  const lines = rows.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  )
  for (const [locale, c] of Object.entries(report.locales)) {
    const n = c.incomplete?.length ?? 0
    if (n > 0) {
      lines.push(
        `${locale}: ${n} ICU translation${n === 1 ? ' lacks' : 's lack'} plural categories the locale needs (incomplete in the JSON report)`,
      )
    }
  }
  lines.push(`${report.pushed} new strings pushed, ${report.requests} requests made`)
  return lines.join('\n')
}

/**
 * The message that fails a production build, or undefined. It names the option that caused it, so
 * the fix (translate, or change the option) is obvious.
 */
export function thresholdFailure(
  report: TmsReport,
  options: Pick<ResolvedOptions, 'failOnMissing' | 'minCoverage' | 'locales'>,
): string | undefined {
  const targets = options.locales.filter((l) => report.locales[l])
  if (options.failOnMissing) {
    const missing = targets.filter((l) => report.locales[l]!.missing > 0)
    if (missing.length > 0) {
      const detail = missing.map(
        (l) => `${l} misses ${report.locales[l]!.missing} of ${report.locales[l]!.messages}`,
      )
      return `[unplugin-tms] failOnMissing: ${detail.join(', ')} messages. Publish the translations, or set failOnMissing: false.`
    }
  }
  if (options.minCoverage > 0) {
    const low = targets.filter((l) => report.locales[l]!.coverage < options.minCoverage)
    if (low.length > 0) {
      const detail = low.map((l) => `${l} ${report.locales[l]!.coverage}%`)
      return `[unplugin-tms] minCoverage: ${detail.join(', ')} below ${options.minCoverage}%. Publish more translations, or lower minCoverage.`
    }
  }
  return undefined
}
