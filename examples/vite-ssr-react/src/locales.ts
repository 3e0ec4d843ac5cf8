/** The locales the app is rendered in: the source locale, the target locales, the pseudo-locale. */
export const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'ar-XB']

/** The pages of the app, by path below the locale (`/fr-FR/cart`). */
export const PAGES = ['', 'cart'] as const
export type Page = (typeof PAGES)[number]

const RIGHT_TO_LEFT = /^(?:ar|he|fa|ur|yi|ps|dv|ckb|sd|ug)(?:-|$)/i

/** The `dir` of a page in `locale`. */
export function dirOf(locale: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.test(locale) ? 'rtl' : 'ltr'
}

/** The locale and page of a path such as `/fr-FR/cart`; undefined for a path the app has no page at. */
export function route(path: string): { locale: string; page: Page } | undefined {
  // A static host serves `/fr-FR/cart/` or `/fr-FR/cart/index.html` for the same page.
  const [, locale = '', page = '', ...rest] = path.replace(/\/(?:index\.html)?$/, '').split('/')
  if (!LOCALES.includes(locale) || rest.length > 0 || !(PAGES as readonly string[]).includes(page)) {
    return undefined
  }
  return { locale, page: page as Page }
}
