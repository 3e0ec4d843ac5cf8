import { type MessageFormatElement, TYPE } from './parse'

/**
 * How deep and how big a compiled message may be. The compiler, the literal writer and the runtime's
 * interpreter each recurse once per level of plural, select and tag; a bundler's parser reads the
 * literal the same way. A message past these bounds is refused at build (a translation: the source
 * text is used; a source message: an extraction error), so no stack of any of them is ever at risk.
 */

/**
 * Levels of plural, select, selectordinal and tag inside one another. A real message has three or
 * four (a gender select, a plural, a link, a bold word); sixteen leaves room and stays far from any
 * stack (a thousand levels exhausted the literal writer's).
 */
export const MAX_ICU_DEPTH = 16

/**
 * Characters of an ICU translation: ten times what the service takes for a source text (10,000). A
 * language with six plural categories, nested twice, multiplies a message's branches by nine; more
 * than this is not a translation.
 */
export const MAX_ICU_TRANSLATION_LENGTH = 100_000

/**
 * The deepest nesting of plural, select and tags in `elements` (1 for one plural), counted no further
 * than `MAX_ICU_DEPTH + 1`: a deeper message is not walked to its bottom.
 */
export function nestingOf(elements: readonly MessageFormatElement[]): number {
  const walk = (list: readonly MessageFormatElement[], depth: number): number => {
    if (depth > MAX_ICU_DEPTH) return depth
    let deepest = depth
    for (const el of list) {
      if (deepest > MAX_ICU_DEPTH) break
      if (el.type === TYPE.tag) deepest = Math.max(deepest, walk(el.children, depth + 1))
      else if (el.type === TYPE.select || el.type === TYPE.plural)
        for (const o of Object.values(el.options)) deepest = Math.max(deepest, walk(o.value, depth + 1))
    }
    return deepest
  }
  return walk(elements, 0)
}

/** Why a parsed message is too deep to compile, or undefined. */
export function depthProblem(elements: readonly MessageFormatElement[]): string | undefined {
  return nestingOf(elements) > MAX_ICU_DEPTH
    ? `plural, select and tags nested more than ${MAX_ICU_DEPTH} levels deep`
    : undefined
}

/** Why a translation is too long to check and compile, or undefined. */
export function lengthProblem(text: string): string | undefined {
  return text.length > MAX_ICU_TRANSLATION_LENGTH
    ? `it has ${text.length} characters; an ICU translation may have at most ${MAX_ICU_TRANSLATION_LENGTH}`
    : undefined
}
