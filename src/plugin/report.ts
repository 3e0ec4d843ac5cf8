import { formatReport, type TmsReport } from '../core/report'

/** Written next to the bundle: `<outDir>/tms-report.json`. */
export const REPORT_FILE = 'tms-report.json'

/**
 * `{ locales: { [id]: { messages, translated, missing, coverage } }, pushed, requests }`, and
 * `unauthorized: { strings, locales: { [id]: count } }` when strings wait for an authorization.
 */
export function reportJson(report: TmsReport): string {
  const { locales, pushed, requests, unauthorized } = report
  return `${JSON.stringify({ locales, pushed, requests, ...(unauthorized ? { unauthorized } : {}) }, null, 2)}\n`
}

/** The coverage table for a logger that puts the plugin's name in front itself (webpack's, rspack's). */
export function reportBody(report: TmsReport): string {
  return `translations\n${formatReport(report)}`
}

/** The coverage table as a logger without the plugin's name prints it. */
export function reportText(report: TmsReport): string {
  return `[unplugin-tms] ${reportBody(report)}`
}
