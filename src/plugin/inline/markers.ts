import type { ParserOptions } from 'oxc-parser'
import { type AstNode, staticString, unwrap } from '../../core/extract/nodes'
import { oxcParser } from '../../core/extract/oxc'
import { jsString } from '../../core/js-string'
import { LOOKUP_LOCAL } from '../transform'

/**
 * The places in a finished chunk that differ between the locale copies of an inline build, and what
 * each becomes in one locale.
 *
 * In inline mode the transform leaves every message call as `__tms_l("<id>", text, values?)` with
 * `__tms_l` a free global (no import): a call of an undeclared global survives tree-shaking, scope
 * hoisting and every minifier with its name and arguments intact. The chunk is parsed once; each
 * locale then only builds strings. Three kinds of site:
 *
 *   __tms_l("<id>", "Hello {name}!", {name:e})  ->  "Bonjour ".concat(String(e)," !")
 *   __tms_locale()                             ->  "fr-FR"               (the inline runtime's locale)
 *   /__tms_locale_dir__/assets/x.js            ->  /fr-FR/assets/x.js    (absolute base of the build)
 *
 * A replacement always starts with a string literal (or is one): it is a valid expression wherever the
 * call was, binds as tightly as a call (`.concat(...)`, not `+`), and cannot join the previous line of
 * code that lacks a semicolon, as a leading `(` would.
 */

/** The global the transform calls in inline mode; the same name as runtime mode's lookup local. */
export const MESSAGE_MARKER: string = LOOKUP_LOCAL
/** `__tms_locale()`: the locale of the copy, used by the inline runtime module. */
export const LOCALE_MARKER = '__tms_locale'
/** Put in the bundler's absolute base URL (`/__tms_locale_dir__/`), replaced by each copy's directory. */
export const DIR_TOKEN = '__tms_locale_dir__'

/** How a message's values are written in the chunk. */
export type ValuesShape =
  /** No values (absent, `void 0`, `null`): the text is a plain literal. */
  | { kind: 'none' }
  /** An object literal whose properties are side-effect free: property name -> span of its value. */
  | { kind: 'object'; props: Map<string, Span> }
  /** Anything else: evaluated once, as at run time, and formatted like the runtime does. */
  | { kind: 'expression'; span: Span }

export interface Span {
  start: number
  end: number
}

export type Site =
  | (Span & {
      kind: 'message'
      id: string
      values: ValuesShape
      children: Site[]
      /** Code of the value spans by start offset, kept across copies (only without children). */
      sources?: Map<number, string>
      /** Where the message's text is in `LocaleTexts.slots`, when the copies number their ids. */
      slot?: number
      /** `String(<code>)` of each value of an object literal (only without children), made once. */
      codes?: Map<string, string>
    })
  | (Span & { kind: 'locale'; children: Site[] })
  | (Span & { kind: 'dir'; children: Site[] })

/** A chunk's sites, outermost first; a site inside another's values is among that site's children. */
export interface ChunkSites {
  sites: Site[]
  /** Marker calls the text mentions but the parse did not find as calls (e.g. inside an eval string). */
  unparsed: number
}

const SIMPLE_VALUE = new Set(['Identifier', 'Literal', 'ThisExpression'])

/** A value that can be read anywhere, any number of times, with the same result and no side effect. */
function isSimpleValue(node: AstNode): boolean {
  if (SIMPLE_VALUE.has(node.type)) return true
  if (node.type === 'TemplateLiteral') return node.expressions.length === 0
  // Another message whose own values are simple: it becomes a string expression of those.
  if (
    node.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === MESSAGE_MARKER
  ) {
    const args = node.arguments as AstNode[]
    return args.length <= 3 && valuesShape(args[2]).kind !== 'expression'
  }
  return false
}

function propertyName(prop: AstNode): string | null {
  if (prop.type !== 'Property' || prop.kind !== 'init' || prop.method || prop.computed) return null
  const key = prop.key as AstNode
  const name =
    key.type === 'Identifier'
      ? (key.name as string)
      : key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')
        ? String(key.value)
        : null
  // `__proto__: x` sets the prototype instead of a property.
  if (name === null || (name === '__proto__' && !prop.shorthand)) return null
  return name
}

function valuesShape(arg: AstNode | undefined): ValuesShape {
  if (!arg) return { kind: 'none' }
  const node = unwrap(arg)
  if (node.type === 'Literal' && node.value === null && node.raw === 'null') return { kind: 'none' }
  if (node.type === 'UnaryExpression' && node.operator === 'void' && node.argument.type === 'Literal') {
    return { kind: 'none' }
  }
  if (node.type === 'ObjectExpression') {
    const props = new Map<string, Span>()
    for (const prop of node.properties as AstNode[]) {
      const name = propertyName(prop)
      if (name === null || !isSimpleValue(prop.value)) return { kind: 'expression', span: spanOf(arg) }
      props.set(name, spanOf(prop.value))
    }
    return { kind: 'object', props }
  }
  return { kind: 'expression', span: spanOf(arg) }
}

function spanOf(node: AstNode): Span {
  return { start: node.start, end: node.end }
}

function countOccurrences(code: string, needle: string): number {
  let n = 0
  for (let at = code.indexOf(needle); at >= 0; at = code.indexOf(needle, at + needle.length)) n++
  return n
}

/** A chunk that may hold sites: a cheap test before the parse. */
export function mayHaveSites(code: string): boolean {
  return code.includes(MESSAGE_MARKER) || code.includes(LOCALE_MARKER) || code.includes(DIR_TOKEN)
}

/**
 * Finds the sites of one chunk. Throws an error naming the chunk when it does not parse or a marker
 * call has a shape the transform never writes.
 */
export function findSites(code: string, fileName: string): ChunkSites {
  const flat: Site[] = []
  const mentioned = countOccurrences(code, `${MESSAGE_MARKER}(`) + countOccurrences(code, `${LOCALE_MARKER}(`)
  let found = 0
  const quick = mentioned > 0 ? quickSites(code) : []
  if (quick && quick.length === mentioned) {
    flat.push(...quick)
    found = quick.length
  } else if (mentioned > 0) {
    const options: ParserOptions = { lang: 'js', sourceType: 'unambiguous', preserveParens: false }
    const { parseSync, Visitor } = oxcParser()
    const parsed = parseSync(fileName.replace(/\.[cm]?js$/, '.js'), code, options)
    const fatal = parsed.errors.find((e) => e.severity === 'Error')
    if (fatal) {
      throw new Error(`[unplugin-tms] inline mode: ${fileName} does not parse (${fatal.message})`)
    }
    const problems: string[] = []
    new Visitor({
      CallExpression(node) {
        const call = node as unknown as AstNode
        const callee = call.callee as AstNode
        if (callee.type !== 'Identifier') return
        const args = call.arguments as AstNode[]
        if (callee.name === LOCALE_MARKER && args.length === 0) {
          flat.push({ kind: 'locale', start: call.start, end: call.end, children: [] })
          found++
          return
        }
        if (callee.name !== MESSAGE_MARKER) return
        found++
        const id = args[0] ? staticString(args[0]) : null
        if (id === null || args.length > 3 || args.some((a) => a.type === 'SpreadElement')) {
          problems.push(code.slice(call.start, Math.min(call.end, call.start + 80)))
          return
        }
        flat.push({
          kind: 'message',
          start: call.start,
          end: call.end,
          id,
          values: valuesShape(args[2]),
          children: [],
        })
      },
    }).visit(parsed.program)
    if (problems.length > 0) {
      throw new Error(
        `[unplugin-tms] inline mode: ${fileName} has ${problems.length} message call(s) another plugin rewrote into a form that cannot be inlined, e.g. ${problems[0]}`,
      )
    }
  }
  for (let at = code.indexOf(DIR_TOKEN); at >= 0; at = code.indexOf(DIR_TOKEN, at + DIR_TOKEN.length)) {
    flat.push({ kind: 'dir', start: at, end: at + DIR_TOKEN.length, children: [] })
  }
  return { sites: nest(flat), unparsed: Math.max(0, mentioned - found) }
}

// The shapes the transform writes, as bundlers and minifiers print them: string arguments in any
// quotes, values absent, `void 0`, `null`, an identifier, or an object literal of identifiers and
// literals. Reading these with a regular expression instead of parsing the whole chunk saves most of
// the cost of an inline build on large chunks (parsing 4 MB of minified code takes about half a
// second); a chunk with any other shape is parsed.
const STR = String.raw`"(?:[^"\\\r\n]|\\[^\r\n])*"|'(?:[^'\\\r\n]|\\[^\r\n])*'|${'`'}(?:[^${'`'}\\$]|\\[\s\S]|\$(?!\{))*${'`'}`
const IDENT = String.raw`[A-Za-z_$][\w$]*`
const NUM = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`
const KEY = String.raw`${IDENT}|\d+|"[^"\\\r\n]*"`
const VALUE = `${IDENT}|${NUM}|${STR}`
const PROP = String.raw`(?:${KEY})\s*:\s*(?:${VALUE})|${IDENT}`
const OBJECT = String.raw`\{\s*(?:(?:${PROP})\s*,\s*)*(?:(?:${PROP})\s*,?\s*)?\}`
const QUICK = new RegExp(
  String.raw`\b${MESSAGE_MARKER}\(\s*(["'${'`'}])([\w-]+)\1\s*,\s*(?:${STR})\s*(?:,\s*(void 0|null|${IDENT}|${OBJECT})\s*)?,?\s*\)|\b${LOCALE_MARKER}\(\)`,
  'g',
)
const QUICK_PROP = new RegExp(String.raw`(${KEY})\s*:\s*(${VALUE})|(${IDENT})`, 'g')

function quickValues(text: string | undefined, at: number): ValuesShape {
  if (text === undefined || text === 'void 0' || text === 'null') return { kind: 'none' }
  if (!text.startsWith('{')) return { kind: 'expression', span: { start: at, end: at + text.length } }
  const props = new Map<string, Span>()
  QUICK_PROP.lastIndex = 0
  for (let m = QUICK_PROP.exec(text); m; m = QUICK_PROP.exec(text)) {
    if (m[3] !== undefined) {
      const start = at + m.index
      props.set(m[3], { start, end: start + m[3].length })
      continue
    }
    const key = m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!
    if (key === '__proto__') return { kind: 'expression', span: { start: at, end: at + text.length } }
    const start = at + m.index + m[0].length - m[2]!.length
    props.set(key, { start, end: start + m[2]!.length })
  }
  return { kind: 'object', props }
}

/** @internal The sites of a chunk whose marker calls all have the common shapes (see QUICK). */
export function quickSites(code: string): Site[] {
  const sites: Site[] = []
  QUICK.lastIndex = 0
  for (let m = QUICK.exec(code); m; m = QUICK.exec(code)) {
    const start = m.index
    const end = start + m[0].length
    if (m[2] === undefined) {
      sites.push({ kind: 'locale', start, end, children: [] })
      continue
    }
    const values = m[3]
    const valuesAt = values === undefined ? -1 : start + m[0].lastIndexOf(values)
    sites.push({ kind: 'message', start, end, id: m[2], values: quickValues(values, valuesAt), children: [] })
  }
  return sites
}

/** Sites of any text (HTML, CSS, JSON): only the directory token can be there. */
export function findDirTokens(text: string): Site[] {
  const sites: Site[] = []
  for (let at = text.indexOf(DIR_TOKEN); at >= 0; at = text.indexOf(DIR_TOKEN, at + DIR_TOKEN.length)) {
    sites.push({ kind: 'dir', start: at, end: at + DIR_TOKEN.length, children: [] })
  }
  return sites
}

/** Puts each site inside the innermost site that contains it. */
function nest(flat: Site[]): Site[] {
  flat.sort((a, b) => a.start - b.start || b.end - a.end)
  const top: Site[] = []
  const stack: Site[] = []
  for (const site of flat) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= site.start) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(site)
    else top.push(site)
    stack.push(site)
  }
  return top
}

/** What a copy puts in place of the sites. */
export interface LocaleTexts {
  locale: string
  /** The message text for an id in this locale (translation, else source text), placeholders as `{name}`. */
  text(id: string): string | undefined
  /**
   * `ids.map(text)`, made faster by the maker of the texts (the session looks each id's source up once
   * for all locales instead of once per locale and site).
   */
  textsOf?(ids: readonly string[]): (string | undefined)[]
  /**
   * The JS literal that stands for an ICU message's text in this copy (its compiled form, which the
   * runtime's formatting around the marker reads); undefined for a plain message.
   */
  form?(id: string, text: string): string | undefined
  /** The texts of the copy's numbered ids (`Site.slot`), looked up once per copy instead of once per site. */
  slots?: readonly (string | undefined)[]
  /**
   * `ids.map((id, i) => form(id, texts[i]))`, made faster by the maker of the texts (whether an id is
   * ICU is looked up once for every copy).
   */
  formsOf?(ids: readonly string[], texts: readonly (string | undefined)[]): (string | undefined)[]
  /** The forms of the copy's numbered ids, beside `slots`. */
  slotForms?: readonly (string | undefined)[]
  /**
   * A name of `textsOf(ids)` and `formsOf(ids, ...)` in this locale, without making them: two builds
   * that give the same name have the same texts and forms (the key of the catalog memo that keeps
   * them). Undefined when there is none.
   */
  slotsName?(ids: readonly string[]): string | undefined
}

/** One replaced range of the chunk, for the source map. */
export interface Edit {
  start: number
  end: number
  text: string
}

/**
 * The chunk's code in one locale, and the top-level edits made (sorted, not overlapping). Throws when
 * a message id is unknown to the build (a stale chunk from another build).
 */
export function renderSites(
  code: string,
  sites: readonly Site[],
  texts: LocaleTexts,
  fileName: string,
): { code: string; edits: Edit[] } {
  const edits: Edit[] = []
  let out = ''
  let last = 0
  for (const site of sites) {
    const text = siteReplacement(code, site, texts, fileName)
    out += code.slice(last, site.start) + text
    last = site.end
    edits.push({ start: site.start, end: site.end, text })
  }
  return { code: out + code.slice(last), edits }
}

/** The source of `span` with the sites inside it replaced. */
function renderRange(
  code: string,
  span: Span,
  sites: readonly Site[],
  texts: LocaleTexts,
  file: string,
): string {
  let out = ''
  let last = span.start
  for (const site of sites) {
    if (site.start < span.start || site.end > span.end) continue
    out += code.slice(last, site.start) + siteReplacement(code, site, texts, file)
    last = site.end
  }
  return out + code.slice(last, span.end)
}

/** What one site becomes in a locale (its nested sites replaced too). */
export function siteReplacement(code: string, site: Site, texts: LocaleTexts, fileName: string): string {
  if (site.kind === 'dir') return texts.locale
  if (site.kind === 'locale') return jsString(texts.locale)
  const text = site.slot !== undefined && texts.slots ? texts.slots[site.slot] : texts.text(site.id)
  if (text === undefined) {
    throw new Error(
      `[unplugin-tms] inline mode: ${fileName} uses message id ${site.id}, which this build did not extract; is the chunk from another build?`,
    )
  }
  if (site.children.length === 0 && site.values.kind !== 'expression') {
    if (site.values.kind === 'none') {
      const form =
        site.slot !== undefined && texts.slots && texts.slotForms
          ? texts.slotForms[site.slot]
          : texts.form?.(site.id, text)
      return form ?? literal(text)
    }
    // The code of each value is the same in every copy: made once.
    site.codes ??= valueCodes(code, site.values.props)
    const codes = site.codes
    // A placeholder the values lack prints nothing, as an absent value does at run time.
    return interpolation(text, (key) => codes.get(key) ?? '""')
  }
  if (site.children.length === 0) {
    // Locale-independent code of the values: read from the chunk once, not once per copy.
    site.sources ??= new Map()
    const cache = site.sources
    const source = (span: Span): string => {
      let out = cache.get(span.start)
      if (out === undefined) {
        out = code.slice(span.start, span.end)
        cache.set(span.start, out)
      }
      return out
    }
    return messageExpression(text, site.values, source)
  }
  const source = (span: Span): string => renderRange(code, span, site.children, texts, fileName)
  return messageExpression(text, site.values, source)
}

/**
 * The code of a value's text, as the runtime's `valueText` gives it: null, undefined and false print
 * nothing, anything else is `String(value)`; the value's code is evaluated once.
 */
const textCode = (value: string): string => `function(x){return x==null||x===!1?"":String(x)}(${value})`

/** The text code of each value of an object literal, by property name. */
function valueCodes(code: string, props: ReadonlyMap<string, Span>): Map<string, string> {
  const codes = new Map<string, string>()
  for (const [key, span] of props) codes.set(key, textCode(code.slice(span.start, span.end)))
  return codes
}

/** Same as the runtime's format: `{key}` becomes the text of the values' own property `key`. */
const PLACEHOLDER = /\{([^\p{White_Space}\p{Pattern_Syntax}]+|[\w$]+)\}/gu

/** A string literal that cannot be read as a directive (`"use strict"`) when it stands alone. */
function literal(text: string): string {
  return text.startsWith('use ') ? `${jsString(text)}.concat()` : jsString(text)
}

/**
 * `"Bonjour ".concat(<text of e>," !")`: the text with each `{key}` that `codeOf` has code for replaced
 * by that code, the others kept as text. A plain literal when no key has code.
 */
function interpolation(text: string, codeOf: (key: string) => string | undefined): string {
  let head: string | undefined
  const args: string[] = []
  let pending = ''
  let last = 0
  PLACEHOLDER.lastIndex = 0
  for (let m = PLACEHOLDER.exec(text); m; m = PLACEHOLDER.exec(text)) {
    const code = codeOf(m[1]!)
    if (code === undefined) continue
    pending += text.slice(last, m.index)
    last = m.index + m[0].length
    if (head === undefined) head = pending
    else if (pending !== '') args.push(jsString(pending))
    pending = ''
    args.push(code)
  }
  if (head === undefined) return literal(text)
  pending += text.slice(last)
  if (pending !== '') args.push(jsString(pending))
  return `${jsString(head)}.concat(${args.join(',')})`
}

/**
 * The expression of one message in one locale. Values are inserted as text (`String(v)`), as the
 * runtime does; every literal part goes through `jsString`, so a translation cannot leave its string.
 * `source` gives the (rendered) code of a span of the chunk.
 */
export function messageExpression(text: string, values: ValuesShape, source: (span: Span) => string): string {
  if (values.kind === 'none') return literal(text)
  if (values.kind === 'object') {
    return interpolation(text, (key) => {
      const span = values.props.get(key)
      return span ? textCode(source(span)) : '""'
    })
  }
  // Any other values expression: evaluated once where the call was, and read like the runtime reads it
  // (own properties only; a missing one prints nothing; no values at all leaves the text).
  const body = interpolation(text, (key) => {
    const k = jsString(key)
    return `(h.call(v,${k})?${textCode(`v[${k}]`)}:"")`
  })
  return `"".concat(function(v){var h=Object.prototype.hasOwnProperty;return v?${body}:${jsString(text)}}(${source(values.span)}))`
}
