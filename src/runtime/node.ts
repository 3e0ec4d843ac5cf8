/**
 * The server runtime of unplugin-tms (the `node` export condition of `unplugin-tms/runtime`, and what
 * the plugin puts in a server build): the browser runtime plus a locale per request.
 *
 * A server renders many requests at once, in different locales. `runWithLocale(locale, fn)` gives
 * every `t` inside `fn`, across awaits, that locale and its catalog, through AsyncLocalStorage; outside
 * any request the page state of the browser runtime applies. Each catalog is loaded once per process.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import {
  _a,
  _c,
  _d,
  _z,
  _zone,
  type Catalog,
  getLocales,
  getTimeZone,
  type LocaleState,
  setLocale as setPageLocale,
} from './index'
import { pickRequestLocale, type RequestLocaleSources } from './request-locale'
import type { Locale } from './types'

export type {
  DateValue,
  DefinitionArgs,
  DescriptorArgs,
  DescriptorValues,
  Formatted,
  Locale,
  LocaleSource,
  LocaleSources,
  MessageArgs,
  MessageDescriptor,
  MessageOptions,
  MessageResult,
  MessageValues,
  NumberValue,
  Printable,
  Register,
  TagFunction,
  Values,
} from './index'
export {
  _f,
  _l,
  _m,
  _r,
  _t,
  _u,
  getLocale,
  getLocales,
  getTimeZone,
  matchLocale,
  msg,
  negotiateLocale,
  onLocaleChange,
  rememberLocale,
  setTimeZone,
  t,
} from './index'
export type { RequestLocaleSources } from './request-locale'

const requests = new AsyncLocalStorage<LocaleState>()
/** Locale -> its catalog (undefined for the source locale), loaded once and shared by every request. */
const catalogs = new Map<string, Promise<Catalog | undefined>>()

_a((page) => requests.getStore() ?? page)
// A request's zone must reach the Intl objects even in an app that never calls setTimeZone.
_z()

/** Options of {@link runWithLocale}. */
export interface RequestOptions {
  /**
   * The IANA time zone of the request's dates and times (`'Asia/Tokyo'`, from the user's cookie, say).
   * Default: the zone `setTimeZone` set for the process (or the enclosing request's), else the server's own.
   */
  timeZone?: string
}

function catalogOf(locale: string): Promise<Catalog | undefined> {
  let loading = catalogs.get(locale)
  if (!loading) {
    // Throws at once for an unknown locale, which then is not cached.
    loading = Promise.resolve(_c(locale))
    catalogs.set(locale, loading)
    // A failed load (a missing chunk file) is tried again by the next request.
    loading.catch(() => catalogs.delete(locale))
  }
  return loading
}

/**
 * Runs `fn` with `locale` as the locale of every `t` and `getLocale()` inside it, across awaits, while
 * other requests run in theirs. Resolves with what `fn` returns, once the locale's catalog is loaded
 * (the first time in the process) and `fn` is done. Rejects for a locale the build has no catalog for.
 *
 * @example
 * const html = await runWithLocale('fr-FR', () => renderToString(<App />), { timeZone: 'UTC' })
 */
export async function runWithLocale<T>(
  locale: Locale,
  fn: () => T | Promise<T>,
  options: RequestOptions = {},
): Promise<T> {
  const timeZone = _zone(options.timeZone) ?? getTimeZone()
  const catalog = await catalogOf(locale)
  return requests.run({ locale, catalog, timeZone }, fn)
}

/** Each locale's catalog once loaded, for {@link enterLocale}'s synchronous step. */
const loaded = new Map<string, Catalog | undefined>()
/** Per locale, its loading and the states entered meanwhile, which get the catalog when it comes. */
const entering = new Map<string, { loading: Promise<void>; states: LocaleState[] }>()

/**
 * Puts the rest of the current async context in `locale` (and `options.timeZone`), for renderers that
 * give no function to wrap: everything that runs after it in this context, and every callback or await
 * that starts from here, sees the locale (AsyncLocalStorage's `enterWith`); work that started before
 * does not. Call it synchronously at the start of the request's render: a Nuxt plugin that runs first
 * (await the promise before rendering), or React's `use` in a Next.js layout or page. When the locale's
 * catalog is loaded it returns a settled promise React reads at once; else one loading per locale,
 * shared by every render that asks meanwhile, after which each state entered gets the catalog. Prefer
 * {@link runWithLocale} where you can wrap the render. Rejects for an unknown locale; throws for an
 * unknown time zone.
 *
 * @example
 * use(enterLocale(locale))
 */
export function enterLocale(locale: Locale, options: RequestOptions = {}): PromiseLike<void> {
  const timeZone = _zone(options.timeZone) ?? getTimeZone()
  const state: LocaleState = { locale, timeZone }
  requests.enterWith(state)
  if (loaded.has(locale)) {
    state.catalog = loaded.get(locale)
    return _d
  }
  let pending = entering.get(locale)
  if (!pending) {
    const states: LocaleState[] = []
    const loading = catalogOf(locale).then(
      (catalog) => {
        loaded.set(locale, catalog)
        for (const s of states) s.catalog = catalog
        entering.delete(locale)
      },
      (error: unknown) => {
        entering.delete(locale)
        throw error
      },
    )
    pending = { loading, states }
    entering.set(locale, pending)
  }
  pending.states.push(state)
  return pending.loading
}

/**
 * Switches the locale: inside `runWithLocale`, the request's only (its listeners are the page's, and
 * are not called); elsewhere the process's default, as in the browser.
 */
export async function setLocale(locale: Locale): Promise<void> {
  const request = requests.getStore()
  if (!request) return setPageLocale(locale)
  const catalog = await catalogOf(locale)
  request.locale = locale
  request.catalog = catalog
}

/**
 * The locale a request asks for: the locale cookie (`lang`, as `rememberLocale` writes it) when it
 * names a configured locale, else the best of `Accept-Language` by q-value (q=0 refuses a language,
 * `*` takes any), else the source locale. A pseudo-locale (en-XA, ar-XB) only when named exactly.
 *
 * @example
 * const locale = negotiateRequestLocale({ acceptLanguage: req.headers['accept-language'], cookie: req.headers.cookie })
 * const html = await runWithLocale(locale, () => render())
 */
export function negotiateRequestLocale(request: RequestLocaleSources): Locale {
  return pickRequestLocale(request, request.locales ?? getLocales())
}
