import { restorePlaceholders } from '../model/placeholders'
import { type MessageFormatElement, parseIcu, TYPE } from './parse'

const INDEXED = /\{(\d+)\}/g
const HAS_INDEXED = /\{\d+\}/
/** A placeholder the source's scan took from a branch body written as a bare number (`one {1}`). */
const BODY_SPELLING = /^\{\d+\}$/

/**
 * Puts the source's placeholders back into an ICU translation, as {@link restorePlaceholders} does,
 * except where a `{N}` is a plural or select branch whose body is a bare number (`one {1}`): that is
 * the translator's text "1", not the service's `{N}` form of a placeholder. Such a body is restored
 * only when the source's own placeholder N is such a body too (the source scan took it for one, so the
 * service sends it back as `{N}`).
 */
export function restoreIcuPlaceholders(text: string, placeholders: readonly string[]): string {
  if (placeholders.length === 0 || !HAS_INDEXED.test(text)) return restorePlaceholders(text, placeholders)
  const read = parseIcu(text, undefined, true)
  // A text that does not parse is refused by the ICU check; the plain restore keeps its reason's offsets.
  if (!read.ok) return restorePlaceholders(text, placeholders)
  const bodies = new Set<number>()
  collectNumberBodies(text, read.ast, bodies)
  return text.replace(INDEXED, (whole, index: string, offset: number) => {
    const value = placeholders[Number(index)]
    if (value === undefined) return whole
    return bodies.has(offset) && !BODY_SPELLING.test(value) ? whole : value
  })
}

/** The offsets of the `{` of every branch whose body is written `{digits}`, at any depth. */
function collectNumberBodies(
  text: string,
  elements: readonly MessageFormatElement[],
  into: Set<number>,
): void {
  for (const el of elements) {
    if (el.type === TYPE.tag) collectNumberBodies(text, el.children, into)
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      for (const option of Object.values(el.options)) {
        const at = option.location
        if (at && /^\{\d+\}$/.test(text.slice(at.start.offset, at.end.offset))) into.add(at.start.offset)
        collectNumberBodies(text, option.value, into)
      }
    }
  }
}
