import { type FileFormat, FileParseError, type SourceUnit } from './format'

interface Entry {
  key: string
  value: string
  /** Span of the value's raw text, continuation lines included. */
  valueStart: number
  valueEnd: number
}

const ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' }

/** java.util.Properties escapes: `\t \n \r \f`, `\uXXXX`, and `\x` for any other x. */
function decodeEscapes(raw: string, line: number): string {
  let out = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (c !== '\\') {
      out += c
      continue
    }
    const next = raw[++i]
    if (next === undefined) break
    if (next === 'u') {
      const hex = raw.slice(i + 1, i + 5)
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new FileParseError(line, `malformed \\u escape \\u${hex}`)
      out += String.fromCharCode(Number.parseInt(hex, 16))
      i += 4
    } else {
      out += ESCAPES[next] ?? next
    }
  }
  return out
}

/** Only what must be escaped in a value; other characters (non-ASCII too: downloads are Unicode) stay. */
function escapeValue(value: string): string {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!
    if (c === '\\') out += '\\\\'
    else if (c === '\n') out += '\\n'
    else if (c === '\r') out += '\\r'
    else if (c === '\t') out += '\\t'
    else if (c === '\f') out += '\\f'
    else if (c === ' ' && i === 0) out += '\\ '
    else out += c
  }
  return out
}

/** Whether the line break at `end` is escaped (an odd run of backslashes before it). */
function continues(text: string, end: number): boolean {
  let n = 0
  for (let i = end - 1; i >= 0 && text[i] === '\\'; i--) n++
  return n % 2 === 1
}

function scanProperties(text: string): Entry[] {
  const entries: Entry[] = []
  const lineRe = /([^\r\n]*)(\r\n|\r|\n|$)/y
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 0
  while (at < text.length) {
    lineRe.lastIndex = at
    let m = lineRe.exec(text)!
    line++
    const startLine = line
    let lineStart = at
    at = lineRe.lastIndex
    const first = m[1]!
    const lead = /^[ \t\f]*/.exec(first)![0].length
    if (lead === first.length || first[lead] === '#' || first[lead] === '!') {
      if (m[2] === '') break
      continue
    }
    // The logical line: natural lines joined while one ends in an escaped break.
    const pieces: { raw: string; start: number; end: number }[] = [
      { raw: first.slice(lead), start: lineStart + lead, end: lineStart + first.length },
    ]
    while (continues(text, pieces[pieces.length - 1]!.end) && m[2] !== '') {
      lineRe.lastIndex = at
      m = lineRe.exec(text)!
      line++
      lineStart = at
      at = lineRe.lastIndex
      const trimmed = /^[ \t\f]*/.exec(m[1]!)![0].length
      pieces.push({ raw: m[1]!.slice(trimmed), start: lineStart + trimmed, end: lineStart + m[1]!.length })
    }
    const logical = pieces.map((p, i) => (i < pieces.length - 1 ? p.raw.slice(0, -1) : p.raw)).join('')
    // Key ends at the first unescaped '=', ':' or blank.
    let k = 0
    while (k < logical.length && !'=: \t\f'.includes(logical[k]!)) k += logical[k] === '\\' ? 2 : 1
    const key = decodeEscapes(logical.slice(0, k), startLine)
    let v = k
    while (v < logical.length && ' \t\f'.includes(logical[v]!)) v++
    if (v < logical.length && (logical[v] === '=' || logical[v] === ':')) v++
    while (v < logical.length && ' \t\f'.includes(logical[v]!)) v++
    // Map the value's logical offset back to the file (the first piece holds the key).
    let offset = v
    let valueStart = pieces[pieces.length - 1]!.end
    for (let p = 0; p < pieces.length; p++) {
      const length = p < pieces.length - 1 ? pieces[p]!.raw.length - 1 : pieces[p]!.raw.length
      if (offset <= length && (offset < length || p === pieces.length - 1)) {
        valueStart = pieces[p]!.start + offset
        break
      }
      offset -= length
    }
    entries.push({
      key,
      value: decodeEscapes(logical.slice(v), startLine),
      valueStart,
      valueEnd: pieces[pieces.length - 1]!.end,
    })
    if (m[2] === '') break
  }
  return entries
}

/** `.properties`: every property is a text keyed by its name; comments and layout are kept. */
export const propertiesFormat: FileFormat = {
  fileType: 'javaProperties',
  mediaType: 'text/x-java-properties',
  placeholders: { format: 'java' },
  honoursIncludeOriginalStrings: true,
  parse(content: string): SourceUnit[] {
    return scanProperties(content)
      .filter((e) => e.value !== '')
      .map((e) => ({ key: e.key, text: e.value, variant: null, instruction: null }))
  },
  write(content, render) {
    let out = ''
    let last = 0
    let index = 0
    for (const entry of scanProperties(content)) {
      if (entry.value === '') continue
      const text = render({ key: entry.key, text: entry.value, variant: null, instruction: null }, index++)
      if (text === entry.value) continue
      out += content.slice(last, entry.valueStart) + escapeValue(text)
      last = entry.valueEnd
    }
    return out + content.slice(last)
  },
}
