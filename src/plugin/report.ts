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

/** The coverage table as the bundler's logger prints it. */
export function reportText(report: TmsReport): string {
  return `[unplugin-tms] translations\n${formatReport(report)}`
}
