/** The `dir` of a locale's pages: right-to-left for the RTL languages and the ar-XB pseudo-locale. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return /^(?:ar|he|fa|ur)(?:-|$)/.test(locale) ? 'rtl' : 'ltr'
}

/** The day an order was placed: one instant, a different day in Tokyo. */
export const ORDERED_AT: number = Date.UTC(2026, 2, 1, 22, 30)
