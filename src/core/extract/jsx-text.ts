/**
 * The text of a `<T>` message as React renders it and ICU reads it back: JSX whitespace rules,
 * character references, and ICU syntax characters quoted so that text stays text.
 */

/**
 * A text of a `<T>` message as ICU reads it back: each run of `{`, `}`, `<` (with the apostrophes
 * around them) quoted on its own, `'{'braces'}'`, which no placeholder pattern takes for a placeholder;
 * other apostrophes doubled where ICU would read one as the start of a quote (before `#`, and at the
 * end, where a placeholder or a tag may follow).
 */
export function quoteIcu(text: string): string {
  return text.replace(/['{}<]+/g, (run, at: number) => {
    if (/[{}<]/.test(run)) return `'${run.replace(/'/g, "''")}'`
    const next = text[at + run.length]
    return run.length > 1 || next === undefined || next === '#' ? run.replace(/'/g, "''") : run
  })
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  times: '×',
  euro: '€',
  shy: '\u00ad',
  zwj: '\u200d',
  zwnj: '\u200c',
}

/** JSX text's character references, as React's compilers read them; an unknown name stays as written. */
export function decodeEntities(raw: string): string {
  return raw.replace(
    /&(?:#(\d+)|#x([\da-f]+)|(\w+));/gi,
    (whole, dec?: string, hex?: string, name?: string) => {
      if (dec !== undefined || hex !== undefined) {
        const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16)
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name!] ?? whole
    },
  )
}

/**
 * JSX text as React renders it: each line trimmed of the spaces and tabs around its line breaks,
 * lines with nothing else dropped, the rest joined by one space.
 */
export function collapseJsxText(text: string): string {
  const lines = text.split(/\r\n|\n|\r/)
  if (lines.length === 1) return text
  let lastFilled = -1
  for (let i = 0; i < lines.length; i++) if (/[^ \t]/.test(lines[i]!)) lastFilled = i
  let out = ''
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/\t/g, ' ')
    if (i > 0) line = line.replace(/^ +/, '')
    if (i < lines.length - 1) line = line.replace(/ +$/, '')
    if (line === '') continue
    out += i === lastFilled ? line : `${line} `
  }
  return out
}
