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
