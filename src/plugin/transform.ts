import type { SourceMap } from 'magic-string'
import type { CallSite } from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import type { Markup, Range } from '../core/extract/types'
import { jsString } from '../core/js-string'
import { Edits } from './edits'
import { rewriteJsx } from './jsx'
import { keptPositionsRewrite } from './kept-positions'
import {
  DESCRIPTOR_LOCAL,
  FORMAT_LOCAL,
  LOOKUP_LOCAL,
  type Lookup,
  type LookupMode,
  type SiteLookup,
  setupBoundLookup,
  siteLookup,
} from './lookup'
import { forMarkup, templateCanImport, VUE_BINDING, vueImport } from './vue-sfc'

/**
 * The rewrite of one module's message calls into catalog lookups, with magic-string so the source map
 * points every untouched character (the text literal, the values expression) back at the original.
 *
 *   t('Hello {name}!', { name }, { variant })   ->  __tms_l("<id>", 'Hello {name}!', { name })
 *   t`Hello ${name}!`                          ->  __tms_l("<id>", "Hello {name}!", { "name": (name) })
 *   _x('Open', 'menu')         (keyword _x:1,2c) ->  _x(__tms_l("<id>", 'Open'), 'menu')
 *   <T msg="Read the <link>terms</link>">     ->  <T :msg="(values) => __tms_l('<id>', ...)">
 *   msg('Hi {name}')                          ->  __tms_m((values) => __tms_l("<id>", 'Hi {name}', values))
 *
 * In a .vue file the lookup comes from unplugin-tms/vue, whose render-time read makes Vue re-render
 * on a switch, and calls in the template are written as valid markup (vue-sfc.ts).
 * The default API is replaced whole (its options object is build-time only); a keyword with argument
 * positions keeps the app's own function and only its text arguments become lookups, so the function
 * receives the translated text. What a lookup looks like in each mode (runtime, inline, `sourceCatalog`)
 * is lookup.ts's: one rewrite per kind of site asks it for its pieces.
 */

export { DESCRIPTOR_LOCAL, FORMAT_LOCAL, LOOKUP_LOCAL }

/** The names of inline mode's template lookups in a .vue file's `<script setup>` (`__tms_v0`, ...). */
const SETUP_LOOKUP = '__tms_v'

export interface RewriteInput {
  code: string
  /** Module id as the bundler gave it (may carry a query); used for the source map and the import. */
  id: string
  calls: readonly CallSite[]
  /** The catalog id and text of a site; undefined leaves the site as it is. */
  lookup: (site: CallSite) => SiteLookup | undefined
  /** Keyword specs by callee source text (`_x`, `i18n.t`); absent or default API: `t(text, values, options)`. */
  specs: ReadonlyMap<string, KeywordSpec>
  /** Import specifier of the runtime. */
  runtimeModule: string
  /**
   * Whether the bundler will use a source map of this module (false: a vite build without
   * `build.sourcemap`). Generating one costs more than the rewrite itself on large apps.
   */
  sourcemap?: boolean
  /**
   * A dev server's rewrite: when every site allows it, no character of the module moves and no map is
   * returned (kept-positions.ts). Runtime mode only.
   */
  keepPositions?: boolean
  /** False in inline mode: the lookup stays a free global call, replaced in each locale's copy. */
  importRuntime?: boolean
  /**
   * `sourceCatalog`: a lookup holds only the id (`__tms_l("<id>")`, `__tms_l("<id>",0,values)`), the
   * source locale's catalog chunk holds the text. Runtime mode only.
   */
  idOnly?: boolean
}

export interface RewriteResult {
  code: string
  map: SourceMap | null
  /** Ids the module uses now. */
  ids: string[]
}

const SCRIPT_OPEN = /<script\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi
const MODULE_SCRIPT = /\smodule\b|\scontext\s*=\s*["']?module/i

/**
 * Svelte components and rune modules (`.svelte.js`, `.svelte.ts`) take their lookup from the Svelte
 * binding, whose `_l` is the runtime's lookup plus a read of the locale's subscriber: a message in the
 * markup, in `$derived` or in an effect runs again on a locale switch and on a catalog hot update.
 * Vite must not pre-bundle it (factory.ts excludes it): a pre-bundled copy would hold a runtime of its own.
 */
export const SVELTE_RUNTIME = 'unplugin-tms/svelte'
const SVELTE_FILE = /\.svelte(?:\.[cm]?[jt]s)?$/i
const VUE_FILE = /\.vue$/i

/**
 * Where a .svelte file gets its import: in `<script module>`, whose imports the instance script and
 * the markup see too, else in the instance `<script>`; -1 when the component has no script.
 */
function svelteImportOffset(code: string): number {
  let first = -1
  SCRIPT_OPEN.lastIndex = 0
  for (let m = SCRIPT_OPEN.exec(code); m; m = SCRIPT_OPEN.exec(code)) {
    let offset = m.index + m[0].length
    if (code[offset] === '\n') offset++
    if (MODULE_SCRIPT.test(m[0])) return offset
    if (first < 0) first = offset
  }
  return first
}

/** Where the runtime import goes in a module: its top, or the frontmatter of an .astro file. */
function importOffset(code: string, path: string): number {
  // An .astro file as written: inside its frontmatter (Astro's compiled output is a plain module).
  if (/\.astro$/i.test(path) && !code.includes('$$createComponent')) {
    const fence = /^\s*---[^\S\r\n]*\r?\n/.exec(code)
    if (fence) return fence[0].length
  }
  // A hashbang must stay the first line.
  let at = 0
  if (code.startsWith('#!')) {
    const eol = code.indexOf('\n')
    if (eol < 0) return code.length
    at = eol + 1
  }
  return afterDirectives(code, at)
}

/**
 * Where the directive prologue (`'use client'`, `'use server'`, `'use strict'`) ends: a directive is
 * one only before every other statement, and React's server components read `'use client'` there.
 */
const DIRECTIVE =
  /(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(['"])[^'"\\\r\n]*\1[^\S\r\n]*(?:;|(?=\r?\n|$))[^\S\r\n]*\r?\n?/y

function afterDirectives(code: string, from: number): number {
  let at = from
  for (;;) {
    DIRECTIVE.lastIndex = at
    const m = DIRECTIVE.exec(code)
    if (!m) return at
    at = DIRECTIVE.lastIndex
  }
}

/** The runtime's exports a transformed module may import, by the local name it gives them. */
const IMPORTED = { _l: LOOKUP_LOCAL, _f: FORMAT_LOCAL, _m: DESCRIPTOR_LOCAL } as const

function importStatement(path: string, runtimeModule: string, names: (keyof typeof IMPORTED)[]): string {
  // CommonJS modules cannot hold an import statement (webpack rejects the mix).
  if (/\.cjs$/i.test(path)) {
    const pattern = names.map((name) => `${name}: ${IMPORTED[name]}`).join(', ')
    return `const { ${pattern} } = require(${jsString(runtimeModule)});`
  }
  return `import { ${names.map((name) => `${name} as ${IMPORTED[name]}`).join(', ')} } from ${jsString(runtimeModule)};`
}

/** The edits a rewrite makes at one site. */
type Sink = Pick<Edits, 'overwrite' | 'remove' | 'prependLeft' | 'appendRight'>

/** Edits whose written code is escaped for the markup around a template call. */
function markupSink(s: Edits, markup: Markup): Sink {
  return {
    overwrite: (start, end, text, tail) =>
      s.overwrite(start, end, forMarkup(text, markup), tail && forMarkup(tail, markup)),
    remove: (start, end) => s.remove(start, end),
    prependLeft: (at, text) => s.prependLeft(at, forMarkup(text, markup)),
    appendRight: (at, text) => s.appendRight(at, forMarkup(text, markup)),
  }
}

/** Rewrites the call sites; null when nothing changed (no site, or none that could be looked up). */
export function rewriteMessageCalls(input: RewriteInput): RewriteResult | null {
  const { code, calls, lookup, specs } = input
  const path = input.id.split('?')[0]!
  // A Svelte rune module takes its lookup from the Svelte binding: the usual rewrite imports it.
  const plainRuntime = !SVELTE_FILE.test(path)
  if (input.keepPositions && plainRuntime && input.importRuntime !== false && input.idOnly !== true) {
    const runtimeImport = importStatement(path, input.runtimeModule, ['_l'])
    const kept = keptPositionsRewrite({ code, path, calls, lookup, specs, runtimeImport })
    if (kept !== undefined) return kept && { code: kept.code, map: null, ids: kept.ids }
  }
  const s = new Edits(code)
  const ids: string[] = []
  let first = -1
  let template = false
  let formats = false
  let descriptors = false
  const inline = input.importRuntime === false
  const idOnly = !inline && input.idOnly === true
  const templateImport = VUE_FILE.test(path) && templateCanImport(code)
  // Inline mode's template lookups, each a function of `<script setup>` (setupBoundLookup).
  const definitions: string[] = []
  const bindForTemplate = (l: Lookup, takesValues: boolean): Lookup => {
    const bound = setupBoundLookup(`${SETUP_LOOKUP}${definitions.length}`, l, takesValues)
    definitions.push(bound.definition)
    return bound.template
  }
  for (const site of calls) {
    const inTemplate = site.markup !== undefined || site.kind === 'attribute'
    // Left as written where the template cannot call the lookup (templateProblem says why).
    if (inTemplate && !templateImport) continue
    const found = lookup(site)
    if (!found) continue
    const mode = { wrap: inline && found.form !== undefined, idOnly }
    const spec = specs.get(code.slice(site.callee.start, site.callee.end))
    const bind = inline && inTemplate ? bindForTemplate : undefined
    if (!rewriteSite(s, code, site, found, mode, spec, bind)) continue
    if (mode.wrap) formats = true
    if (site.descriptor) descriptors = true
    if (inTemplate) template = true
    ids.push(found.id)
    if (found.pluralId) ids.push(found.pluralId)
    if (first < 0) first = site.start
  }
  if (first < 0) return null
  // Inline mode's lookup is a free global the copies replace: only its formatting and descriptors, if
  // used, are imported, beside the template's lookups.
  if (!inline || formats || descriptors || definitions.length > 0) {
    const statement =
      !inline || formats || descriptors ? importOf(input, path, inline, formats, descriptors) : ''
    insertImport(s, code, path, statement + definitions.join(''), template, first)
  }
  if (input.sourcemap === false) return { code: s.apply(code), map: null, ids }
  const m = s.replay(code)
  return {
    code: m.toString(),
    map: m.generateMap({ source: path, includeContent: true, hires: 'boundary' }),
    ids,
  }
}

/**
 * The imports of a rewritten module: the lookup, from the framework's binding in .vue and Svelte
 * files (inline mode: none, only its formatting when used), and the runtime's descriptor maker when
 * the module defines a descriptor.
 */
function importOf(
  input: RewriteInput,
  path: string,
  inline: boolean,
  formats: boolean,
  descriptors: boolean,
): string {
  const runtime: (keyof typeof IMPORTED)[] = []
  if (inline && formats) runtime.push('_f')
  if (descriptors) runtime.push('_m')
  const binding = VUE_FILE.test(path) ? VUE_BINDING : SVELTE_FILE.test(path) ? SVELTE_RUNTIME : undefined
  if (!inline && binding === undefined) runtime.unshift('_l')
  const own = inline || binding === undefined ? '' : importStatement(path, binding, ['_l'])
  return own + (runtime.length > 0 ? importStatement(path, input.runtimeModule, runtime) : '')
}

/**
 * `statement` where every rewritten site sees it; `template`: a site is in a Vue template, `first` is
 * the first site. It takes no line of its own, so the module keeps its lines: what reads them off the
 * rewritten code (a JSX dev transform's `lineNumber`, a stack trace read without source maps) names
 * the source's.
 */
function insertImport(
  s: Edits,
  code: string,
  path: string,
  statement: string,
  template: boolean,
  first: number,
): void {
  if (VUE_FILE.test(path)) {
    const insertion = vueImport(code, statement, template, first)
    s.appendLeft(insertion.at, insertion.text)
    return
  }
  const at = /\.svelte$/i.test(path) ? svelteImportOffset(code) : importOffset(code, path)
  if (at < 0) s.prepend(`<script>${statement}</script>`)
  else if (at === 0) s.prepend(statement)
  else s.appendLeft(at, statement)
}

/** One site becomes its lookup, by its kind; false when it has nothing to rewrite. */
function rewriteSite(
  s: Edits,
  code: string,
  site: CallSite,
  found: SiteLookup,
  mode: LookupMode,
  spec: KeywordSpec | undefined,
  bind: ((lookup: Lookup, takesValues: boolean) => Lookup) | undefined,
): boolean {
  const bound = (l: Lookup, takesValues: boolean): Lookup => (bind ? bind(l, takesValues) : l)
  // A message without placeholders, plain or ICU, is the same whatever the values.
  const takesValues = found.form !== undefined || found.text.includes('{')
  const lookup = bound(siteLookup(found.id, found.text, found.form, mode), takesValues)
  const sink = site.markup === undefined ? s : markupSink(s, site.markup)
  if (site.descriptor) rewriteDescriptor(sink, code, site, lookup)
  else if (site.kind === 'jsx') rewriteJsx(s, site, lookup)
  else if (site.kind === 'attribute') rewriteAttribute(s, code, site, lookup)
  else if (site.kind === 'tagged') rewriteTagged(sink, site, lookup)
  else if (!spec || spec.defaultApi) rewriteDefaultCall(sink, code, site, lookup)
  else {
    // The plural text is a lookup of its own, never formatted (inline mode's wrap is the text's).
    const plural = found.pluralId
      ? bound(siteLookup(found.pluralId, '', undefined, { ...mode, wrap: false }), false)
      : undefined
    return rewriteKeywordCall(sink, site, lookup, spec, plural)
  }
  return true
}

/** `msg="<text>"` of Vue's `<T>` becomes a bound function of the values that looks the message up. */
function rewriteAttribute(s: Edits, code: string, site: CallSite, lookup: Lookup): void {
  const name = code.slice(site.callee.start, site.callee.end)
  const bound = `(values) => ${lookup.head}${lookup.values}values${lookup.tail}`
  s.overwrite(site.start, site.end, `:${name}="${forMarkup(bound, 'double')}"`)
}

/** `t('Open', undefined, { variant })`: no values to pass. */
const NO_VALUES = /^(?:undefined|void 0)$/

/** `t(text, values?, options?)`: the default API, replaced whole (its options are build-time only). */
function rewriteDefaultCall(s: Sink, code: string, site: CallSite, lookup: Lookup): void {
  const [text, values, ...rest] = site.args
  if (!text) return
  if (lookup.inPlace) {
    // Callee, `(` and any type arguments become the lookup; the text literal stays as written unless
    // the lookup has its own (a compiled form), and so do the values.
    s.overwrite(site.start, text.start, lookup.open)
    if (lookup.text !== undefined) s.overwrite(text.start, text.end, lookup.text)
    const last = rest[rest.length - 1]
    if (values && last) s.remove(values.end, last.end)
    return
  }
  if (!values || NO_VALUES.test(code.slice(values.start, values.end))) {
    s.overwrite(site.start, site.end, lookup.head + lookup.bare)
    return
  }
  // The values expression keeps its own source and mapping.
  s.overwrite(site.start, values.start, lookup.head + lookup.values)
  s.overwrite(values.end, site.end, lookup.tail)
}

/** A tagged template: each `${expr}` keeps its own source (and mapping), named as its placeholder. */
function rewriteTagged(s: Sink, site: CallSite, lookup: Lookup): void {
  if ((site.expressions ?? []).length === 0) s.overwrite(site.start, site.end, lookup.head + lookup.bare)
  else templateValues(s, site, lookup.head + lookup.values, lookup.tail)
}

/** The template text around a tagged template's expressions becomes `before` + the values object + `after`. */
function templateValues(s: Sink, site: CallSite, before: string, after: string): void {
  const expressions = site.expressions ?? []
  s.overwrite(site.start, expressions[0]!.start, `${before}{ ${jsString(expressions[0]!.name)}: (`)
  for (let i = 1; i < expressions.length; i++) {
    s.overwrite(expressions[i - 1]!.end, expressions[i]!.start, `), ${jsString(expressions[i]!.name)}: (`)
  }
  s.overwrite(expressions[expressions.length - 1]!.end, site.end, `) }${after}`)
}

/**
 * `msg(text, values?, options?)` becomes `__tms_m((values) => <lookup>, values?)`: the runtime's
 * descriptor runs the lookup at each of its calls. The values given to `msg` (a tagged template's
 * expressions) stay as written, bound to the descriptor; the options are build-time only.
 */
function rewriteDescriptor(s: Sink, code: string, site: CallSite, lookup: Lookup): void {
  const open = `${DESCRIPTOR_LOCAL}((values) => `
  const look = `${lookup.values}values${lookup.tail}`
  if (site.kind === 'tagged') {
    if ((site.expressions ?? []).length === 0)
      s.overwrite(site.start, site.end, `${open}${lookup.head}${look})`)
    else templateValues(s, site, `${open}${lookup.head}${look}, `, ')')
    return
  }
  const [text, values] = site.args
  if (!text) return
  const bound = values && !NO_VALUES.test(code.slice(values.start, values.end)) ? values : undefined
  if (lookup.inPlace) {
    // The text literal stays as written (with its mapping) unless the lookup has its own.
    s.overwrite(site.start, text.start, open + lookup.open)
    if (lookup.text !== undefined) s.overwrite(text.start, text.end, lookup.text)
  } else s.overwrite(site.start, text.end, open + lookup.head)
  if (!bound) {
    s.overwrite(text.end, site.end, `${look})`)
    return
  }
  s.overwrite(text.end, bound.start, `${look}, `)
  s.overwrite(bound.end, site.end, ')')
}

/**
 * A keyword with argument positions keeps the app's function: its text argument (and its plural's)
 * becomes a lookup, so the function receives the translated text. False when the text is missing.
 */
function rewriteKeywordCall(
  s: Sink,
  site: CallSite,
  lookup: Lookup,
  spec: KeywordSpec,
  plural: Lookup | undefined,
): boolean {
  const text = site.args[spec.text]
  if (!text) return false
  lookupArgument(s, text, lookup)
  const pluralText = spec.plural === null ? undefined : site.args[spec.plural]
  if (pluralText && plural) lookupArgument(s, pluralText, plural)
  return true
}

/**
 * An argument becomes a lookup without values. The literal stays inside it (with its mapping) unless
 * the lookup has a text of its own: a compiled form, or none with `sourceCatalog`.
 */
function lookupArgument(s: Sink, argument: Range, lookup: Lookup): void {
  if (lookup.text !== undefined) {
    s.overwrite(argument.start, argument.end, lookup.head + lookup.bare)
    return
  }
  s.prependLeft(argument.start, lookup.open)
  s.appendRight(argument.end, lookup.close + lookup.bare)
}
