/** The app's locales, the source locale first, as tms.config.mjs lists them. */
export const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'ar-XB'] as const
export type AppLocale = (typeof LOCALES)[number]

export function isLocale(value: string): value is AppLocale {
  return (LOCALES as readonly string[]).includes(value)
}

/** Right-to-left scripts, and the right-to-left pseudo-locale. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return /^(?:ar|he|fa|ur)(?:-|$)/.test(locale) ? 'rtl' : 'ltr'
}

/**
 * The zone of the app's dates, the same on the server and in the browser: the pages are static (one per
 * locale at build time), so no request tells the server the reader's zone, and a browser in another zone
 * would hydrate other text.
 */
export const TIME_ZONE = 'UTC'
