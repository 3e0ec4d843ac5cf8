/**
 * The report folder: what a build or `tms status` tells (coverage per locale, strings pushed, requests
 * made and unanswered, strings waiting for an authorization) and the `failOnMissing`/`minCoverage`
 * thresholds. The plugin prints it and writes `tms-report.json` (`src/plugin/report.ts`).
 */
import type { ResolvedOptions } from '../model/options'
import type { LocaleCoverage, SyncResult } from '../sync'
import type { Unauthorized } from '../sync/authorization'
import { counted } from '../wording'

/** What a build or `tms status` tells: coverage per locale, strings pushed, requests made. */
export interface TmsReport {
  locales: Record<string, LocaleCoverage>
  pushed: number
  requests: number
  /** Requests that got no answer (a network failure, a timeout); absent when every request got one. */
  unanswered?: number
  /** Present when the pull found strings on the service that wait for an authorization. */
  unauthorized?: Unauthorized
}

export function buildReport(
  result: Pick<SyncResult, 'coverage' | 'pushed' | 'unauthorized'>,
  requests: number,
  unanswered = 0,
): TmsReport {
  const locales: Record<string, LocaleCoverage> = {}
  for (const locale of Object.keys(result.coverage).sort()) locales[locale] = result.coverage[locale]!
  const report: TmsReport = { locales, pushed: result.pushed, requests }
  if (unanswered > 0) report.unanswered = unanswered
  if (result.unauthorized) report.unauthorized = result.unauthorized
  return report
}

/**
 * What to do about strings that wait for an authorization: the service returns no translation for
 * them, so they show the source text however long translators work on other strings.
 */
export function authorizationHint(unauthorized: Unauthorized): string {
  const n = unauthorized.strings
  const locales = Object.entries(unauthorized.locales).map(([l, c]) => `${l} ${c}`)
  return (
    `${n} string${n === 1 ? '' : 's'} ${n === 1 ? 'awaits' : 'await'} authorization on the service ` +
    `(${locales.join(', ')}) and ${n === 1 ? 'gets' : 'get'} no translation until authorized: ` +
    `authorize ${n === 1 ? 'it' : 'them'} in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings`
  )
}

/**
 * "4 requests made", and how many got no answer: a run that reached nothing says so rather than
 * counting its attempts as if the service had answered them.
 */
export function requestsMade(report: Pick<TmsReport, 'requests' | 'unanswered'>): string {
  const made = `${counted(report.requests, 'request')} made`
  const unanswered = report.unanswered ?? 0
  if (unanswered === 0) return made
  return unanswered >= report.requests ? `${made}, none answered` : `${made} (${unanswered} unanswered)`
}

/**
 * The report as an aligned text table, one line per locale, and a summary line. `pushes: false` for
 * the commands that never push (`tms pull`, `tms status`): their summary leaves strings pushed out.
 * `hint: false` for a build, which warns of strings awaiting authorization on its own.
 */
export function formatReport(
  report: TmsReport,
  { pushes = true, hint = true }: { pushes?: boolean; hint?: boolean } = {},
): string {
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
      // The sync's warning names each message and its place; this line keeps the count in the summary.
      const named = c.incomplete!.slice(0, 3).join('; ')
      lines.push(
        `${locale}: ${n} ICU translation${n === 1 ? ' lacks' : 's lack'} plural categories the locale needs ` +
          `(${named}${n > 3 ? `; ${n - 3} more` : ''}): add them on the service (incomplete in the JSON report)`,
      )
    }
  }
  const requests = requestsMade(report)
  lines.push(pushes ? `${counted(report.pushed, 'new string')} pushed, ${requests}` : requests)
  // A build gives the hint as its own warning (most bundlers print no info-level report): not twice.
  if (report.unauthorized && hint) lines.push(authorizationHint(report.unauthorized))
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
