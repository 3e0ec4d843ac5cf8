import { createHash } from 'node:crypto'
import MagicString, { type SourceMap } from 'magic-string'
import { type CompiledMessage, compiledLiteral } from '../core/icu/compile'
import { jsString } from '../core/js-string'
import type { StoredText } from '../core/stored-text'
import { pullsClient } from './pull-page-code'

/**
 * The virtual modules of a build: the runtime (the real runtime's code plus the registration of one
 * lazy catalog loader per locale) and one catalog module per locale.
 *
 * A catalog must hold only the messages of the modules that ended up in the bundle, which is known
 * only once every module is transformed. So in a production build the catalog module first holds a
 * marker, a call of an undeclared global function (which no minifier renames, and which a bundler
 * cannot take as the name of a local variable, as it may do with a bare identifier), and the marker is
 * replaced by the object literal after the module graph is complete: in renderChunk (rollup, rolldown,
 * vite) or onEnd (esbuild). webpack and rspack rebuild the catalog modules instead, once all other modules are built.
 */

export const RUNTIME_ID = '\0tms/runtime.js'

/** A family of virtual module ids, one per locale (`\0tms/<name>-<locale>.js`). */
export interface LocaleModuleIds {
  /** The id of `locale`'s module. */
  id(locale: string): string
  /** The locale of an id of the family; undefined for any other id. */
  locale(id: string): string | undefined
}

export function localeModuleIds(name: string): LocaleModuleIds {
  const prefix = `\0tms/${name}-`
  return {
    id: (locale) => `${prefix}${locale}.js`,
    locale: (id) =>
      id.startsWith(prefix) && id.endsWith('.js') ? id.slice(prefix.length, -'.js'.length) : undefined,
  }
}

const catalogIds = localeModuleIds('tms')
export const catalogModuleId: LocaleModuleIds['id'] = catalogIds.id
/** The locale of a catalog module id, or undefined for any other id. */
export const catalogModuleLocale: LocaleModuleIds['locale'] = catalogIds.locale

/**
 * A catalog: id -> translated text, in the app's placeholder spelling; an ICU message's translation as
 * its compiled form.
 */
export type CatalogMap = ReadonlyMap<string, CompiledMessage>

/**
 * The object literal of a catalog, ids sorted so the output does not depend on module order.
 * `sortedIds` may give the order already sorted: every id of `catalog`, and maybe ids it lacks
 * (the locales of a build share one sorted list of all catalog ids).
 */
export function catalogLiteral(catalog: CatalogMap, sortedIds?: readonly string[]): string {
  const ids = sortedIds ?? [...catalog.keys()].sort()
  const parts: string[] = []
  for (const id of ids) {
    const text = catalog.get(id)
    if (text !== undefined) {
      parts.push(`${jsString(id)}:${translationLiteral(text)}`)
    }
  }
  return `{${parts.join(',')}}`
}

/** The literal of one catalog translation: a text, or an ICU message's compiled form. */
export function translationLiteral(translation: CompiledMessage): string {
  return typeof translation === 'string' ? jsString(translation) : compiledLiteral(translation)
}

/** Short digest of a catalog's content: part of the marker, so the module text changes with it. */
export function catalogDigest(catalog: CatalogMap): string {
  return literalDigest(catalogLiteral(catalog))
}

/** `catalogDigest` of a catalog whose literal is already made (its text, or the text's UTF-8 bytes). */
export function literalDigest(literal: StoredText): string {
  return createHash('sha256').update(literal).digest('hex').slice(0, 12)
}

/** The marker's function name: a chunk without it has no catalog to fill. */
export const CATALOG_MARKER_NAME = '__TMS_CATALOG__'
// A minifier may requote the argument; the digest is there so the module text changes with the catalog.
const MARKER = /__TMS_CATALOG__\(\s*(["'`])(\d+):([0-9a-f]+)\1\s*\)/g

/** The marker of a locale's catalog; `index` is the locale's place in the registered list. */
export function catalogMarker(index: number, digest: string): string {
  return `__TMS_CATALOG__("${index}:${digest}")`
}

/** A catalog module whose content is filled in later (production builds of rollup, rolldown, vite, esbuild). */
export function markerCatalogModule(index: number, digest: string): string {
  return `export default ${catalogMarker(index, digest)};\n`
}

/**
 * A catalog module with its content (vite's dev server, webpack's and rspack's builds once the graph is
 * known; their watch: `hot-catalog.ts`), its literal in {@link jsonExpression}. With `digest` (vite's
 * dev server: the literal's), the module also exports it, and the page's runtime reports it once it
 * loaded the catalog ({@link LOADED_EVENT}).
 */
export function literalCatalogModule(catalog: CatalogMap | string, digest?: string): string {
  const literal = typeof catalog === 'string' ? catalog : catalogLiteral(catalog)
  const module = `export default ${jsonExpression(literal)};\n`
  return digest === undefined ? module : `${module}export const digest = ${jsString(digest)};\n`
}

/** Gives the catalog of a locale's place in the registered list, or its literal when made already. */
export type CatalogOf = (index: number) => CatalogMap | string | undefined

/** A replaced range of a chunk's code (sorted by start, not overlapping, in a list). */
export interface CodeEdit {
  start: number
  end: number
  text: string
}

/** How a filled marker holds its catalog: the catalog's literal in, an expression out. */
export type CatalogExpression = (literal: string) => string

/** `(object literal)`: the parentheses make it valid in any expression position a minifier may have moved it to. */
export const objectExpression: CatalogExpression = (literal) => `(${literal})`

/**
 * `JSON.parse('…')`: one string token for the bundler and a minifier that runs after renderChunk
 * (rolldown's, vite 8's), which would otherwise parse and print thousands of properties per locale
 * (and a browser parses JSON faster than an object literal). webpack's parser keeps the syntax tree of
 * the last module it parsed, often a catalog: as an object literal, about 8 MiB of a dev server's heap
 * at 20,000 messages. A minifier that is itself a renderChunk hook (vite 5-7's, a rollup plugin's) runs
 * before the fill and meets only the marker. A catalog literal is valid JSON: `jsString` escapes as
 * JSON does.
 */
export const jsonExpression: CatalogExpression = (literal) =>
  `JSON.parse('${literal.replace(/[\\']/g, '\\$&')}')`

/** Each catalog marker of a chunk: where it is, and its locale's place in the registered list. */
function catalogMarkers(code: string): { start: number; end: number; index: number }[] {
  const found: { start: number; end: number; index: number }[] = []
  MARKER.lastIndex = 0
  for (let m = MARKER.exec(code); m; m = MARKER.exec(code)) {
    found.push({ start: m.index, end: m.index + m[0].length, index: Number(m[2]) })
  }
  return found
}

/** The edits that replace every catalog marker in a chunk by its catalog's expression. */
export function catalogMarkerEdits(
  code: string,
  catalogOf: CatalogOf,
  expression: CatalogExpression = objectExpression,
): CodeEdit[] {
  const edits: CodeEdit[] = []
  for (const { start, end, index } of catalogMarkers(code)) {
    const catalog = catalogOf(index)
    if (!catalog) continue
    const literal = typeof catalog === 'string' ? catalog : catalogLiteral(catalog)
    edits.push({ start, end, text: expression(literal) })
  }
  return edits
}

/**
 * The bytes of a chunk whose markers are filled as {@link jsonExpression} fills them, each literal
 * escaped on its bytes: a literal a catalog memo read is written out without being decoded into a
 * string of megabytes and encoded again. Null when the chunk has no marker to fill.
 */
export function filledCatalogBytes(
  code: string,
  literalOf: (index: number) => StoredText | undefined,
): Buffer | null {
  const parts: Buffer[] = []
  let at = 0
  for (const { start, end, index } of catalogMarkers(code)) {
    const literal = literalOf(index)
    if (literal === undefined) continue
    parts.push(Buffer.from(`${code.slice(at, start)}JSON.parse('`))
    quotedBytes(typeof literal === 'string' ? Buffer.from(literal) : literal, parts)
    parts.push(Buffer.from("')"))
    at = end
  }
  if (parts.length === 0) return null
  parts.push(Buffer.from(code.slice(at)))
  return Buffer.concat(parts)
}

const BACKSLASH = 0x5c
const QUOTE = 0x27
const ESCAPED = { [BACKSLASH]: Buffer.from('\\\\'), [QUOTE]: Buffer.from("\\'") }

/** `bytes` as the body of a single-quoted string, as `jsonExpression` escapes a literal: pushed to `parts`. */
function quotedBytes(bytes: Buffer, parts: Buffer[]): void {
  let from = 0
  let backslash = bytes.indexOf(BACKSLASH)
  let quote = bytes.indexOf(QUOTE)
  while (backslash >= 0 || quote >= 0) {
    const at = quote < 0 || (backslash >= 0 && backslash < quote) ? backslash : quote
    parts.push(bytes.subarray(from, at), ESCAPED[bytes[at] as typeof BACKSLASH | typeof QUOTE])
    from = at + 1
    if (at === backslash) backslash = bytes.indexOf(BACKSLASH, from)
    else quote = bytes.indexOf(QUOTE, from)
  }
  parts.push(bytes.subarray(from))
}

/** `code` with the edits made. */
export function applyEdits(code: string, edits: readonly CodeEdit[]): string {
  let out = ''
  let at = 0
  for (const e of edits) {
    out += code.slice(at, e.start) + e.text
    at = e.end
  }
  return out + code.slice(at)
}

/**
 * Fills every catalog marker of a chunk; null when it has none. The source map of the change is made
 * only when the bundler writes source maps (`sourcemap`): for a catalog of megabytes it costs as much
 * as the filling itself.
 */
export function fillCatalogMarkers(
  code: string,
  fileName: string,
  catalogOf: CatalogOf,
  sourcemap: boolean,
  expression: CatalogExpression = objectExpression,
): { code: string; map?: SourceMap } | null {
  const edits = catalogMarkerEdits(code, catalogOf, expression)
  if (edits.length === 0) return null
  if (!sourcemap) return { code: applyEdits(code, edits) }
  const s = new MagicString(code)
  for (const e of edits) s.overwrite(e.start, e.end, e.text)
  return { code: s.toString(), map: s.generateMap({ file: fileName, hires: 'boundary' }) }
}

/** True when `code` holds a marker (a cheap test before the replacement). */
export function hasCatalogMarker(code: string): boolean {
  return code.includes(CATALOG_MARKER_NAME)
}

/** How the runtime module of a build is made (what the build itself does not say). */
export interface RuntimeModuleHow {
  /** Vite dev server: catalogs pushed over the HMR channel replace the loaded ones. */
  hot: boolean
  /** webpack and rspack: name the catalog chunks `tms-<locale>` (the others name them after the module id). */
  chunkNames: boolean
  /**
   * What a locale's loader imports: the catalog module's virtual id by default; Turbopack, which has
   * no virtual modules, imports catalogs written as files (src/next/turbopack.ts).
   */
  catalogSpecifier?: (locale: string) => string
  /** A page of webpack's or rspack's dev server: the route of its channel of pulled translations (pull-channel.ts). */
  pulls?: string
}

export interface RuntimeModuleInput extends RuntimeModuleHow {
  /** The runtime's JavaScript (see runtime-code.ts). */
  runtime: string
  sourceLocale: string
  /** Target and pseudo locales, in registration order; with `sourceCatalog`, the source locale first. */
  locales: readonly string[]
}

/** The event the dev server sends when a locale's catalog changed in the cache. */
export const HOT_EVENT = 'tms:catalog'
/**
 * The event the page's runtime sends once it loaded a locale's catalog, with the catalog module's
 * digest: vite's client holds it until its socket is connected, and the server sends a page whose
 * catalog is no longer the current one the whole catalog (dev.ts: a push made before the socket
 * connected reached nobody).
 */
export const LOADED_EVENT = 'tms:loaded'
/** What a page sends with {@link LOADED_EVENT}. */
export interface LoadedCatalog {
  locale: string
  digest: string
}

/** What changed in a locale's catalog: the entries made again, and the ids left with none. */
export interface CatalogChanges {
  changed: Record<string, CompiledMessage>
  removed: string[]
}

/**
 * What the dev server pushes of a locale: its whole catalog, or what changed in it since the last push
 * (a `tms pull` changes a few translations of thousands: the page merges them into the catalog it has).
 * `quiet`: the server re-runs the modules that show the changed ids itself (React Fast Refresh), so
 * the page merges the changes without announcing them, which would re-render every `useLocale()`.
 */
export type HotUpdate =
  | { locale: string; catalog: Record<string, CompiledMessage> }
  | ({ locale: string; quiet?: true } & CatalogChanges)

/**
 * The translations of `after` that differ from `before`'s (a compiled message compared by its literal,
 * what the catalog module would hold) and the ids `after` no longer has; undefined when none differ.
 */
export function catalogChanges(before: CatalogMap, after: CatalogMap): CatalogChanges | undefined {
  // A locale the refresh did not touch keeps its catalog.
  if (before === after) return undefined
  const changed: Record<string, CompiledMessage> = {}
  const removed: string[] = []
  let any = false
  for (const [id, text] of after) {
    const was = before.get(id)
    if (was === text) continue
    if (was !== undefined && typeof was !== 'string' && typeof text !== 'string')
      if (compiledLiteral(was) === compiledLiteral(text)) continue
    changed[id] = text
    any = true
  }
  for (const id of before.keys()) if (!after.has(id)) removed.push(id)
  return any || removed.length > 0 ? { changed, removed } : undefined
}

export function runtimeModule(input: RuntimeModuleInput): string {
  const { locales, hot } = input
  const loaders = locales.map((locale) => {
    const key = jsString(locale)
    const name = input.chunkNames ? `/* webpackChunkName: ${jsString(`tms-${locale}`)} */ ` : ''
    const load = `import(${name}${jsString((input.catalogSpecifier ?? catalogModuleId)(locale))})`
    // In the dev server the loaded catalog is kept: a pushed change is merged into it.
    return hot
      ? `${key}: () => __tms_hot[${key}] ? Promise.resolve({ default: __tms_hot[${key}] }) : ${load}.then((m) => (__tms_hot[${key}] = m.default, __tms_loaded(${key}, m.digest), m))`
      : `${key}: () => ${load}`
  })
  let code = `${input.runtime}\n`
  if (hot) {
    code += 'const __tms_hot = {};\n'
    code += `const __tms_loaded = (locale, digest) => import.meta.hot && import.meta.hot.send(${jsString(LOADED_EVENT)}, { locale, digest });\n`
  }
  code += `_r(${jsString(input.sourceLocale)}, {\n  ${loaders.join(',\n  ')}\n});\n`
  if (hot) {
    // A catalog chunk the browser already imported cannot be imported again with new content: the
    // runtime keeps the pushed catalog for later switches and swaps the current one now. Changes are
    // merged into the loaded catalog itself, the object the runtime holds while the page shows that
    // locale: a quiet update needs no swap. Changes to a locale this page never loaded are left: its
    // loader imports the catalog module, made again since.
    code +=
      `if (import.meta.hot) import.meta.hot.on(${jsString(HOT_EVENT)}, (update) => {\n` +
      '  let catalog = update.catalog;\n' +
      '  if (!catalog) {\n' +
      '    catalog = __tms_hot[update.locale];\n' +
      '    if (!catalog) return;\n' +
      '    Object.assign(catalog, update.changed);\n' +
      '    for (const id of update.removed) delete catalog[id];\n' +
      '  }\n' +
      '  __tms_hot[update.locale] = catalog;\n' +
      '  if (!update.quiet) _u(update.locale, catalog);\n' +
      '});\n'
  }
  if (input.pulls) code += pullsClient(input.pulls)
  return code
}
