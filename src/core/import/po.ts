import { ImportReadError } from './types'

/**
 * A gettext PO file read into entries that keep their line. pofile and pofile-ts are in
 * node_modules (through @lingui/cli) but neither tells on which line an entry stands, and every
 * refusal of an import names file:line; the format is small enough to read here.
 */

export interface PoEntry {
  /** Line of the entry's first line (its first comment, or msgctxt/msgid). */
  line: number
  msgctxt?: string
  msgid: string
  msgidPlural?: string
  /** `msgstr`, or `msgstr[0]`, `msgstr[1]`... for plural entries. */
  msgstr: string[]
  /** `#.` extracted comments. */
  extracted: string[]
  /** `#` translator comments. */
  translator: string[]
  /** `#,` flags (`fuzzy`). */
  flags: string[]
  /** `#:` references. */
  references: string[]
}

export interface PoFile {
  headers: Record<string, string>
  entries: PoEntry[]
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
}

function unquote(raw: string, file: string, line: number): string {
  const m = /^"((?:[^"\\]|\\.)*)"\s*$/.exec(raw.trim())
  if (!m)
    throw new ImportReadError(
      file,
      line,
      `expected a quoted string, found ${JSON.stringify(raw.trim().slice(0, 40))}`,
    )
  return m[1]!.replace(/\\(.)/g, (whole, e: string) => ESCAPES[e] ?? whole)
}

const blank = (line: number): PoEntry => ({
  line,
  msgid: '',
  msgstr: [],
  extracted: [],
  translator: [],
  flags: [],
  references: [],
})

// One pass, line by line: comments open an entry, keywords fill it, quoted lines continue the last
// keyword. Obsolete entries (`#~`) are dropped: Lingui keeps them only for history.
export function parsePo(text: string, file: string): PoFile {
  const entries: PoEntry[] = []
  let entry: PoEntry | undefined
  let hasKeyword = false
  let last: { set: (value: string) => void; value: string } | undefined
  const finish = (): void => {
    if (entry && hasKeyword) entries.push(entry)
    entry = undefined
    hasKeyword = false
    last = undefined
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const n = index + 1
    const line = raw.trim()
    if (line === '') {
      finish()
      continue
    }
    if (line.startsWith('#~')) continue
    if (line.startsWith('#')) {
      if (hasKeyword) finish()
      entry ??= blank(n)
      const body = line.slice(2).trim()
      if (line.startsWith('#.')) entry.extracted.push(body)
      else if (line.startsWith('#,'))
        entry.flags.push(
          ...body
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
        )
      else if (line.startsWith('#:')) entry.references.push(...body.split(/\s+/).filter(Boolean))
      else if (!line.startsWith('#|')) entry.translator.push(line.slice(1).trim())
      continue
    }
    if (line.startsWith('"')) {
      if (!last) throw new ImportReadError(file, n, 'a quoted string continues no msgid or msgstr')
      last.value += unquote(line, file, n)
      last.set(last.value)
      continue
    }
    const m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$/.exec(line)
    if (!m)
      throw new ImportReadError(
        file,
        n,
        `expected msgctxt, msgid, msgstr or a comment, found ${JSON.stringify(line.slice(0, 40))}`,
      )
    const [, keyword, plural, rest] = m
    if (hasKeyword && (keyword === 'msgctxt' || (keyword === 'msgid' && entry!.msgstr.length > 0))) finish()
    entry ??= blank(n)
    hasKeyword = true
    const target = entry
    const value = unquote(rest!, file, n)
    let set: (v: string) => void
    if (keyword === 'msgctxt')
      set = (v) => {
        target.msgctxt = v
      }
    else if (keyword === 'msgid')
      set = (v) => {
        target.msgid = v
      }
    else if (keyword === 'msgid_plural')
      set = (v) => {
        target.msgidPlural = v
      }
    else {
      const slot = plural === undefined ? 0 : Number(plural)
      set = (v) => {
        target.msgstr[slot] = v
      }
    }
    set(value)
    last = { set, value }
  }
  finish()
  const headers: Record<string, string> = {}
  const head = entries[0]
  if (head && head.msgid === '' && head.msgctxt === undefined) {
    entries.shift()
    for (const h of (head.msgstr[0] ?? '').split('\n')) {
      const colon = h.indexOf(':')
      if (colon > 0) headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim()
    }
  }
  return { headers, entries }
}
