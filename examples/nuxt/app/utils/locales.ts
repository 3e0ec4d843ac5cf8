/** The zone pages render dates in when the user's is not known yet (first visit, `nuxi generate`). */
export const DEFAULT_TIME_ZONE = 'UTC'

/** The `dir` of a locale's pages: right-to-left for the RTL languages and the ar-XB pseudo-locale. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return /^(?:ar|he|fa|ur)(?:-|$)/.test(locale) ? 'rtl' : 'ltr'
}

/** The user's zone from the `tz` cookie when the runtime knows it; else the default (a cookie is input). */
export function timeZoneOf(cookie: string | undefined): string {
  if (!cookie) return DEFAULT_TIME_ZONE
  try {
    new Intl.DateTimeFormat('en', { timeZone: cookie })
    return cookie
  } catch {
    return DEFAULT_TIME_ZONE
  }
}

/** The day an order was placed: one instant, a different day in Tokyo. */
export const ORDERED_AT: number = Date.UTC(2026, 2, 1, 22, 30)
