import { formatReport, type TmsReport } from '../core/report'

/** Written next to the bundle: `<outDir>/tms-report.json`. */
export const REPORT_FILE = 'tms-report.json'

/**
 * `{ locales: { [id]: { messages, translated, missing, coverage } }, pushed, requests }`, `unanswered`
 * when some requests got no answer, and
 * `unauthorized: { strings, locales: { [id]: count } }` when strings wait for an authorization.
 */
export function reportJson(report: TmsReport): string {
  const { locales, pushed, requests, unanswered, unauthorized } = report
  const json = {
    locales,
    pushed,
    requests,
    ...(unanswered ? { unanswered } : {}),
    ...(unauthorized ? { unauthorized } : {}),
  }
  return `${JSON.stringify(json, null, 2)}\n`
}

/** The coverage table for a logger that puts the plugin's name in front itself (webpack's, rspack's). */
export function reportBody(report: TmsReport): string {
  return `translations\n${formatReport(report, { hint: false })}`
}

/** The coverage table as a logger without the plugin's name prints it. */
export function reportText(report: TmsReport): string {
  return `[unplugin-tms] ${reportBody(report)}`
}
