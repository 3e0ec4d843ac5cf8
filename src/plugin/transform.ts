import type { SourceMap } from 'magic-string'
import { jsString } from '../core/catalog'
import type { CallSite } from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import { FORMAT_CALLEE, LOOKUP_CALLEE } from '../core/extract/nodes'
import type { Markup } from '../core/extract/types'
import { Edits } from './edits'
import { type JsxLookup, rewriteJsx } from './jsx'
import { forMarkup, templateCanImport, VUE_BINDING, vueImport } from './vue-sfc'

/**
 * The rewrite of one module's message calls into catalog lookups, with magic-string so the source map
 * points every untouched character (the text literal, the values expression) back at the original.
 *
 *   t('Hello {name}!', { name }, { variant })   ->  __tms_l("<id>", 'Hello {name}!', { name })
 *   t`Hello ${name}!`                          ->  __tms_l("<id>", "Hello {name}!", { "name": (name) })
 *   _x('Open', 'menu')         (keyword _x:1,2c) ->  _x(__tms_l("<id>", 'Open'), 'menu')
 *   <T msg="Read the <link>terms</link>">     ->  <T :msg="(values) => __tms_l(&quot;<id>&quot;, ...)">
 *
 * In a .vue file the lookup comes from unplugin-tms/vue, whose render-time read makes Vue re-render
 * on a switch, and calls in the template are written as valid markup (vue-sfc.ts).
 * The default API is replaced whole (its options object is build-time only); a keyword with argument
 * positions keeps the app's own function and only its text arguments become lookups, so the function
 * receives the translated text.
 */

/** The local name of the runtime's lookup in transformed modules; a name no app declares. */
export const LOOKUP_LOCAL: string = LOOKUP_CALLEE

/** The runtime's formatting of a compiled message in inline mode, as transformed modules name it. */
export const FORMAT_LOCAL: string = FORMAT_CALLEE
/** The inline runtime's locale marker (inline/markers.ts LOCALE_MARKER), replaced in each copy. */
const INLINE_LOCALE = '__tms_locale()'

/** How one call site is looked up: its catalog id, and for tagged templates the text in `{name}` form. */
export interface SiteLookup {
  id: string
  text: string
  /**
   * An ICU message: the JS literal of the source text's compiled form, the fallback a lookup gets in
   * place of the text. Inline mode wraps the site in the runtime's formatting instead.
   */
  form?: string
  /** Plural keywords: the plural text's id. */
  pluralId?: string
}

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

/** Where the runtime import goes: the top of a JS module, inside the script block of a .svelte file or the frontmatter of an .astro file. */
function importOffset(code: string, id: string, firstCall: number): number {
  const path = id.split('?')[0]!
  if (/\.svelte$/i.test(path)) {
    let offset = -1
    SCRIPT_OPEN.lastIndex = 0
    for (let m = SCRIPT_OPEN.exec(code); m && m.index < firstCall; m = SCRIPT_OPEN.exec(code)) {
      offset = m.index + m[0].length
      if (code[offset] === '\n') offset++
    }
    return Math.max(offset, 0)
  }
  // An .astro file as written: inside its frontmatter (Astro's compiled output is a plain module).
  if (/\.astro$/i.test(path) && !code.includes('$$createComponent')) {
    const fence = /^\s*---[^\S\r\n]*\r?\n/.exec(code)
    if (fence) return fence[0].length
  }
  // A hashbang must stay the first line.
  if (code.startsWith('#!')) {
    const eol = code.indexOf('\n')
    return eol < 0 ? code.length : eol + 1
  }
  return 0
}

function importStatement(id: string, runtimeModule: string, name: '_l' | '_f', local: string): string {
  const path = id.split('?')[0]!
  // CommonJS modules cannot hold an import statement (webpack rejects the mix).
  if (/\.cjs$/i.test(path)) return `const { ${name}: ${local} } = require(${jsString(runtimeModule)});\n`
  return `import { ${name} as ${local} } from ${jsString(runtimeModule)};\n`
}

/** The edits a rewrite makes at one site. */
type Sink = Pick<Edits, 'overwrite' | 'remove' | 'prependLeft' | 'appendRight'>

/** Edits whose written code is escaped for the markup around a template call. */
function markupSink(s: Edits, markup: Markup): Sink {
  return {
    overwrite: (start, end, text) => s.overwrite(start, end, forMarkup(text, markup)),
    remove: (start, end) => s.remove(start, end),
    prependLeft: (at, text) => s.prependLeft(at, forMarkup(text, markup)),
    appendRight: (at, text) => s.appendRight(at, forMarkup(text, markup)),
  }
}

/** Rewrites the call sites; null when nothing changed (no site, or none that could be looked up). */
export function rewriteMessageCalls(input: RewriteInput): RewriteResult | null {
  const { code, calls, lookup, specs } = input
  const s = new Edits()
  const ids: string[] = []
  let first = -1
  let template = false
  const inline = input.importRuntime === false
  const idOnly = !inline && input.idOnly === true
  const vue = /\.vue$/i.test(input.id.split('?')[0]!)
  const templateImport = vue && templateCanImport(code)
  let formats = false
  for (const site of calls) {
    const inTemplate = site.markup !== undefined || site.kind === 'attribute'
    // Left as written where the template cannot call the lookup (templateProblem says why).
    if (inTemplate && (inline || !templateImport)) continue
    const found = lookup(site)
    if (!found) continue
    const spec = specs.get(code.slice(site.callee.start, site.callee.end))
    const wrap = inline && found.form !== undefined
    const sink = site.markup === undefined ? s : markupSink(s, site.markup)
    if (idOnly) {
      if (!rewriteIdOnly(s, sink, code, site, found, spec)) continue
    } else if (site.kind === 'jsx') rewriteJsx(s, site, jsxLookup(found, wrap))
    else if (site.kind === 'attribute') rewriteAttribute(s, code, site, found)
    else if (site.kind === 'tagged') rewriteTagged(sink, site, found, wrap)
    else if (!spec || spec.defaultApi) rewriteDefaultCall(sink, site, found, wrap)
    else if (!rewriteKeywordCall(sink, site, found, spec, wrap)) continue
    if (wrap) formats = true
    if (inTemplate) template = true
    ids.push(found.id)
    if (found.pluralId) ids.push(found.pluralId)
    if (first < 0) first = site.start
  }
  if (first < 0) return null
  if (!inline || formats) {
    const path = input.id.split('?')[0]!
    const svelte = SVELTE_FILE.test(path)
    const binding = vue ? VUE_BINDING : svelte ? SVELTE_RUNTIME : input.runtimeModule
    const statement = inline
      ? importStatement(input.id, input.runtimeModule, '_f', FORMAT_LOCAL)
      : importStatement(input.id, binding, '_l', LOOKUP_LOCAL)
    if (vue) {
      const insertion = vueImport(code, statement, template, first)
      s.appendLeft(insertion.at, insertion.text)
    } else {
      const at = /\.svelte$/i.test(path) ? svelteImportOffset(code) : importOffset(code, input.id, first)
      if (at < 0) s.prepend(`<script>\n${statement}</script>\n\n`)
      else if (at === 0) s.prepend(statement)
      else s.appendLeft(at, at < code.length && code[at - 1] !== '\n' ? `\n${statement}` : statement)
    }
  }
  if (input.sourcemap === false) return { code: s.apply(code), map: null, ids }
  const m = s.replay(code)
  return {
    code: m.toString(),
    map: m.generateMap({ source: input.id.split('?')[0], includeContent: true, hires: 'boundary' }),
    ids,
  }
}

/** `msg="<text>"` of Vue's `<T>` becomes a bound function of the values that looks the message up. */
function rewriteAttribute(s: Edits, code: string, site: CallSite, found: SiteLookup): void {
  const name = code.slice(site.callee.start, site.callee.end)
  const text = found.form ?? jsString(found.text)
  const bound = `(values) => ${LOOKUP_LOCAL}(${jsString(found.id)}, ${text}, values)`
  s.overwrite(site.start, site.end, `:${name}="${forMarkup(bound, 'double')}"`)
}

function rewriteDefaultCall(s: Sink, site: CallSite, found: SiteLookup, wrap: boolean): void {
  const [text, values, ...rest] = site.args
  if (!text) return
  if (wrap) {
    // Inline mode, ICU: `__tms_f(__tms_l("<id>", "<text>"), values, __tms_locale())`; each copy puts
    // its locale's compiled form in place of the inner marker and its locale in place of the last.
    s.overwrite(site.start, text.start, `${FORMAT_LOCAL}(${LOOKUP_LOCAL}(${jsString(found.id)}, `)
    s.overwrite(text.start, text.end, `${jsString(found.text)})`)
    if (values) {
      s.overwrite(text.end, values.start, ', ')
      s.overwrite(values.end, site.end, `, ${INLINE_LOCALE})`)
    } else s.overwrite(text.end, site.end, `, void 0, ${INLINE_LOCALE})`)
    return
  }
  // Callee, `(` and any type arguments become the lookup; the text literal stays as written, unless
  // it is ICU: then the source's compiled form is the fallback.
  s.overwrite(site.start, text.start, `${LOOKUP_LOCAL}(${jsString(found.id)}, `)
  if (found.form !== undefined) s.overwrite(text.start, text.end, found.form)
  const last = rest[rest.length - 1]
  if (values && last) s.remove(values.end, last.end)
}

/** A `<T>` element's lookup, as the other sites write it (see jsx.ts). */
function jsxLookup(found: SiteLookup, wrap: boolean): JsxLookup {
  const lookup = `${LOOKUP_LOCAL}(${jsString(found.id)}, `
  if (!wrap) return { head: `${lookup}${found.form ?? jsString(found.text)}`, bare: ')', tail: ')' }
  const tail = `, ${INLINE_LOCALE})`
  return { head: `${FORMAT_LOCAL}(${lookup}${jsString(found.text)})`, bare: `, void 0${tail}`, tail }
}

/** `idHead`: `sourceCatalog`'s lookup, which has no text (`0` before the values). */
function rewriteTagged(s: Sink, site: CallSite, found: SiteLookup, wrap: boolean, idHead?: string): void {
  const expressions = site.expressions ?? []
  const lookup = `${LOOKUP_LOCAL}(${jsString(found.id)}, `
  const head =
    idHead ??
    (wrap
      ? `${FORMAT_LOCAL}(${lookup}${jsString(found.text)})`
      : `${lookup}${found.form ?? jsString(found.text)}`)
  const tail = wrap ? `, ${INLINE_LOCALE})` : ')'
  if (expressions.length === 0) {
    s.overwrite(site.start, site.end, wrap ? `${head}, void 0${tail}` : `${head})`)
    return
  }
  // Each `${expr}` keeps its own source (and mapping); the template text around it becomes the object.
  s.overwrite(
    site.start,
    expressions[0]!.start,
    `${head}${idHead ? ',0,' : ', '}{ ${jsString(expressions[0]!.name)}: (`,
  )
  for (let i = 1; i < expressions.length; i++) {
    s.overwrite(expressions[i - 1]!.end, expressions[i]!.start, `), ${jsString(expressions[i]!.name)}: (`)
  }
  s.overwrite(expressions[expressions.length - 1]!.end, site.end, `) }${tail}`)
}

function rewriteKeywordCall(
  s: Sink,
  site: CallSite,
  found: SiteLookup,
  spec: KeywordSpec,
  wrap: boolean,
): boolean {
  const text = site.args[spec.text]
  if (!text) return false
  if (wrap) {
    // Inline mode, ICU: the app's function receives the formatted text, as in runtime mode.
    s.prependLeft(text.start, `${FORMAT_LOCAL}(${LOOKUP_LOCAL}(${jsString(found.id)}, `)
    s.appendRight(text.end, `), void 0, ${INLINE_LOCALE})`)
  } else {
    s.prependLeft(text.start, `${LOOKUP_LOCAL}(${jsString(found.id)}, `)
    if (found.form !== undefined) s.overwrite(text.start, text.end, found.form)
    s.appendRight(text.end, ')')
  }
  const plural = spec.plural === null ? undefined : site.args[spec.plural]
  if (plural && found.pluralId) {
    s.prependLeft(plural.start, `${LOOKUP_LOCAL}(${jsString(found.pluralId)}, `)
    s.appendRight(plural.end, ')')
  }
  return true
}

/**
 * `sourceCatalog`: a site's lookup without its source text, which the source locale's catalog holds.
 * `0` stands in for the text when values follow (the runtime reads it as "no text"). False when the
 * site has no text to rewrite (a keyword call missing its text argument).
 */
function rewriteIdOnly(
  s: Edits,
  sink: Sink,
  code: string,
  site: CallSite,
  found: SiteLookup,
  spec: KeywordSpec | undefined,
): boolean {
  // In a template, the id in single quotes: an id is base64url, and the attribute around it keeps its
  // double quotes with no `&quot;` in between.
  const inTemplate = site.markup !== undefined || site.kind === 'attribute'
  const lookup = `${LOOKUP_LOCAL}(${inTemplate ? `'${found.id}'` : jsString(found.id)}`
  if (site.kind === 'jsx') {
    rewriteJsx(s, site, { head: lookup, bare: ')', tail: ')', values: ',0,' })
    return true
  }
  if (site.kind === 'attribute') {
    const name = code.slice(site.callee.start, site.callee.end)
    s.overwrite(site.start, site.end, `:${name}="${forMarkup(`(values) => ${lookup},0,values)`, 'double')}"`)
    return true
  }
  if (site.kind === 'tagged') {
    rewriteTagged(sink, site, found, false, lookup)
    return true
  }
  if (!spec || spec.defaultApi) {
    const [text, values] = site.args
    if (!text) return true
    // `t('Open', undefined, { variant })`: no values to pass.
    const none = values && /^(?:undefined|void 0)$/.test(code.slice(values.start, values.end))
    if (!values || none) {
      sink.overwrite(site.start, site.end, `${lookup})`)
      return true
    }
    // The values expression keeps its own source and mapping; the options after it are build-time only.
    sink.overwrite(site.start, values.start, `${lookup},0,`)
    sink.overwrite(values.end, site.end, ')')
    return true
  }
  const text = site.args[spec.text]
  if (!text) return false
  sink.overwrite(text.start, text.end, `${lookup})`)
  const plural = spec.plural === null ? undefined : site.args[spec.plural]
  if (plural && found.pluralId)
    sink.overwrite(plural.start, plural.end, `${LOOKUP_LOCAL}(${jsString(found.pluralId)})`)
  return true
}
