/** The locales the site is built in: the source locale, the target locales, the pseudo-locale. */
export const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'ar-XB']

const RIGHT_TO_LEFT = /^(?:ar|he|fa|ur|yi|ps|dv|ckb|sd|ug)(?:-|$)/i

/** The `dir` of a page in `locale`. */
export function dirOf(locale: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.test(locale) ? 'rtl' : 'ltr'
}

/**
 * The zone dates are written in, on the server (src/middleware.ts) and in the browser
 * (astro.config.mjs, before any island hydrates): a static page cannot know its reader's zone, so the shop's is pinned.
 */
export const TIME_ZONE = 'Europe/Paris'
