/**
 * `retrievalType=contextMatchingInstrumented`: each text of the file wrapped in invisible characters
 * that name its hashcode, so a browser extension can tell which string it is looking at.
 *
 * Encoding of one text:
 *   U+2063 (INVISIBLE SEPARATOR)
 *   64 digits in base 4, two per hex digit of the 32-character hashcode, high digit first:
 *     0 = U+200B (ZERO WIDTH SPACE), 1 = U+200C (ZWNJ), 2 = U+200D (ZWJ), 3 = U+2060 (WORD JOINER)
 *   U+2062 (INVISIBLE TIMES)
 *   the text itself
 *   U+2064 (INVISIBLE PLUS)
 */

export const MARKER_START = '\u2063'
export const MARKER_TEXT = '\u2062'
export const MARKER_END = '\u2064'
const DIGITS = ['\u200b', '\u200c', '\u200d', '\u2060'] as const

export function instrumentText(hashcode: string, text: string): string {
  let id = ''
  for (const hex of hashcode) {
    const n = Number.parseInt(hex, 16)
    id += DIGITS[n >> 2]! + DIGITS[n & 3]!
  }
  return MARKER_START + id + MARKER_TEXT + text + MARKER_END
}

/** Every instrumented text in `content`, in order, with the hashcode it carries. */
export function readInstrumentedTexts(content: string): { hashcode: string; text: string }[] {
  const found: { hashcode: string; text: string }[] = []
  const re = /\u2063((?:\u200b|\u200c|\u200d|\u2060){64})\u2062([^\u2064]*)\u2064/g
  for (let m = re.exec(content); m; m = re.exec(content)) {
    const digits = [...m[1]!].map((c) => DIGITS.indexOf(c as (typeof DIGITS)[number]))
    let hashcode = ''
    for (let i = 0; i < digits.length; i += 2) hashcode += ((digits[i]! << 2) | digits[i + 1]!).toString(16)
    found.push({ hashcode, text: m[2]! })
  }
  return found
}
