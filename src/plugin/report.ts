import { formatReport, type TmsReport } from '../core/report'

/** Written next to the bundle: `<outDir>/tms-report.json`. */
export const REPORT_FILE = 'tms-report.json'

/** `{ locales: { [id]: { messages, translated, missing, coverage } }, pushed, requests }`. */
export function reportJson(report: TmsReport): string {
  return `${JSON.stringify({ locales: report.locales, pushed: report.pushed, requests: report.requests }, null, 2)}\n`
}

/** The coverage table as the bundler's logger prints it. */
export function reportText(report: TmsReport): string {
  return `[unplugin-tms] translations\n${formatReport(report)}`
}
