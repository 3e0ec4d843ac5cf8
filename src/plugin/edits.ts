import MagicString from 'magic-string'

/**
 * The edits of one module's rewrite, recorded with magic-string's method names and meaning. A build
 * that wants no source map (a vite build without `build.sourcemap`) gets the text spliced directly:
 * making a MagicString costs more than the rewrite of a small module. Whenever the edits could
 * interact (one touching another's position, an edit at either end of the text), they are replayed
 * on a MagicString instead, so the text is always the one magic-string gives.
 */

interface Edit {
  kind: 'overwrite' | 'remove' | 'prependLeft' | 'appendRight' | 'appendLeft' | 'prepend'
  start: number
  end: number
  text: string
}

export class Edits {
  private readonly list: Edit[] = []

  overwrite(start: number, end: number, text: string): void {
    this.list.push({ kind: 'overwrite', start, end, text })
  }

  remove(start: number, end: number): void {
    this.list.push({ kind: 'remove', start, end, text: '' })
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
