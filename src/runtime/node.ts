/**
 * The server runtime of unplugin-tms (the `node` export condition of `unplugin-tms/runtime`, and what
 * the plugin puts in a server build): the browser runtime plus a locale per request.
 *
 * A server renders many requests at once, in different locales. `runWithLocale(locale, fn)` gives
 * every `t` inside `fn`, across awaits, that locale and its catalog, through AsyncLocalStorage; outside
 * any request the page state of the browser runtime applies. Each catalog is loaded once per process.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { _a, _c, _d, type Catalog, getLocales, type LocaleState, setLocale as setPageLocale } from './index'
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
  _l,
  _m,
  _r,
  _t,
  _u,
  getLocale,
  getLocales,
  matchLocale,
  msg,
  negotiateLocale,
  onLocaleChange,
  rememberLocale,
  t,
} from './index'
export type { RequestLocaleSources } from './request-locale'

const requests = new AsyncLocalStorage<LocaleState>()
/** Locale -> its catalog (undefined for the source locale), loaded once and shared by every request. */
const catalogs = new Map<string, Promise<Catalog | undefined>>()

_a((page) => requests.getStore() ?? page)

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
 * const html = await runWithLocale('fr-FR', () => renderToString(<App />))
 */
export async function runWithLocale<T>(locale: Locale, fn: () => T | Promise<T>): Promise<T> {
  const catalog = await catalogOf(locale)
  return requests.run({ locale, catalog }, fn)
}

/** Each locale's catalog once loaded, for {@link enterLocale}'s synchronous step. */
const loaded = new Map<string, Catalog | undefined>()
const entering = new Map<string, Promise<void>>()

/**
 * For frameworks that render a request with no function to wrap (Next.js's server components and
 * server rendering of client components): makes `locale` the locale of the rest of the current render,
 * across awaits (AsyncLocalStorage's `enterWith`), for React's `use` in a component that renders
 * before the text. When the locale's catalog is loaded it returns a settled promise React reads at
 * once; else the loading, after which React renders the component again and this call enters.
 *
 * @example
 * use(enterLocale(locale))
 */
export function enterLocale(locale: Locale): PromiseLike<void> {
  if (loaded.has(locale)) {
    requests.enterWith({ locale, catalog: loaded.get(locale) })
    return _d
  }
  // One promise per locale: every render that asks meanwhile waits on the same (React tracks it).
  let loading = entering.get(locale)
  if (!loading) {
    loading = catalogOf(locale).then(
      (catalog) => {
        loaded.set(locale, catalog)
      },
      (error: unknown) => {
        entering.delete(locale)
        throw error
      },
    )
    entering.set(locale, loading)
  }
  return loading
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
