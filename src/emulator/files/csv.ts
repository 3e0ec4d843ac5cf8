import { APP_PLACEHOLDER_SOURCE } from '../../core/model/placeholders'
import { type FileFormat, FileParseError, type SourceUnit } from './format'

interface Cell {
  value: string
  start: number
  end: number
  quoted: boolean
}

interface Row {
  cells: Cell[]
  line: number
}

/** RFC 4180: `,` separated, `"` quoted with `""` inside, records end at CRLF or LF outside quotes. */
function scanCsv(text: string): Row[] {
  const rows: Row[] = []
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  while (at < text.length) {
    const row: Row = { cells: [], line }
    for (;;) {
      const start = at
      let value = ''
      let quoted = false
      if (text[at] === '"') {
        quoted = true
        at++
        for (;;) {
          if (at >= text.length) throw new FileParseError(row.line, 'unterminated quoted field')
          if (text[at] === '"') {
            if (text[at + 1] === '"') {
              value += '"'
              at += 2
              continue
            }
            at++
            break
          }
          if (text[at] === '\n') line++
          value += text[at++]
        }
        if (at < text.length && !',\r\n'.includes(text[at]!)) {
          throw new FileParseError(line, 'characters after a closing quote')
        }
      } else {
        while (at < text.length && !',\r\n'.includes(text[at]!)) value += text[at++]
      }
      row.cells.push({ value, start, end: at, quoted })
      if (text[at] === ',') {
        at++
        continue
      }
      if (text[at] === '\r') at++
      if (text[at] === '\n') at++
      line++
      break
    }
    // A blank line is no record.
    if (!(row.cells.length === 1 && row.cells[0]!.value === '' && !row.cells[0]!.quoted)) rows.push(row)
  }
  return rows
}

function quoteCell(value: string, wasQuoted: boolean): string {
  if (!wasQuoted && !/[",\r\n]|^\s|\s$/.test(value)) return value
  return `"${value.replace(/"/g, '""')}"`
}

interface Layout {
  source: number
  variant: number
  instruction: number
}

/** Column 1 is the key and column 2 the source text; columns headed variant/context and instruction/comment are read too. */
function layoutOf(header: Row): Layout {
  const names = header.cells.map((c) => c.value.trim().toLowerCase())
  if (names.length < 2)
    throw new FileParseError(header.line, 'the header needs a key column and a source text column')
  const find = (...wanted: string[]) => names.findIndex((n, i) => i > 1 && wanted.includes(n))
  return {
    source: 1,
    variant: find('variant', 'context'),
    instruction: find('instruction', 'comment', 'description'),
  }
}

function* unitsOf(text: string): Generator<{ unit: SourceUnit; cell: Cell }> {
  const [header, ...rows] = scanCsv(text)
  if (!header) return
  const layout = layoutOf(header)
  for (const row of rows) {
    const cell = row.cells[layout.source]
    const key = row.cells[0]!.value
    if (!cell) throw new FileParseError(row.line, `row ${JSON.stringify(key)} has no source text column`)
    if (cell.value === '') continue
    const optional = (i: number) => (i >= 0 && row.cells[i]?.value ? row.cells[i]!.value : null)
    yield {
      unit: {
        key,
        text: cell.value,
        variant: optional(layout.variant),
        instruction: optional(layout.instruction),
      },
      cell,
    }
  }
}

/**
 * CSV with a header row: the first column is the key, the second the source text (a `variant` or
 * `context` column and an `instruction` or `comment` column are read when present). Downloads put
 * the translation in the source text column.
 */
export const csvFormat: FileFormat = {
  fileType: 'csv',
  mediaType: 'text/csv',
  placeholders: { custom: APP_PLACEHOLDER_SOURCE },
  honoursIncludeOriginalStrings: false,
  parse(content: string): SourceUnit[] {
    return [...unitsOf(content)].map((u) => u.unit)
  },
  write(content, render) {
    let out = ''
    let last = 0
    let index = 0
    for (const { unit, cell } of unitsOf(content)) {
      const text = render(unit, index++)
      if (text === unit.text) continue
      out += content.slice(last, cell.start) + quoteCell(text, cell.quoted)
      last = cell.end
    }
    return out + content.slice(last)
  },
}
