import { type FileFormat, FileParseError, lineBreakOf, type SourceUnit, type WriteTarget } from './format'

/** One keyword of an entry (`msgid`, `msgstr[1]`...) with its decoded value and its raw span. */
interface Field {
  keyword: string
  value: string
  /** From the keyword to the end of its last continuation line (line break excluded). */
  start: number
  end: number
  line: number
}

interface Entry {
  fields: Field[]
  comments: string[]
  obsolete: boolean
}

const C_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '"': '"',
  '\\': '\\',
  "'": "'",
  '?': '?',
}

function unquote(raw: string, line: number): string {
  const m = /^"((?:[^"\\]|\\.)*)"\s*$/.exec(raw)
  if (!m)
    throw new FileParseError(line, `expected a quoted string, found ${JSON.stringify(raw.slice(0, 40))}`)
  return m[1]!.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (whole, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16))
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8))
    const c = C_ESCAPES[e]
    if (c === undefined) throw new FileParseError(line, `unknown escape ${whole}`)
    return c
  })
}

function quote(text: string): string {
  return `"${text.replace(/[\\"\n\t\r]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c]!)}"`
}

/** `keyword "..."`, split after each `\n` the way msgmerge writes multi-line texts. */
function formatField(keyword: string, text: string, br: string): string {
  const parts = text.split(/(?<=\n)/)
  if (parts.length <= 1 || (parts.length === 2 && parts[1] === '')) return `${keyword} ${quote(text)}`
  return [`${keyword} ""`, ...parts.filter((p) => p !== '').map(quote)].join(br)
}

function scanPo(text: string): Entry[] {
  const entries: Entry[] = []
  let current: Entry = { fields: [], comments: [], obsolete: false }
  let field: Field | null = null
  const flush = () => {
    if (current.fields.length > 0) entries.push(current)
    current = { fields: [], comments: [], obsolete: false }
    field = null
  }
  const lineRe = /([^\r\n]*)(\r\n|\r|\n|$)/y
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 0
  while (at < text.length) {
    lineRe.lastIndex = at
    const m = lineRe.exec(text)!
    const start = at
    at = lineRe.lastIndex
    line++
    const raw = m[1]!
    const trimmed = raw.trim()
    if (trimmed === '') {
      flush()
    } else if (trimmed.startsWith('#~')) {
      // Obsolete entries are kept in the file but are not texts.
      if (current.fields.length > 0 && !current.obsolete) flush()
      current.obsolete = true
      current.comments.push(trimmed)
      field = null
    } else if (trimmed.startsWith('#')) {
      if (field !== null) flush()
      current.comments.push(trimmed)
    } else if (trimmed.startsWith('"')) {
      if (field === null) throw new FileParseError(line, 'a quoted string with no keyword before it')
      const f: Field = field
      f.value += unquote(trimmed, line)
      f.end = start + raw.length
    } else {
      const k = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$/.exec(trimmed)
      if (!k) throw new FileParseError(line, `unknown keyword in ${JSON.stringify(trimmed.slice(0, 40))}`)
      const keyword = k[1]!
      // A new msgctxt or msgid after a msgstr starts the next entry even without a blank line.
      if (
        (keyword === 'msgctxt' || keyword === 'msgid') &&
        current.fields.some((f) => f.keyword.startsWith('msgstr'))
      ) {
        flush()
      }
      const lead = raw.indexOf(keyword)
      field = { keyword, value: unquote(k[2]!, line), start: start + lead, end: start + raw.length, line }
      current.fields.push(field)
    }
    if (m[2] === '') break
  }
  flush()
  for (const entry of entries) {
    if (entry.obsolete) continue
    const id = entry.fields.find((f) => f.keyword === 'msgid')
    if (!id) throw new FileParseError(entry.fields[0]!.line, 'an entry without msgid')
  }
  return entries.filter((e) => !e.obsolete)
}

function fieldOf(entry: Entry, keyword: string): Field | undefined {
  return entry.fields.find((f) => f.keyword === keyword)
}

/** The units of an entry: its msgid, and its msgid_plural when it has one. */
function unitsOf(entry: Entry): SourceUnit[] {
  const id = fieldOf(entry, 'msgid')!
  if (id.value === '') return []
  const variant = fieldOf(entry, 'msgctxt')?.value ?? null
  const notes = entry.comments.filter((c) => c.startsWith('#.')).map((c) => c.slice(2).trim())
  const instruction = notes.length > 0 ? notes.join('\n') : null
  const units: SourceUnit[] = [{ key: id.value, text: id.value, variant, instruction }]
  const plural = fieldOf(entry, 'msgid_plural')
  if (plural) units.push({ key: plural.value, text: plural.value, variant, instruction })
  return units
}

/** The header entry with `Language` and the charset of the download. */
function rewriteHeader(value: string, target: WriteTarget): string {
  let header = value.replace(/^(Content-Type:[^\n]*charset=)[^\s;\n]+/im, `$1${target.charset}`)
  if (target.localeId !== null) {
    header = /^Language:/im.test(header)
      ? header.replace(/^Language:[^\n]*/im, `Language: ${target.localeId}`)
      : `${header}${header === '' || header.endsWith('\n') ? '' : '\n'}Language: ${target.localeId}\n`
  }
  return header
}

/**
 * gettext `.po`/`.pot`: each msgid is a text (msgctxt is its variant, `#.` comments its instruction);
 * a plural entry gives two texts, msgid and msgid_plural. Downloads fill msgstr: `msgstr[0]` with
 * the singular's translation and every other `msgstr[n]` with the plural's.
 */
export const gettextFormat: FileFormat = {
  fileType: 'gettext',
  mediaType: 'text/x-gettext-translation',
  placeholders: { format: 'c' },
  honoursIncludeOriginalStrings: true,
  parse(content: string): SourceUnit[] {
    return scanPo(content).flatMap(unitsOf)
  },
  parseTranslations(content: string): SourceUnit[] {
    return scanPo(content).flatMap((entry) => {
      const units = unitsOf(entry)
      const single = fieldOf(entry, 'msgstr') ?? fieldOf(entry, 'msgstr[0]')
      const plural = fieldOf(entry, 'msgstr[1]')
      const texts = [single?.value ?? '', plural?.value ?? '']
      return units.map((u, i) => ({ ...u, text: texts[i]! })).filter((u) => u.text !== '')
    })
  },
  write(content, render, target) {
    const br = lineBreakOf(content)
    const edits: { start: number; end: number; text: string }[] = []
    let index = 0
    for (const entry of scanPo(content)) {
      const id = fieldOf(entry, 'msgid')!
      if (id.value === '') {
        const str = fieldOf(entry, 'msgstr')
        if (str) {
          const header = rewriteHeader(str.value, target)
          if (header !== str.value)
            edits.push({ start: str.start, end: str.end, text: formatField('msgstr', header, br) })
        }
        continue
      }
      // The source file itself: msgstr stays as uploaded (only the header's charset follows the bytes).
      if (target.localeId === null) continue
      const units = unitsOf(entry)
      const texts = units.map((u) => render(u, index++))
      for (const f of entry.fields) {
        const plural = /^msgstr\[(\d+)\]$/.exec(f.keyword)
        let text: string | undefined
        if (f.keyword === 'msgstr') text = texts[0]
        else if (plural) text = plural[1] === '0' ? texts[0] : (texts[1] ?? texts[0])
        if (text === undefined || text === f.value) continue
        edits.push({ start: f.start, end: f.end, text: formatField(f.keyword, text, br) })
      }
    }
    let out = ''
    let last = 0
    for (const e of edits) {
      out += content.slice(last, e.start) + e.text
      last = e.end
    }
    return out + content.slice(last)
  },
}
