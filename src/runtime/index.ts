/**
 * The browser runtime of unplugin-tms: no node:* imports, no dependencies, under a kilobyte min+gzip with
 * the ICU interpreter (bench/sections/runtime-size.ts measures it).
 *
 * Untransformed (an app's own unit tests), `t` returns the source text formatted with its values (an
 * ICU message is parsed then, by ./parse.ts, which a transformed bundle leaves out with `t`).
 * In a build, the plugin rewrites message calls into `_l(id, text, values)` lookups and registers one
 * lazy catalog loader per locale with `_r`. Values are inserted as text: nothing is evaluated.
 */

import { type CompiledMessage, type Formatted, formatParts, has, own, valueText } from './icu'
import { compileText } from './parse'
import type { Locale, MessageArgs, MessageResult } from './types'

export {
  type LocaleSource,
  type LocaleSources,
  matchLocale,
  negotiateLocale,
  rememberLocale,
} from './negotiate'
export type {
  DateValue,
  Locale,
  MessageArgs,
  MessageResult,
  MessageValues,
  NumberValue,
  Printable,
  Register,
  TagFunction,
} from './types'
export type { CompiledMessage, Formatted }

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
}

let source = ''
let loaders: Record<string, Loader> | undefined
/** The page's state: the browser's only one, a server's outside any request (see node.ts). */
const page: LocaleState = { locale: '' }
/** Where lookups find their state; the server runtime points it at the current request's. */
let active = (): LocaleState => page
let latest = 0
const listeners = new Set<(locale: string) => void>()

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

/**
 * @internal Loads a locale's catalog (none for the source locale unless the build ships one:
 * `sourceCatalog`); throws for an unknown locale.
 */
export function _c(locale: string): Promise<Catalog> | undefined {
  const load = loaders?.[locale]
  if (loaders && locale !== source && !load) throw new Error(`[unplugin-tms] unknown locale "${locale}"`)
  return load?.().then((m) => m.default)
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
 * @internal Lookup emitted by the plugin: the current catalog's text, else the source text formatted in
 * the source locale. With
 * `sourceCatalog` the site has no source text (`0` stands in when values follow): before a catalog is
 * loaded the lookup gives the id, visible and harmless.
 */
export function _l(id: string, text?: CompiledMessage | 0, values?: Values): Formatted {
  const { catalog } = active()
  const translated = catalog && has.call(catalog, id) && catalog[id]
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
