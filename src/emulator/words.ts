import { segmentPseudoMessage } from '../core/model/pseudo'

const WORD = /[\p{L}\p{N}][^\s]*/gu

/**
 * Words of a parsed text: only its literal text, the way a translator's workload is counted. `{0}`
 * placeholders, tags and ICU syntax (`{count, plural, one {...}}`: the argument, its type, selectors,
 * `#`) are left out; the text inside plural and select branches counts.
 */
export function countWords(parsed: string): number {
  if (!parsed.includes('{') && !parsed.includes('<')) return parsed.match(WORD)?.length ?? 0
  let words = 0
  // Adjacent text segments are one run of text: a word split by a quoted brace is still one word.
  let run = ''
  for (const segment of segmentPseudoMessage(parsed)) {
    if (segment.kind === 'text') {
      run += segment.value
      continue
    }
    words += run.match(WORD)?.length ?? 0
    run = ' '
  }
  return words + (run.match(WORD)?.length ?? 0)
}
