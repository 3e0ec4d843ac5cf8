/**
 * The project's one pseudo-localizer: the emulator's "pseudo" auto-translator and the plugin's
 * `pseudo` option both call {@link pseudoLocalize}, so a pseudo build and a pseudo-translated project
 * look the same.
 *
 * Only message text changes. Placeholders (`{name}`, `{0}`, printf `%s %1$s %.2f`, `%(name)s`,
 * `%{name}`, `%@`, Qt `%1`), HTML tags with their attributes, HTML entities and ICU syntax
 * (argument names, types, styles, plural/select keywords and selectors, `#` in plurals) pass
 * through untouched; the text inside ICU plural/select branches is transformed like any other text.
 */

export type PseudoLocale = 'en-XA' | 'ar-XB'

export const PSEUDO_LOCALES: readonly PseudoLocale[] = ['en-XA', 'ar-XB']

interface Segment {
  /** `text` is transformed; `keep` passes through as written. */
  kind: 'text' | 'keep'
  value: string
}

const TAG = /<\/?(?:[A-Za-z][^<>]*|\d[\w-]*)>|<!--[\s\S]*?-->/y
const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/y
// The printf family first, so `%1$s` is not read as Qt's `%1` followed by text.
const PERCENT =
  /%%|%\([^()]+\)[-+ 0#]*\d*(?:\.\d+)?[A-Za-z]|%\{[A-Za-z_]\w*\}|%(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@]|%L?[1-9]\d?/y
const ARG_NAME = /\s*([A-Za-z0-9_$]+)\s*/y
const ARG_TYPE = /\s*([A-Za-z]+)\s*/y
const WHITESPACE = /\s*/y
const SELECTOR = /(?:offset:\s*\d+\s*)?(=?[A-Za-z0-9_-]+)\s*/y
const BRANCHING_TYPES = new Set(['plural', 'select', 'selectordinal'])

function matchAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at
  return re.exec(text)
}

/** Where the ICU quoting that starts with the apostrophe at `at` ends (just past it). */
function quotedEnd(text: string, at: number, plural: boolean): number {
  const next = text[at + 1]
  if (next === "'") return at + 2
  if (next === undefined || !('{}<>'.includes(next) || (next === '#' && plural))) return at + 1
  for (let j = at + 1; j < text.length; j++) {
    if (text[j] !== "'") continue
    if (text[j + 1] !== "'") return j + 1
    j++
  }
  return text.length
}

/** The index just past the brace that closes the one at `open`, or -1 when it is never closed. */
function matchingBrace(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return i + 1
  }
  return -1
}

/**
 * Splits a message into text and protected segments, descending into ICU branches. Stops at an
 * unmatched `}` when `nested` (the end of a branch) and returns where it stopped.
 */
function segmentMessage(text: string, at: number, nested: boolean, plural: boolean, out: Segment[]): number {
  let i = at
  let run = ''
  const flush = (): void => {
    if (run) out.push({ kind: 'text', value: run })
    run = ''
  }
  const keep = (value: string): void => {
    flush()
    out.push({ kind: 'keep', value })
  }
  while (i < text.length) {
    const ch = text[i]
    if (ch === "'") {
      // ICU quoting: `''` is an apostrophe; `'{...'` (also before `}`, `<`, `>`, and `#` in a plural) is
      // literal text up to the next lone apostrophe. Both are text, so their letters are accented and
      // the braces inside never read as an argument.
      const end = quotedEnd(text, i, plural)
      run += text.slice(i, end)
      i = end
      continue
    }
    if (ch === '}' && nested) break
    const m =
      (ch === '<' && matchAt(TAG, text, i)) ||
      (ch === '&' && matchAt(ENTITY, text, i)) ||
      (ch === '%' && matchAt(PERCENT, text, i)) ||
      null
    if (m) {
      keep(m[0])
      i += m[0].length
    } else if (ch === '#' && plural) {
      keep('#')
      i++
    } else if (ch === '{') {
      const branch: Segment[] = []
      const end = segmentArgument(text, i, branch)
      if (end === -1) {
        run += ch
        i++
      } else {
        flush()
        out.push(...branch)
        i = end
      }
    } else {
      run += ch
      i++
    }
  }
  flush()
  return i
}

/**
 * Reads the ICU argument (or plain placeholder) opening at `open` into `out`. Returns the index past
 * it, or -1 when the brace does not open anything well formed (it is then ordinary text).
 */
function segmentArgument(text: string, open: number, out: Segment[]): number {
  const close = matchingBrace(text, open)
  if (close === -1) return -1
  const name = matchAt(ARG_NAME, text, open + 1)
  if (!name) return keepWhole(text, open, close, out)
  let i = open + 1 + name[0].length
  if (text[i] === '}') return keepWhole(text, open, close, out)
  if (text[i] !== ',') return keepWhole(text, open, close, out)
  const type = matchAt(ARG_TYPE, text, i + 1)
  if (!type || !BRANCHING_TYPES.has(type[1]!) || text[i + 1 + type[0].length] !== ',') {
    // number, date, time, a Java or .NET format style, python's {name!r}: all kept as written.
    return keepWhole(text, open, close, out)
  }
  i += 1 + type[0].length + 1
  const plural = type[1] !== 'select'
  const branches: Segment[] = [{ kind: 'keep', value: text.slice(open, i) }]
  for (;;) {
    const space = matchAt(WHITESPACE, text, i)![0]
    if (space) branches.push({ kind: 'keep', value: space })
    i += space.length
    if (text[i] === '}') {
      branches.push({ kind: 'keep', value: '}' })
      out.push(...branches)
      return i + 1
    }
    const selector = matchAt(SELECTOR, text, i)
    if (!selector || text[i + selector[0].length] !== '{') return keepWhole(text, open, close, out)
    branches.push({ kind: 'keep', value: selector[0] + '{' })
    i += selector[0].length + 1
    i = segmentMessage(text, i, true, plural, branches)
    if (text[i] !== '}') return keepWhole(text, open, close, out)
    branches.push({ kind: 'keep', value: '}' })
    i++
  }
}

function keepWhole(text: string, open: number, close: number, out: Segment[]): number {
  out.push({ kind: 'keep', value: text.slice(open, close) })
  return close
}

/** The protected and translatable parts of a message, in order. */
export function segmentPseudoMessage(text: string): { kind: 'text' | 'keep'; value: string }[] {
  const out: Segment[] = []
  let i = segmentMessage(text, 0, false, false, out)
  // A stray `}` at the top level is only text; carry on after it.
  while (i < text.length) {
    out.push({ kind: 'text', value: text[i]! })
    i = segmentMessage(text, i + 1, false, false, out)
  }
  return out
}

const ACCENTED: Record<string, string> = {
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
}

// Plain filler words, as Android's en-XA does: a tester sees at once which part is padding.
const FILLER = 'one two three four five six seven eight nine ten'

/** Share of the text's length added by en-XA (brackets included), so layouts are tested for growth. */
export const PSEUDO_EXPANSION = 0.35

/** Whole filler words until `length` is reached (the last word may run past it). */
function filler(length: number): string {
  const words = FILLER.split(' ')
  let out = ''
  for (let i = 0; out.length < length; i++) out += (out ? ' ' : '') + words[i % words.length]
  return out
}

function accentText(value: string): string {
  let out = ''
  for (const ch of value) out += ACCENTED[ch] ?? ch
  return out
}

const RLO = '\u202E'
const PDF = '\u202C'
const RLM = '\u200F'

/**
 * Pseudo-translates a message.
 *
 * - `en-XA`: ASCII letters accented (`Hello` -> `Ĥéļļö`), the whole message in `[...]`, and filler
 *   words before the closing bracket so it grows by at least 35% of its text length (whole words).
 * - `ar-XB`: each word of text wrapped in RIGHT-TO-LEFT OVERRIDE ... POP DIRECTIONAL FORMATTING (it
 *   displays mirrored, right to left) and the message between RIGHT-TO-LEFT MARKs.
 *
 * @example pseudoLocalize('Hello {name}!', 'en-XA') // '[Ĥéļļö {name}!]'
 */
export function pseudoLocalize(text: string, locale: PseudoLocale): string {
  if (text === '') return ''
  const segments = segmentPseudoMessage(text)
  if (locale === 'ar-XB') {
    let out = ''
    for (const s of segments)
      out += s.kind === 'keep' ? s.value : s.value.replace(/\S+/g, (w) => RLO + w + PDF)
    return RLM + out + RLM
  }
  if (locale !== 'en-XA') throw new Error(`[unplugin-tms] unknown pseudo locale ${JSON.stringify(locale)}`)
  let out = ''
  let textLength = 0
  for (const s of segments) {
    if (s.kind === 'keep') {
      out += s.value
    } else {
      out += accentText(s.value)
      textLength += s.value.length
    }
  }
  // The brackets count towards the growth; the rest is a space and filler words.
  const padding = Math.ceil(textLength * PSEUDO_EXPANSION) - 2
  const pad = padding > 1 ? ' ' + filler(padding - 1) : ''
  return `[${out}${pad}]`
}
