/**
 * The browser runtime of unplugin-tms: no node:* imports, no dependencies, under a kilobyte min+gzip with
 * the ICU interpreter (bench/sections/runtime-size.ts measures it).
 *
 * Untransformed (an app's own unit tests), `t` returns the source text formatted with its values (an
 * ICU message is parsed then, by ./parse.ts, which a transformed bundle leaves out with `t`).
 * In a build, the plugin rewrites message calls into `_l(id, text, values)` lookups and registers one
 * lazy catalog loader per locale with `_r`. Values are inserted as text: nothing is evaluated.
 */

import { type CompiledMessage, type Formatted, formatParts, own, valueText, zoned } from './icu'
import { compileText } from './parse'
import type {
  DefinitionArgs,
  DescriptorValues,
  Locale,
  MessageArgs,
  MessageDescriptor,
  MessageResult,
} from './types'

export { type LocaleSource, type LocaleSources, matchLocale } from './negotiate'
export type {
  DateValue,
  DefinitionArgs,
  DescriptorArgs,
  DescriptorValues,
  Locale,
  MessageArgs,
  MessageDescriptor,
  MessageResult,
  MessageValues,
  NumberValue,
  Printable,
  Register,
  TagFunction,
} from './types'
export type { CompiledMessage, Formatted }

// Here, not with the imports above: negotiate.ts stays after parse.ts in the runtime's text, as before.
import { type LocaleSources, localeWriter, pickLocale } from './negotiate'

/** Values for `{name}` placeholders (object) or `{0}` placeholders (array). */
export type Values = Record<string, unknown> | readonly unknown[]

/** Per-call options read at build time; ignored at run time. */
export interface MessageOptions {
  variant?: string
  instruction?: string
  maxLength?: number
}

/** @internal A locale's catalog: id -> compiled translation. */
export type Catalog = Record<string, CompiledMessage>
type Loader = () => Promise<{ default: Catalog }>

/** @internal The locale and catalog that `t` uses. */
export interface LocaleState {
  locale: string
  catalog?: Catalog
  /** The IANA time zone of dates and times; undefined: the environment's own. */
  timeZone?: string
}

let source = ''
let loaders: Record<string, Loader> | undefined
/** The page's state: the browser's only one, a server's outside any request (see node.ts). */
const page: LocaleState = { locale: '' }
/** Where lookups find their state; the server runtime points it at the current request's. */
let active = (): LocaleState => page
let latest = 0
const listeners = new Set<(locale: string) => void>()
/** The bindings' reads of their reactive locale (Vue, Svelte), made by every call of a descriptor. */
const trackers = new Set<() => void>()

function format(text: CompiledMessage, values?: Values, locale?: string | false): Formatted {
  if (typeof text !== 'string')
    return formatParts(
      text,
      (values || {}) as Record<string, unknown>,
      locale || active().locale || undefined,
    )
  return values
    ? text.replace(/\{([$\p{ID_Continue}]+)\}/gu, (_, key: string) => valueText(own(values, key)))
    : text
}

/**
 * Translates a message: `t('Hello {name}!', { name })` or `` t`Hello ${name}!` ``. The plugin replaces
 * these calls at build time; this body runs only in untransformed code.
 */
export function t<const S extends string | TemplateStringsArray, const A extends MessageArgs<S>>(
  text: S,
  ...args: A
): MessageResult<A>
export function t(
  text: string | TemplateStringsArray,
  values?: Values | unknown,
  ...rest: unknown[]
): Formatted {
  if (typeof text !== 'string') {
    const parts = [values, ...rest]
    return text.reduce((out, piece, i) => out + String(parts[i - 1]) + piece)
  }
  return format(compileText(text), values as Values | undefined)
}

/**
 * A message defined now and formatted later: `export const red = msg('Red')` at module level, in a
 * table of options or routes, then `red()` where it is rendered gives the text in the locale of that
 * moment. Extracted and rewritten like `t`; `msg('Hi {name}')` asks for its values when called
 * (`greet({ name })`), values given here are kept (`` msg`Hi ${name}` ``). `String(red)` works too.
 */
export function msg<const S extends string | TemplateStringsArray, const A extends DefinitionArgs<S>>(
  text: S,
  ...args: A
): MessageDescriptor<DescriptorValues<S, A>>
export function msg(
  text: string | TemplateStringsArray,
  values?: unknown,
  ...rest: unknown[]
): MessageDescriptor {
  const translate = t as (text: string | TemplateStringsArray, ...args: unknown[]) => Formatted
  return typeof text === 'string'
    ? _m((v) => translate(text, v), values as Values | undefined)
    : _m(() => translate(text, values, ...rest))
}

/**
 * @internal The descriptor the plugin writes for `msg(...)`: `look` is the message's lookup given the
 * values, `bound` the values `msg` was given (a call's own values win).
 */
export function _m(look: (values: Values) => Formatted, bound?: Values): MessageDescriptor {
  const d = (values?: Values): Formatted => {
    for (const read of trackers) read()
    return look({ ...bound, ...values })
  }
  d.toString = d as () => string
  return d as MessageDescriptor
}

/** @internal A binding's read of its reactive locale, so that a descriptor called in a render follows switches. */
export function _t(read: () => void): void {
  trackers.add(read)
}

/** The current locale ('' before the plugin registered one and before any setLocale). */
export function getLocale(): Locale {
  return active().locale as Locale
}

/** The configured locales: the source locale, then each locale the build has a catalog for ([] untransformed). */
export function getLocales(): Locale[] {
  // With `sourceCatalog` the source locale has a loader of its own: listed once.
  return (source ? [source, ...Object.keys(loaders || {}).filter((l) => l !== source)] : []) as Locale[]
}

/**
 * Switches the locale, loading its catalog chunk first. Resolves when the new locale is active; when
 * two switches overlap, the later one wins.
 */
export async function setLocale(locale: Locale): Promise<void> {
  const loading = _c(locale)
  const mine = ++latest
  const next = await loading
  if (mine !== latest) return
  page.catalog = next
  page.locale = locale
  for (const fn of listeners) fn(locale)
}

/** A promise React's `use` reads at once (its `status`), with no suspension: the locale is active already. */
export const _d: PromiseLike<void> = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Promise.resolve(), {
  status: 'fulfilled',
})
const entering = /* @__PURE__ */ new Map<string, Promise<void>>()

/**
 * For frameworks that render without a function to wrap (Next.js): makes `locale` the page's, for
 * React's `use` in a component that renders before the text. Returns a settled promise when `locale`
 * is the page's already, else the switch (the same promise for every render that asks meanwhile).
 *
 * @example
 * use(enterLocale(locale))
 */
export function enterLocale(locale: Locale): PromiseLike<void> {
  if (page.locale === locale) return _d
  let switching = entering.get(locale)
  if (!switching) {
    switching = setLocale(locale).finally(() => entering.delete(locale))
    entering.set(locale, switching)
  }
  return switching
}

/**
 * @internal Loads a locale's catalog (none for the source locale unless the build ships one:
 * `sourceCatalog`); throws for an unknown locale.
 */
export function _c(locale: string): Promise<Catalog> | undefined {
  // Own keys only: `__proto__` or `toString` is an unknown locale, not Object.prototype's.
  const load = loaders && (own(loaders, locale) as Loader | undefined)
  if (loaders && locale !== source && !load) throw new Error(`[unplugin-tms] unknown locale "${locale}"`)
  return load?.().then((m) => m.default)
}

/**
 * The time zone that dates and times of messages format in (`{d, date, short}`, `{d, time}`), an IANA
 * name such as `'Europe/Paris'` or `'UTC'`; `undefined` goes back to the environment's own zone. Set the
 * same zone where the page renders on a server and where it hydrates, or a date that falls on another
 * day (or hour) there renders differently. Inside a server's `runWithLocale`, the request's zone only.
 * Throws a RangeError for a name the environment does not know, as Intl does.
 *
 * @example
 * setTimeZone('UTC')
 */
export function setTimeZone(timeZone: string | undefined): void {
  _z()
  active().timeZone = _zone(timeZone)
}

/** The time zone that dates and times format in: the request's inside `runWithLocale`, else the page's. */
export function getTimeZone(): string | undefined {
  return active().timeZone
}

/** @internal `timeZone` when the environment knows it (checked now, not at the first date: where it is written). */
export function _zone(timeZone: string | undefined): string | undefined {
  try {
    if (timeZone) new Intl.DateTimeFormat(undefined, { timeZone })
  } catch {
    throw new RangeError(
      `[unplugin-tms] unknown time zone "${timeZone}": give an IANA name such as "Europe/Paris" or "UTC" (Intl.supportedValuesOf('timeZone') lists them)`,
    )
  }
  return timeZone
}

/** @internal From now on, dates and times follow the zone of the active state (the page's or a request's). */
export function _z(): void {
  const zone = (): string | undefined => active().timeZone
  Object.defineProperties(zoned, {
    timeZone: { get: zone, enumerable: true, configurable: true },
    toString: { value: () => `${zone()}`, configurable: true },
  })
}

/** @internal The server runtime's hook: `read` gives the current request's state, or the page's. */
export function _a(read: (page: LocaleState) => LocaleState): void {
  active = () => read(page)
}

/** Calls `fn` after each locale switch or catalog update; returns the unsubscribe function. */
export function onLocaleChange(fn: (locale: Locale) => void): () => void {
  // The runtime switches only to configured locales: the app's `Register` type holds them.
  const listener = fn as (locale: string) => void
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * The locale to start the page in: the first source (in the order of `from`: the URL's path prefix,
 * `?lang=`, the cookie, storage, then `navigator.languages` in the browser's order) that names a
 * configured locale, matched by {@link matchLocale}; else the source locale.
 *
 * @example
 * await setLocale(negotiateLocale({ from: ['query', 'cookie', 'navigator'] }))
 * rememberLocale({ from: ['cookie'] })
 */
export function negotiateLocale(options: LocaleSources = {}): Locale {
  return pickLocale(options, options.locales ?? getLocales())
}

/**
 * From now on, writes each locale switch to the cookie and the storage that `from` allows (both by
 * default), so that the next visit's {@link negotiateLocale} starts there. Returns the function that
 * stops it.
 */
export function rememberLocale(options: LocaleSources = {}): () => void {
  return onLocaleChange(localeWriter(options))
}

/**
 * @internal Lookup emitted by the plugin: the current catalog's text, else the source text formatted in
 * the source locale. With
 * `sourceCatalog` the site has no source text (`0` stands in when values follow): before a catalog is
 * loaded the lookup gives the id, visible and harmless.
 */
export function _l(id: string, text?: CompiledMessage | 0, values?: Values): Formatted {
  const { catalog } = active()
  const translated = catalog && (own(catalog, id) as CompiledMessage | undefined)
  // No text at all in an app that rendered before it asked for a locale: the source catalog loads
  // now, and onLocaleChange tells when its texts are there.
  if (!translated && !text && !latest) setLocale(source)
  // The site's text is the source message: its plurals take the source locale's categories.
  return format(translated || text || id, values, !translated && source)
}

/** @internal Inline mode's formatting of a compiled ICU message in the copy's locale. */
export function _f(message: CompiledMessage, values: Values | undefined, locale: string): Formatted {
  return format(message, values, locale)
}

/** @internal Registration emitted by the plugin: the source locale and a loader per target locale. */
export function _r(sourceLocale: string, localeLoaders: Record<string, Loader>): void {
  if (!source) page.locale = sourceLocale
  source = sourceLocale
  loaders = localeLoaders
}

/** @internal Hot update from the dev server: a locale's catalog changed. */
export function _u(locale: string, next: Catalog): void {
  if (locale !== page.locale) return
  page.catalog = next
  for (const fn of listeners) fn(locale)
}
