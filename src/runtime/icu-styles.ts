/**
 * The readings of ICU's named number, date and time styles, as intl-messageformat (the oracle) gives
 * them, so that a message formats exactly as intl-messageformat formats the same text. Written once
 * for the build's compiler (src/core/icu/compile.ts) and the run-time reader (src/runtime/parse.ts).
 */

export const NUMBER_STYLES: Record<string, Record<string, unknown>> = {
  integer: { maximumFractionDigits: 0 },
  percent: { style: 'percent' },
  currency: { style: 'currency' },
}
export const DATE_STYLES: Record<string, Record<string, unknown>> = {
  short: { month: 'numeric', day: 'numeric', year: '2-digit' },
  medium: { month: 'short', day: 'numeric', year: 'numeric' },
  long: { month: 'long', day: 'numeric', year: 'numeric' },
  full: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
}
export const TIME_STYLES: Record<string, Record<string, unknown>> = {
  short: { hour: 'numeric', minute: 'numeric' },
  medium: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
  long: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
  full: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
}
