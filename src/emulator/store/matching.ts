/**
 * A case-insensitive SQL LIKE test, as the list endpoints' `jobName` and `name` filters do: `%` is
 * any run of characters, `_` any one character, and the pattern may match anywhere in the text
 * (the dashboard's "contains" search), so a plain word finds every name holding it.
 */
export function likeMatcher(pattern: string): (text: string | null) => boolean {
  let source = ''
  for (const ch of pattern) {
    if (ch === '%') source += '.*'
    else if (ch === '_') source += '.'
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  const regex = new RegExp(source, 'iu')
  return (text) => text !== null && regex.test(text)
}

/** Characters as a person counts them (code points): an emoji is one. */
export function characterCount(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}
