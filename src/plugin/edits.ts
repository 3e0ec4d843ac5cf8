import MagicString from 'magic-string'

/**
 * The edits of one module's rewrite, recorded with magic-string's method names and meaning. A build
 * that wants no source map (a vite build without `build.sourcemap`) gets the text spliced directly:
 * making a MagicString costs more than the rewrite of a small module. Whenever the edits could
 * interact (one touching another's position, an edit at either end of the text), they are replayed
 * on a MagicString instead, so the text is always the one magic-string gives.
 *
 * An edit keeps the module's lines: a range that held line breaks is written with as many, after its
 * text (or before `tail`, code that must end it, such as a JSX element's `} />`), and a removed range
 * leaves its line breaks. So every line below a rewritten site keeps its number, and what reads line
 * numbers off the rewritten code (a JSX dev transform's `lineNumber`, a stack trace read without source
 * maps) names the source's. Within a multi-line site, its code moves up to the site's first line.
 */

interface Edit {
  kind: 'overwrite' | 'remove' | 'prependLeft' | 'appendRight' | 'appendLeft' | 'prepend'
  start: number
  end: number
  text: string
}

export class Edits {
  private readonly list: Edit[] = []
  private readonly code: string

  constructor(code: string) {
    this.code = code
  }

  overwrite(start: number, end: number, text: string, tail = ''): void {
    const written = text + tail
    const breaks = this.breaks(start, end) - lineBreaks(written, 0, written.length)
    const padded = breaks > 0 ? `${text}${'\n'.repeat(breaks)}${tail}` : written
    this.list.push({ kind: 'overwrite', start, end, text: padded })
  }

  remove(start: number, end: number): void {
    const breaks = this.breaks(start, end)
    if (breaks > 0) this.list.push({ kind: 'overwrite', start, end, text: '\n'.repeat(breaks) })
    else this.list.push({ kind: 'remove', start, end, text: '' })
  }

  prependLeft(at: number, text: string): void {
    this.list.push({ kind: 'prependLeft', start: at, end: at, text })
  }

  appendRight(at: number, text: string): void {
    this.list.push({ kind: 'appendRight', start: at, end: at, text })
  }

  appendLeft(at: number, text: string): void {
    this.list.push({ kind: 'appendLeft', start: at, end: at, text })
  }

  prepend(text: string): void {
    this.list.push({ kind: 'prepend', start: 0, end: 0, text })
  }

  private breaks(start: number, end: number): number {
    return lineBreaks(this.code, start, end)
  }

  /** The edits applied in order on a MagicString of `code`. */
  replay(code: string): MagicString {
    const s = new MagicString(code)
    for (const e of this.list) {
      if (e.kind === 'overwrite') s.overwrite(e.start, e.end, e.text)
      else if (e.kind === 'remove') s.remove(e.start, e.end)
      else if (e.kind === 'prepend') s.prepend(e.text)
      else s[e.kind](e.start, e.text)
    }
    return s
  }

  /** The edited text: spliced when the edits are apart from each other, else through magic-string. */
  apply(code: string): string {
    return this.splice(code) ?? this.replay(code).toString()
  }

  /**
   * The edited text when every edit stands apart: ranges that neither overlap nor touch, insertions
   * strictly inside the text and away from every range and from each other. Undefined otherwise.
   */
  private splice(code: string): string | undefined {
    let intro = ''
    const placed: Edit[] = []
    for (const e of this.list) {
      if (e.kind === 'prepend') intro = e.text + intro
      else placed.push(e)
    }
    placed.sort((a, b) => a.start - b.start)
    let out = intro
    let last = 0
    // Any edit ends before the next one starts: touching positions are left to magic-string.
    let fence = 0
    for (const e of placed) {
      const range = e.kind === 'overwrite' || e.kind === 'remove'
      if (e.start <= fence || e.end >= code.length || (range && e.end <= e.start)) return undefined
      out += code.slice(last, e.start) + e.text
      last = range ? e.end : e.start
      fence = e.end
    }
    return out + code.slice(last)
  }
}

function lineBreaks(text: string, start: number, end: number): number {
  let n = 0
  for (let at = text.indexOf('\n', start); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) n++
  return n
}
