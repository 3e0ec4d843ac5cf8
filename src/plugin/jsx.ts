import type { CallSite, JsxPiece } from '../core/extract/types'
import { jsString } from '../core/js-string'
import type { Edits } from './edits'
import type { Lookup } from './lookup'

/**
 * The rewrite of a `<T>` element (found by src/core/extract/jsx.ts) into a lookup that `<T>` calls
 * when it renders, so it re-renders on a switch by itself:
 *
 *   <T>Hello <b>{name}</b>, see <a href="/docs">the docs</a></T>
 *   ->
 *   <T _={() => __tms_l("<id>", <compiled>, { "b": (c) => <b key="b">{c}</b>, "name": (name),
 *     "a": (c) => <a key="a" href="/docs">{c}</a> })} />
 *
 * Only what lies between the kept ranges is written: `<T`'s props, each element's opening element
 * (its props, a key added unless it has one) and each `{expression}` stay where they are, with their
 * own mappings and any lookup inside them. Each element becomes its tag's function and gets a key
 * named after the tag, so the pieces of a translation render as a keyed list.
 */

function opening(piece: JsxPiece): string {
  return piece.kind === 'value' ? `${jsString(piece.name)}: (` : `${jsString(piece.name)}: (c) => `
}

function closing(piece: JsxPiece): string {
  if (piece.kind === 'value') return ')'
  return piece.close === null ? '' : `{c}</${piece.close}>`
}

export function rewriteJsx(s: Edits, site: CallSite, lookup: Lookup): void {
  const { open, pieces } = site.jsx!
  // `<T ...>`: its `>` becomes the prop that renders the lookup.
  const start = open.end - 1
  const prop = ` _={() => ${lookup.head}`
  // The element's own line breaks go inside its lookup, before `} />`: after it they would be JSX
  // text, and a line break there drops the space before the text that follows.
  if (pieces.length === 0) {
    s.overwrite(start, site.end, `${prop}${lookup.bare}`, '} />')
    return
  }
  s.overwrite(start, pieces[0]!.start, `${prop}${lookup.values}{ ${opening(pieces[0]!)}`)
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!
    if (piece.kind === 'tag' && piece.key !== null) s.appendLeft(piece.key, ` key=${jsString(piece.name)}`)
    const next = pieces[i + 1]
    const text = `${closing(piece)}${next ? `, ${opening(next)}` : ` }${lookup.tail}`}`
    const tail = next ? '' : '} />'
    const end = next ? next.start : site.end
    // Two elements side by side (`<b><i>`): nothing between them to overwrite.
    if (end === piece.end) s.appendLeft(end, text + tail)
    else s.overwrite(piece.end, end, text, tail)
  }
}
