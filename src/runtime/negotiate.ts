/**
 * Choosing the first locale of a page: from what the app allows (the URL, a cookie or storage, the
 * browser's languages), matched against the configured locales. Only an app that imports these
 * functions ships them: a bundler drops them otherwise (bench/sections/runtime-size.ts). The two public
 * functions that read the runtime's state (`negotiateLocale`, `rememberLocale`) are in index.ts, so
 * that this file imports nothing of it.
 */
import type { Locale } from './types'

/** Where a locale may come from, in the order they are read by default. */
export type LocaleSource = 'path' | 'query' | 'cookie' | 'storage' | 'navigator'

export interface LocaleSources {
  /** The sources the app allows, read in this order. Default: every source, in this order. */
  from?: readonly LocaleSource[]
  /** The query parameter (`?lang=fr`), the cookie's name and the storage key. Default `'lang'`. */
  key?: string
  /** The locales to choose from. Default: the configured ones (`getLocales()`), source locale first. */
  locales?: readonly string[]
  /** Default: the page's `location` (the path's first segment, `/fr/about`, and the query). */
  location?: { pathname: string; search: string }
  /** Default: the page's `document` (its `cookie`). */
  document?: { cookie: string }
  /** Default: the page's `localStorage` (none where reading it throws, as in a sandboxed frame). */
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null
  /** Default: the page's `navigator` (its `languages`, else `language`). */
  navigator?: { languages?: readonly string[]; language?: string }
}

type Env = Required<Omit<LocaleSources, 'locales'>>

function env(o: LocaleSources): Env {
  const g = globalThis as Partial<Env> & { localStorage?: Env['storage'] }
  let storage = o.storage
  if (storage === undefined) {
    try {
      storage = g.localStorage ?? null
    } catch {
      storage = null
    }
  }
  return {
    from: o.from ?? ['path', 'query', 'cookie', 'storage', 'navigator'],
    key: o.key ?? 'lang',
    location: o.location ?? g.location ?? { pathname: '', search: '' },
    document: o.document ?? g.document ?? { cookie: '' },
    storage,
    navigator: o.navigator ?? g.navigator ?? {},
  }
}

/** The locales each source asks for, in the order of `from`. */
function candidates(e: Env): string[] {
  const out: string[] = []
  for (const source of e.from) {
    if (source === 'path') out.push(e.location.pathname.split('/')[1] ?? '')
    else if (source === 'query') out.push(new URLSearchParams(e.location.search).get(e.key) ?? '')
    else if (source === 'cookie') out.push(...cookieValues(e.document.cookie, e.key))
    else if (source === 'storage') out.push(e.storage?.getItem(e.key) ?? '')
    else out.push(...(e.navigator.languages ?? [e.navigator.language ?? '']))
  }
  return out.filter(Boolean)
}

/**
 * The values of the cookies named `key` in a `Cookie` header (or `document.cookie`), in its order. A
 * value with a malformed escape (`lang=%E0`) is skipped: a stray cookie must not break the page.
 */
export function cookieValues(cookie: string, key: string): string[] {
  const out: string[] = []
  for (const pair of cookie.split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === key) {
      try {
        out.push(decodeURIComponent(pair.slice(at + 1).trim()))
      } catch {
        // Not an escape this runtime wrote: the next source decides.
      }
    }
  }
  return out
}

const language = (tag: string): string => tag.split(/[-_]/)[0]!.toLowerCase()
/** en-XA and ar-XB: made on the machine for testing; never what a reader's language stands for. */
export const isPseudoLocale = (tag: string): boolean => /[-_]x[ab]$/i.test(tag)

/**
 * The configured locale `wanted` stands for, if any: the same tag (`fr-CA`, in any case), else its
 * language (`fr-CA` -> `fr`), else a configured locale of that language (`fr` -> `fr-FR`).
 */
export function matchLocale(wanted: string, locales: readonly string[]): string | undefined {
  const tag = wanted.trim().replace(/_/g, '-').toLowerCase()
  const lang = language(tag)
  return (
    locales.find((l) => l.toLowerCase() === tag) ??
    locales.find((l) => l.toLowerCase() === lang) ??
    locales.find((l) => language(l) === lang && !isPseudoLocale(l))
  )
}

/**
 * What {@link negotiateLocale} (src/runtime/index.ts, beside the configured locales it reads) returns:
 * the first source's locale that `locales` has, else the first of `locales`.
 */
export function pickLocale(options: LocaleSources, locales: readonly string[]): Locale {
  for (const wanted of candidates(env(options))) {
    const found = matchLocale(wanted, locales)
    if (found) return found as Locale
  }
  return (locales[0] ?? '') as Locale
}

/**
 * What {@link rememberLocale} (src/runtime/index.ts, beside the listeners) calls on each switch: the
 * locale written to the cookie and the storage that `from` allows.
 */
export function localeWriter(options: LocaleSources): (locale: Locale) => void {
  const e = env(options)
  return (locale) => {
    if (e.from.includes('cookie'))
      e.document.cookie = `${e.key}=${encodeURIComponent(locale)}; path=/; max-age=31536000; samesite=lax`
    if (e.from.includes('storage')) {
      try {
        e.storage?.setItem(e.key, locale)
      } catch {
        // Storage full or refused (private mode): the cookie, when allowed, still remembers.
      }
    }
  }
}
