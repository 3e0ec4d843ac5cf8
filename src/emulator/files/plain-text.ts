import type { FileFormat, SourceUnit } from './format'

interface Line {
  /** 1-based line number: the unit's key. */
  number: number
  text: string
  start: number
  end: number
}

/** The non-blank lines, each without its leading and trailing blanks (kept in the file). */
function scanLines(text: string): Line[] {
  const lines: Line[] = []
  const re = /([^\r\n]*)(\r\n|\r|\n|$)/y
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (let number = 1; at < text.length; number++) {
    re.lastIndex = at
    const m = re.exec(text)!
    const raw = m[1]!
    const lead = raw.length - raw.trimStart().length
    const body = raw.trim()
    if (body !== '') lines.push({ number, text: body, start: at + lead, end: at + lead + body.length })
    at = re.lastIndex
    if (m[2] === '') break
  }
  return lines
}

function unitOf(line: Line): SourceUnit {
  return { key: String(line.number), text: line.text, variant: null, instruction: null }
}

/** Plain text: each non-blank line is a text, keyed by its line number. */
export const plainTextFormat: FileFormat = {
  fileType: 'plain_text',
  mediaType: 'text/plain',
  placeholders: { format: 'none' },
  honoursIncludeOriginalStrings: false,
  parse(content: string): SourceUnit[] {
    return scanLines(content).map(unitOf)
  },
  write(content, render) {
    let out = ''
    let last = 0
    scanLines(content).forEach((line, i) => {
      // A translation cannot add lines: that would shift every later key.
      const text = render(unitOf(line), i).replace(/\r\n|\r|\n/g, ' ')
      out += content.slice(last, line.start) + text
      last = line.end
    })
    return out + content.slice(last)
  },
}
