/**
 * The browser runtime of unplugin-tms: no node:* imports, no dependencies, under a kilobyte min+gzip with
 * the ICU interpreter (bench/sections/runtime-size.ts measures it).
 *
 * Untransformed (an app's own unit tests), `t` returns the source text formatted with its values (an
 * ICU message is parsed then, by ./parse.ts, which a transformed bundle leaves out with `t`).
 * In a build, the plugin rewrites message calls into `_l(id, text, values)` lookups and registers one
 * lazy catalog loader per locale with `_r`. Values are inserted as text: nothing is evaluated.
 */

import { type CompiledMessage, type Formatted, formatParts } from './icu'
import { compileText } from './parse'

export type { CompiledMessage, Formatted }

/** Values for `{name}` placeholders (object) or `{0}` placeholders (array). */
export type Values = Record<string, unknown> | readonly unknown[]

/** A tag's value: gets the formatted children (strings and what nested tags returned), in order. */
export type TagFunction = (chunks: unknown[]) => unknown

/**
 * What `t` returns for its values: a string, unless a value is a tag function returning something
 * other than a string (a React element, a VNode), which makes the result the array of pieces.
 */
export type TranslatedFor<V> =
  V extends Record<string, unknown>
    ? true extends {
        [K in keyof V]: V[K] extends (...args: never[]) => infer R
          ? [R] extends [string]
            ? never
            : true
          : never
      }[keyof V]
      ? Formatted
      : string
    : string

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

const has = Object.prototype.hasOwnProperty

function format(text: CompiledMessage, values?: Values, locale: string = active().locale): Formatted {
  if (typeof text !== 'string')
    return formatParts(text, (values || {}) as Record<string, unknown>, locale || undefined)
  return values
    ? text.replace(/\{([\w$]+)\}/g, (whole, key: string) =>
        has.call(values, key) ? String((values as Record<string, unknown>)[key]) : whole,
      )
    : text
}

/**
 * Translates a message: `t('Hello {name}!', { name })` or `` t`Hello ${name}!` ``. The plugin replaces
 * these calls at build time; this body runs only in untransformed code.
 */
export function t<V = undefined>(
  text: string | TemplateStringsArray,
  values?: V & (Values | unknown),
  ...rest: unknown[]
): TranslatedFor<V> {
  if (typeof text !== 'string') {
    const parts = [values, ...rest]
    return text.reduce((out, piece, i) => out + String(parts[i - 1]) + piece) as TranslatedFor<V>
  }
  return format(compileText(text), values as Values | undefined) as TranslatedFor<V>
}

/** The current locale ('' before the plugin registered one and before any setLocale). */
export function getLocale(): string {
  return active().locale
}

/**
 * Switches the locale, loading its catalog chunk first. Resolves when the new locale is active; when
 * two switches overlap, the later one wins.
 */
export async function setLocale(locale: string): Promise<void> {
  const loading = _c(locale)
  const mine = ++latest
  const next = await loading
  if (mine !== latest) return
  page.catalog = next
  page.locale = locale
  for (const fn of listeners) fn(locale)
}

/** @internal Loads a locale's catalog (none for the source locale); throws for an unknown locale. */
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
export function onLocaleChange(fn: (locale: string) => void): () => void {
  listeners.add(fn)
  return () => {
    listeners.delete(fn)
  }
}

/** @internal Lookup emitted by the plugin: the current catalog's text, else the source text. */
export function _l(id: string, text: CompiledMessage, values?: Values): Formatted {
  const { catalog } = active()
  return format((catalog && has.call(catalog, id) && catalog[id]) || text, values)
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
