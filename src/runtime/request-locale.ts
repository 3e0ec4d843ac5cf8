/**
 * Choosing a request's locale on a server: the locale cookie when it names a configured locale, else
 * the best match of `Accept-Language` by q-value. Only the server runtime (node.ts) imports this file,
 * so the browser runtime never carries it. The matching itself is the browser's (`matchLocale`): one
 * rule everywhere, pseudo-locales included.
 */
import { cookieValues, isPseudoLocale, matchLocale } from './negotiate'
import type { Locale } from './types'

export interface RequestLocaleSources {
  /**
   * The request's `Accept-Language` header, e.g. `'fr-CA,fr;q=0.9,en;q=0.5'`. Entries that do not parse
   * (a bad tag or q-value) are skipped, the rest still count; none or empty: the source locale.
   */
  acceptLanguage?: string | null
  /** The request's `Cookie` header: the cookie named `key` wins when it names a configured locale. */
  cookie?: string | null
  /** The cookie's name, as `rememberLocale` writes it. Default `'lang'`. */
  key?: string
  /** The locales to choose from, the default (source locale) first. Default: `getLocales()`. */
  locales?: readonly string[]
}

/** One entry of `Accept-Language`: a language range (`fr-CA`, `fr`, `*`) and its weight. */
export interface LanguageRange {
  range: string
  q: number
}

// A range (`*` or a tag of letters and digits in parts of 1 to 8) and an optional weight, spaces
// allowed around each as RFC 9110 does; a weight has at most 3 decimals and lies in [0, 1].
const ENTRY =
  /^\s*(\*|[a-z]{1,8}(?:[-_][a-z\d]{1,8})*)\s*(?:;\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*)?$/i

/**
 * The entries of an `Accept-Language` header in the order of preference: by weight, ties in the
 * header's order (the sort is stable). Entries with q=0 are kept: they refuse a language.
 */
export function parseAcceptLanguage(header: string): LanguageRange[] {
  const ranges: LanguageRange[] = []
  for (const entry of header.split(',')) {
    const m = ENTRY.exec(entry)
    if (m)
      ranges.push({ range: m[1]!.replace(/_/g, '-').toLowerCase(), q: m[2] === undefined ? 1 : Number(m[2]) })
  }
  return ranges.sort((a, b) => b.q - a.q)
}

/**
 * Whether the header refuses `locale`: the most specific range that covers it (`fr-ca` before `fr`)
 * has q=0. So `fr;q=0` refuses fr-FR and fr-CA, and `en-US, en;q=0` still accepts en-US.
 */
function refuses(ranges: readonly LanguageRange[], locale: string): boolean {
  const tag = locale.toLowerCase()
  let best: LanguageRange | undefined
  for (const r of ranges) {
    const covers = tag === r.range || tag.startsWith(`${r.range}-`)
    if (covers && (!best || r.range.length > best.range.length)) best = r
  }
  return best?.q === 0
}

/**
 * What `negotiateRequestLocale` (node.ts, beside the configured locales it reads) returns: the first
 * cookie value that names one of `locales`; else, for each range of `Accept-Language` by preference,
 * the locale it names (as `matchLocale`: same tag, its language, a locale of its language) among those
 * the header does not refuse, `*` naming the first of them that is not a pseudo-locale; else the first
 * of `locales`. A pseudo-locale is chosen only when the cookie or a range names it exactly.
 */
export function pickRequestLocale(sources: RequestLocaleSources, locales: readonly string[]): Locale {
  for (const wanted of cookieValues(sources.cookie ?? '', sources.key ?? 'lang')) {
    const found = matchLocale(wanted, locales)
    if (found) return found as Locale
  }
  const ranges = parseAcceptLanguage(sources.acceptLanguage ?? '')
  const accepted = locales.filter((l) => !refuses(ranges, l))
  for (const { range, q } of ranges) {
    if (q === 0) break
    const found = range === '*' ? accepted.find((l) => !isPseudoLocale(l)) : matchLocale(range, accepted)
    if (found) return found as Locale
  }
  return (locales[0] ?? '') as Locale
}
