import type { Branch, CompiledMessage, Part } from './icu'

const has = Object.prototype.hasOwnProperty

/**
 * ICU MessageFormat read at run time, only for untransformed code (an app's unit tests call `t` with
 * the source text). It gives the same compact form the build compiles with @formatjs's parser
 * (src/core/icu/compile.ts; a test holds the two equal), so `t` formats as a build does. Only `t`
 * imports this module: a transformed bundle, whose calls are lookups, leaves it out.
 */

// The named styles repeat those of src/core/icu/compile.ts on purpose: the runtime is built whole and
// shares no module with the plugin (a shared one would become a chunk the embedded runtime text
// imports). test/icu/compile.test.ts holds the two readings equal over its corpus.
const NUMBER_STYLES: Record<string, Record<string, unknown>> = {
  integer: { maximumFractionDigits: 0 },
  percent: { style: 'percent' },
  currency: { style: 'currency' },
}
const DATE_STYLES: Record<string, Record<string, unknown>> = {
  short: { month: 'numeric', day: 'numeric', year: '2-digit' },
  medium: { month: 'short', day: 'numeric', year: 'numeric' },
  long: { month: 'long', day: 'numeric', year: 'numeric' },
  full: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
}
const TIME_STYLES: Record<string, Record<string, unknown>> = {
  short: { hour: 'numeric', minute: 'numeric' },
  medium: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
  long: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
  full: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
}

const memo = new Map<string, CompiledMessage>()

/**
 * A text of .NET's placeholder format (`{0:N2}`, `{0,-8}`), which is no ICU: a build reads it as plain
 * text with `placeholderFormat: 'resx'`; untransformed `t` does too.
 */
const RESX = /^(?:[^{}]|\{\d+(?:,\s*-?\d+)?(?::[^{}]*)?\})*$/

/**
 * The compact form of a source text (the text itself when it is plain); memoized per text. A text that
 * is not valid ICU, or that holds what this reader does not read, throws: a build refuses such a text
 * at extraction, and printing its source would hide the problem.
 */
export function compileText(text: string): CompiledMessage {
  let form = memo.get(text)
  if (form === undefined) {
    try {
      form = /[{}'<]/.test(text) ? new Reader(text).message() : text
    } catch (error) {
      if (!/\{\d+[,:]/.test(text) || !RESX.test(text)) throw error
      form = text
    }
    memo.set(text, form)
  }
  return form
}

function fail(text: string, at: number, what: string): never {
  throw new SyntaxError(`[unplugin-tms] ${what} at character ${at + 1} of ${JSON.stringify(text)}`)
}

/** A name, type or selector: what @formatjs's parser reads as an identifier. */
const WORD = /[^\p{White_Space}\p{Pattern_Syntax}]+/uy
/** A plural's exact selector. */
const EXACT = /=[+-]?\d+/y
/** A tag's name and what follows it: `>` opens it, `/>` makes the whole a text (`<br/>`). */
const TAG = /([\w-]+)([\t-\r \x85\u200e\u200f\u2028\u2029]*\/>|>)?/y
/** ICU's pattern white space (U+200E and U+200F among it, not U+00A0). */
const SPACE = /[\t-\r \x85\u200e\u200f\u2028\u2029]*/y

class Reader {
  i = 0
  constructor(readonly text: string) {}

  message(): CompiledMessage {
    const parts = this.parts(false, false)
    const plain = typeof parts === 'string' ? [parts] : parts
    let rebuilt = ''
    for (const p of plain) {
      if (typeof p === 'string') rebuilt += p
      else if (typeof p === 'object' && p.length === 1) rebuilt += `{${p[0]}}`
      else return plain
    }
    return rebuilt === this.text ? this.text : plain
  }

  private space(): void {
    SPACE.lastIndex = this.i
    SPACE.exec(this.text)
    this.i = SPACE.lastIndex
  }

  private word(what: string, pattern = WORD): string {
    this.space()
    pattern.lastIndex = this.i
    const m = pattern.exec(this.text)
    if (!m) fail(this.text, this.i, `expected ${what}`)
    this.i = pattern.lastIndex
    this.space()
    return m[0]
  }

  private expect(ch: string): void {
    this.space()
    if (this.text[this.i] !== ch) fail(this.text, this.i, `expected ${ch}`)
    this.i++
  }

  /**
   * Parts until the end of the text, until the `}` that closes a branch (`nested`), or until the `</`
   * that closes a tag (`tag`).
   */
  private parts(nested: boolean, plural: boolean, tag = false): Branch {
    const { text } = this
    const parts: Part[] = []
    let literal = ''
    const flush = (): void => {
      if (literal) parts.push(literal)
      literal = ''
    }
    while (this.i < text.length) {
      const ch = text[this.i]!
      const next = text[this.i + 1]
      if (ch === "'") {
        if (next === "'") {
          literal += "'"
          this.i += 2
        } else if (next !== undefined && ('{}<>'.includes(next) || (next === '#' && plural))) {
          // Quoted: up to the next lone apostrophe (`''` inside is one apostrophe).
          let j = this.i + 1
          for (; j < text.length; j++) {
            if (text[j] === "'") {
              if (text[j + 1] !== "'") break
              j++
            }
            literal += text[j]
          }
          this.i = j + 1
        } else {
          literal += ch
          this.i++
        }
      } else if (ch === '#' && plural) {
        flush()
        parts.push(0)
        this.i++
      } else if (ch === '{') {
        flush()
        this.i++
        parts.push(this.argument())
      } else if (ch === '}' && nested) {
        break
      } else if (ch === '<' && next === '/') {
        if (!tag) fail(text, this.i, 'a closing tag without its open tag')
        break
      } else if (ch === '<' && next !== undefined && /[A-Za-z0-9]/.test(next)) {
        TAG.lastIndex = this.i + 1
        const m = TAG.exec(text)!
        if (!m[2] && /\d/.test(next)) {
          // `<3`: only a whole `<0>` is a numbered tag, as the build reads it; the rest is text.
          literal += ch
          this.i++
          continue
        }
        if (m[2]?.endsWith('/>')) {
          literal += `<${m[1]}/>`
          this.i = TAG.lastIndex
          continue
        }
        if (!m[2]) fail(text, this.i, 'a malformed tag')
        flush()
        this.i = TAG.lastIndex
        const children = this.parts(true, plural, true)
        const close = `</${m[1]}>`
        if (!text.startsWith(close, this.i)) fail(text, this.i, `expected ${close}`)
        this.i += close.length
        parts.push([m[1]!, 6, children])
      } else {
        literal += ch
        this.i++
      }
    }
    flush()
    if (parts.length === 0) return ''
    return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts
  }

  private argument(): Part {
    const { text } = this
    const name = this.word('an argument name')
    if (text[this.i] === '}') {
      this.i++
      return [name]
    }
    this.expect(',')
    const type = this.word('an argument type')
    if (type === 'plural' || type === 'selectordinal' || type === 'select') {
      this.expect(',')
      this.space()
      let offset = 0
      const at = /offset:[\t-\r \x85\u200e\u200f\u2028\u2029]*([+-]?\d+)/y
      at.lastIndex = this.i
      const m = at.exec(text)
      if (m && type !== 'select') {
        offset = Number(m[1])
        this.i = at.lastIndex
      }
      const branches: Record<string, Branch> = {}
      for (this.space(); text[this.i] !== '}'; this.space()) {
        if (this.i >= text.length) fail(text, this.i, 'an argument not closed with }')
        // A plural's `=N` is keyed by N, as the build writes it (src/core/icu/compile.ts).
        const selector =
          type !== 'select' && text[this.i] === '='
            ? this.word('=N', EXACT).slice(1)
            : this.word('a selector')
        if (has.call(branches, selector)) fail(text, this.i, `the selector ${selector} twice`)
        this.expect('{')
        const branch = this.parts(true, type !== 'select')
        // As the build writes it (src/core/icu/compile.ts): an own property, an array.
        if (selector === '__proto__')
          Object.defineProperty(branches, selector, {
            value: typeof branch === 'string' ? [branch] : branch,
            enumerable: true,
            writable: true,
            configurable: true,
          })
        else branches[selector] = branch
        this.expect('}')
      }
      this.i++
      if (!has.call(branches, 'other')) fail(text, this.i - 1, 'a plural or select without `other`')
      return type === 'select' ? [name, 3, branches] : [name, type === 'plural' ? 4 : 5, offset, branches]
    }
    let style = ''
    const styled = text[this.i] === ','
    if (styled) {
      const end = text.indexOf('}', this.i)
      if (end < 0) fail(text, this.i, 'an argument not closed with }')
      style = text.slice(this.i + 1, end).trim()
      this.i = end
    }
    const at = this.i
    this.expect('}')
    if (styled && !style.replace(/^::/, '')) fail(text, at, 'expected a style or skeleton')
    if (style.split("'").length % 2 === 0) fail(text, at, 'a quote not closed in the style')
    const kind = type === 'number' ? 1 : 2
    if (kind > 1 && type !== 'date' && type !== 'time')
      fail(text, at, `the argument type ${type} is not supported`)
    const skeleton = style.startsWith('::') && style.slice(2)
    const options =
      skeleton !== false
        ? (kind > 1 ? dateSkeleton : numberSkeleton)(skeleton)
        : kind > 1
          ? (type === 'date' ? DATE_STYLES : TIME_STYLES)[style || (type === 'time' ? 'medium' : '')]
          : NUMBER_STYLES[style]
    // The Intl object the runtime will make, made now: options it refuses (a currency style without a
    // currency, an unknown unit) are an error of the text, not of a later call.
    try {
      if (kind > 1) new Intl.DateTimeFormat(undefined, options)
      else new Intl.NumberFormat(undefined, options)
    } catch (error) {
      fail(
        text,
        at,
        `{${name}, ${type}${style ? `, ${style}` : ''}} cannot be formatted (${(error as Error).message})`,
      )
    }
    return options ? [name, kind, { ...options }] : [name, kind]
  }
}

const WHITE = /[\t-\r \x85\u200e\u200f\u2028\u2029]+/
const SIGNS: Record<string, Record<string, string>> = {
  'sign-auto': { signDisplay: 'auto' },
  'sign-always': { signDisplay: 'always' },
  'sign-never': { signDisplay: 'never' },
  'sign-except-zero': { signDisplay: 'exceptZero' },
  'sign-accounting': { currencySign: 'accounting' },
  'sign-accounting-always': { signDisplay: 'always', currencySign: 'accounting' },
  'sign-accounting-except-zero': { signDisplay: 'exceptZero', currencySign: 'accounting' },
  '+!': { signDisplay: 'always' },
  '+?': { signDisplay: 'exceptZero' },
  '+_': { signDisplay: 'never' },
  '()': { currencySign: 'accounting' },
  '()!': { signDisplay: 'always', currencySign: 'accounting' },
  '()?': { signDisplay: 'exceptZero', currencySign: 'accounting' },
}
/** Stems that set fixed options (the signs' too); `K` and `KK` are the concise compact stems. */
const FIXED: Record<string, Record<string, unknown>> = {
  percent: { style: 'percent' },
  '%': { style: 'percent' },
  '%x100': { style: 'percent', scale: 100 },
  'group-off': { useGrouping: false },
  ',_': { useGrouping: false },
  'precision-integer': { maximumFractionDigits: 0 },
  '.': { maximumFractionDigits: 0 },
  'compact-short': { notation: 'compact', compactDisplay: 'short' },
  K: { notation: 'compact', compactDisplay: 'short' },
  'compact-long': { notation: 'compact', compactDisplay: 'long' },
  KK: { notation: 'compact', compactDisplay: 'long' },
  'notation-simple': { notation: 'standard' },
  'unit-width-narrow': { currencyDisplay: 'narrowSymbol', unitDisplay: 'narrow' },
  'unit-width-short': { currencyDisplay: 'code', unitDisplay: 'short' },
  'unit-width-full-name': { currencyDisplay: 'name', unitDisplay: 'long' },
  'unit-width-iso-code': { currencyDisplay: 'symbol' },
  'rounding-mode-floor': { roundingMode: 'floor' },
  'rounding-mode-ceiling': { roundingMode: 'ceil' },
  'rounding-mode-down': { roundingMode: 'trunc' },
  'rounding-mode-up': { roundingMode: 'expand' },
  'rounding-mode-half-even': { roundingMode: 'halfEven' },
  'rounding-mode-half-down': { roundingMode: 'halfTrunc' },
  'rounding-mode-half-up': { roundingMode: 'halfExpand' },
}
const FRACTION = /^\.(?:(0+)(\*)?|(#+)|(0+)(#+))$/
const SIGNIFICANT = /^(@+)?(\+|#+)?[rs]?$/

/** `@@#`, `@+`, `@@s`...: significant digits, as @formatjs/icu-skeleton-parser reads them. */
function significant(stem: string): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  const last = stem[stem.length - 1]
  if (last === 'r') o.roundingPriority = 'morePrecision'
  else if (last === 's') o.roundingPriority = 'lessPrecision'
  const [, at = '', more] = SIGNIFICANT.exec(stem)!
  // The build's skeleton reader fails on a stem without `@`.
  if (!at) unsupported(`the number skeleton stem ${stem}`)
  if (more === undefined) o.minimumSignificantDigits = o.maximumSignificantDigits = at.length
  else if (more === '+') o.minimumSignificantDigits = at.length
  else if (!at) o.maximumSignificantDigits = more.length
  else {
    o.minimumSignificantDigits = at.length
    o.maximumSignificantDigits = at.length + more.length
  }
  return o
}

/**
 * Intl.NumberFormat options of a number skeleton, as @formatjs/icu-skeleton-parser gives them to the
 * build (the stems it reads, in its order of precedence; the ones it skips skipped here too).
 */
function numberSkeleton(skeleton: string): Record<string, unknown> {
  let o: Record<string, unknown> = {}
  for (const token of skeleton.split(WHITE).filter(Boolean)) {
    const [stem, ...options] = token.split('/') as [string, ...string[]]
    const option = options[0]
    const fraction = FRACTION.exec(stem)
    if (!stem || options.some((x) => !x)) unsupported(`the number skeleton token ${token}`)
    if (has.call(FIXED, stem)) Object.assign(o, FIXED[stem])
    else if (has.call(SIGNS, stem)) Object.assign(o, SIGNS[stem])
    else if (stem === 'currency') Object.assign(o, { style: 'currency', currency: option })
    else if (stem === 'unit') Object.assign(o, { style: 'unit', unit: option })
    else if (stem === 'measure-unit') Object.assign(o, { style: 'unit', unit: option?.replace(/^.*?-/, '') })
    else if (stem === 'scale') o.scale = Number.parseFloat(option!)
    else if (stem === 'scientific' || stem === 'engineering') {
      o = { ...o, notation: stem }
      for (const x of options) Object.assign(o, SIGNS[x])
    } else if (stem === 'integer-width' && options.length === 1 && /^\*0+$/.test(option!))
      o.minimumIntegerDigits = option!.length - 1
    else if (/^0+$/.test(stem)) o.minimumIntegerDigits = stem.length
    else if (fraction && options.length < 2) {
      const [, zeros, star, hashes, least, more] = fraction
      if (star) o.minimumFractionDigits = zeros!.length
      else if (hashes) o.maximumFractionDigits = hashes.length
      else if (least) {
        o.minimumFractionDigits = least.length
        o.maximumFractionDigits = least.length + more!.length
      } else o.minimumFractionDigits = o.maximumFractionDigits = zeros!.length
      if (option === 'w') o = { ...o, trailingZeroDisplay: 'stripIfInteger' }
      // An option that is no significant-digits stem (`@@@@*`) is skipped, as the build skips it.
      else if (option && SIGNIFICANT.test(option)) o = { ...o, ...significant(option) }
    } else if (stem && SIGNIFICANT.test(stem)) o = { ...o, ...significant(stem) }
    else {
      // A stem the build's skeleton reader does not know (`notation-scientific`) is skipped, as it does.
      const concise = /^(EE?)(\+[!?])?(0+)$/.exec(stem)
      if (concise)
        o = {
          ...o,
          notation: concise[1] === 'E' ? 'scientific' : 'engineering',
          ...(concise[2] ? SIGNS[concise[2]] : {}),
          minimumIntegerDigits: concise[3]!.length,
        }
    }
  }
  return o
}

function unsupported(what: string): never {
  throw new SyntaxError(`[unplugin-tms] ${what} is not supported by t() untransformed`)
}

/** The date fields @formatjs/icu-skeleton-parser knows (it skips any other letter), outside quotes; and `j`, `J`, `C`. */
const DATE_FIELD =
  /(?:[Eec]{1,6}|G{1,5}|[Qq]{1,5}|(?:[yYur]+|U{1,5})|[ML]{1,5}|d{1,2}|D{1,3}|F|[abB]{1,5}|[hkHK]{1,2}|w{1,2}|W|m{1,2}|s{1,2}|[zZOvVxX]{1,4}|[jJC]+)(?=(?:[^']*'[^']*')*[^']*$)/g
const TEXT_WIDTH = ['numeric', '2-digit', 'short', 'long', 'narrow']
const WEEKDAY = ['short', 'long', 'narrow', 'short']
const HOUR_CYCLE: Record<string, string> = { h: 'h12', H: 'h23', K: 'h11', k: 'h24' }

/**
 * Intl.DateTimeFormat options of a date skeleton, as the build reads it; a field the build refuses
 * throws, and so do `j`, `J` and `C` (the build reads them with the locale's hour cycle).
 */
function dateSkeleton(skeleton: string): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  for (const [field] of skeleton.matchAll(DATE_FIELD)) {
    const n = field.length
    const c = field[0]!
    const two = n === 2 ? '2-digit' : 'numeric'
    if (c === 'G') o.era = n === 4 ? 'long' : n === 5 ? 'narrow' : 'short'
    else if (c === 'y') o.year = two
    else if (c === 'M' || c === 'L') o.month = TEXT_WIDTH[n - 1]
    else if (c === 'd') o.day = two
    else if (c === 'E') o.weekday = n === 4 ? 'long' : n === 5 ? 'narrow' : 'short'
    else if ((c === 'e' || c === 'c') && n > 3) o.weekday = WEEKDAY[n - 3]
    else if (c === 'a') o.hour12 = true
    else if (c === 'm') o.minute = two
    else if (c === 's') o.second = two
    else if (c === 'z') o.timeZoneName = n < 4 ? 'short' : 'long'
    else if (HOUR_CYCLE[c]) {
      o.hourCycle = HOUR_CYCLE[c]
      o.hour = two
    } else unsupported(`the date skeleton field ${field}`)
  }
  return o
}
