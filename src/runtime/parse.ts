import type { Branch, CompiledMessage, Part } from './icu'

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
 * The compact form of a source text (the text itself when it is plain or not ICU at all); memoized
 * per text.
 */
export function compileText(text: string): CompiledMessage {
  let form = memo.get(text)
  if (form === undefined) {
    try {
      form = /[{}'<]/.test(text) ? new Reader(text).message() : text
    } catch {
      // Not ICU (another placeholder format's `{0:N2}`): read as a plain text, as a build does.
      form = text
    }
    memo.set(text, form)
  }
  return form
}

function fail(text: string, at: number, what: string): never {
  throw new SyntaxError(`[unplugin-tms] ${what} at character ${at + 1} of ${JSON.stringify(text)}`)
}

const WORD = /[^\s,{}#'<>]+/y
/** A tag's name and what follows it: `>` opens it, `/>` makes the whole a text (`<br/>`). */
const TAG = /([\w-]+)(\/?>)?/y
const SPACE = /\s*/y

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

  private word(what: string): string {
    this.space()
    WORD.lastIndex = this.i
    const m = WORD.exec(this.text)
    if (!m) fail(this.text, this.i, `expected ${what}`)
    this.i = WORD.lastIndex
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
        if (m[2] === '/>') {
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
      const at = /offset:\s*(\d+)/y
      at.lastIndex = this.i
      const m = at.exec(text)
      if (m && type !== 'select') {
        offset = Number(m[1])
        this.i = at.lastIndex
      }
      const branches: Record<string, Branch> = {}
      for (this.space(); text[this.i] !== '}'; this.space()) {
        if (this.i >= text.length) fail(text, this.i, 'an argument not closed with }')
        const selector = this.word('a selector')
        this.expect('{')
        branches[selector] = this.parts(true, type !== 'select')
        this.expect('}')
      }
      this.i++
      if (!branches.other) fail(text, this.i - 1, 'a plural or select without `other`')
      return type === 'select' ? [name, 3, branches] : [name, type === 'plural' ? 4 : 5, offset, branches]
    }
    let style = ''
    if (text[this.i] === ',') {
      const end = text.indexOf('}', this.i)
      if (end < 0) fail(text, this.i, 'an argument not closed with }')
      style = text.slice(this.i + 1, end).trim()
      this.i = end
    }
    this.expect('}')
    let options: Record<string, unknown> | undefined
    if (type === 'number') {
      options = style.startsWith('::') ? numberSkeleton(style.slice(2)) : NUMBER_STYLES[style]
      return options ? [name, 1, { ...options }] : [name, 1]
    }
    if (type !== 'date' && type !== 'time') fail(text, this.i, `the argument type ${type} is not supported`)
    options = style.startsWith('::')
      ? dateSkeleton(style.slice(2))
      : (type === 'date' ? DATE_STYLES : TIME_STYLES)[style || (type === 'time' ? 'medium' : '')]
    return options ? [name, 2, { ...options }] : [name, 2]
  }
}

/** Intl.NumberFormat options of a number skeleton's common stems. */
function numberSkeleton(skeleton: string): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  for (const token of skeleton.trim().split(/\s+/)) {
    const [stem, option] = token.split('/') as [string, string | undefined]
    if (stem === 'percent' || stem === '%') o.style = 'percent'
    else if (stem === '%x100') {
      o.style = 'percent'
      o.scale = 100
    } else if (stem === 'currency') {
      o.style = 'currency'
      o.currency = option
    } else if (stem === 'unit') {
      o.style = 'unit'
      o.unit = option
    } else if (stem === 'compact-short' || stem === 'K') {
      o.notation = 'compact'
      o.compactDisplay = 'short'
    } else if (stem === 'compact-long' || stem === 'KK') {
      o.notation = 'compact'
      o.compactDisplay = 'long'
    } else if (stem === 'group-off' || stem === ',_') o.useGrouping = false
    else if (stem === 'precision-integer' || stem === '.') o.maximumFractionDigits = 0
    else if (stem === 'scale') o.scale = Number.parseFloat(option!)
    else if (stem === 'sign-always' || stem === '+!') o.signDisplay = 'always'
    else if (/^\.0*#*\*?$/.test(stem)) {
      const zeros = /0*/.exec(stem.slice(1))![0].length
      const hashes = stem.length - 1 - zeros - (stem.endsWith('*') ? 1 : 0)
      o.minimumFractionDigits = zeros
      if (!stem.endsWith('*')) o.maximumFractionDigits = zeros + hashes
      if (zeros === 0 && hashes > 0) delete o.minimumFractionDigits
    } else
      throw new SyntaxError(
        `[unplugin-tms] the number skeleton stem ${stem} is not supported by t() untransformed`,
      )
  }
  return o
}

const DATE_FIELD = /G{1,5}|y+|[ML]{1,5}|d{1,2}|E{1,6}|a+|[hHKk]{1,2}|m{1,2}|s{1,2}|z{1,4}/g
const TEXT_WIDTH = ['numeric', '2-digit', 'short', 'long', 'narrow']
const HOUR_CYCLE: Record<string, string> = { h: 'h12', H: 'h23', K: 'h11', k: 'h24' }

/** Intl.DateTimeFormat options of a date skeleton's common fields. */
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
    else if (c === 'a') o.hour12 = true
    else if (c === 'm') o.minute = two
    else if (c === 's') o.second = two
    else if (c === 'z') o.timeZoneName = n < 4 ? 'short' : 'long'
    else {
      o.hourCycle = HOUR_CYCLE[c]
      o.hour = two
    }
  }
  return o
}
