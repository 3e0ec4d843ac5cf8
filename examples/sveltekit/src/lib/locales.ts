import { getLocales } from 'unplugin-tms/runtime'

/** The configured locales, the source locale first (the plugin registers them with the runtime). */
export const LOCALES: string[] = getLocales()

/** The zone pages render dates in when the user's is not known yet (first visit, prerendering). */
export const DEFAULT_TIME_ZONE = 'UTC'

/** The `dir` of a locale's pages: right-to-left for the RTL languages and the ar-XB pseudo-locale. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return /^(?:ar|he|fa|ur)(?:-|$)/.test(locale) ? 'rtl' : 'ltr'
}

/**
 * The user's zone from the `tz` cookie (hooks.client.ts writes the browser's), when the runtime knows
 * it; else the default. A cookie is the user's input: a bad one must not fail the page.
 */
export function timeZoneOf(cookie: string | undefined): string {
  if (!cookie) return DEFAULT_TIME_ZONE
  try {
    new Intl.DateTimeFormat('en', { timeZone: cookie })
    return cookie
  } catch {
    return DEFAULT_TIME_ZONE
  }
}

/** The day an order was placed, the date the home page shows: one instant, a different day in Tokyo. */
export const ORDERED_AT: number = Date.UTC(2026, 2, 1, 22, 30)
