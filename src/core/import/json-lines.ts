import { ImportReadError } from './types'

/**
 * JSON catalogs read with the line of every value, so that a refusal names file:line. JSON.parse
 * gives the values; one pass over the text gives each value's line by its key path (keys joined with
 * NUL, which no JSON catalog key holds).
 */

export interface JsonWithLines {
  value: unknown
  /** The 1-based line where the value at this key path starts (1 when unknown). */
  lineOf(path: readonly string[]): number
}

export const pathKey = (path: readonly string[]): string => path.join('\u0000')

/** Parses JSON text; a syntax error is an ImportReadError naming the line. */
export function readJson(text: string, file: string): JsonWithLines {
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    const message = (error as Error).message
    const at = /position (\d+)/.exec(message)
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : 1
    throw new ImportReadError(file, line, `it is not valid JSON: ${message}`)
  }
  const lines = valueLines(text)
  return { value, lineOf: (path) => lines.get(pathKey(path)) ?? 1 }
}

// A small scanner rather than a JSON parser with positions: the text already parsed, so it only
// tracks containers, the current key and newlines; strings are skipped with their escapes.
function valueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>()
  const stack: { path: string[]; array: boolean; key: string; index: number }[] = []
  let line = 1
  let expectKey = false
  const here = (): string[] => {
    const top = stack[stack.length - 1]
    if (!top) return []
    return [...top.path, top.array ? String(top.index) : top.key]
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\n') line++
    else if (c === '{' || c === '[') {
      const path = here()
      if (stack.length > 0) lines.set(pathKey(path), line)
      stack.push({ path, array: c === '[', key: '', index: 0 })
      expectKey = c === '{'
    } else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') {
      const top = stack[stack.length - 1]
      if (top?.array) top.index++
      else expectKey = true
    } else if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') j++
        j++
      }
      const s = JSON.parse(text.slice(i, j + 1)) as string
      const top = stack[stack.length - 1]
      if (expectKey && top && !top.array) {
        top.key = s
        expectKey = false
      } else if (top) lines.set(pathKey(here()), line)
      i = j
    } else if (!/[\s:]/.test(c)) {
      // A number, true, false or null: its line, then skip to its end.
      if (stack.length > 0) lines.set(pathKey(here()), line)
      while (i + 1 < text.length && /[^\s,}\]]/.test(text[i + 1]!)) i++
    }
  }
  return lines
}
