import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js'
import { readJson } from './json-lines'
import { resolveLocale } from './locale'
import type { ImportedEntry, ImportRefusal, ReadResult } from './types'

/**
 * FormatJS (react-intl) catalogs: the file `formatjs extract` writes (id -> { defaultMessage,
 * description }) and the per-locale translation files, whose values are ICU strings, objects with a
 * `defaultMessage`, or the ASTs `formatjs compile --ast` writes (printed back to ICU text here).
 */

function descriptionOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  return value === undefined ? undefined : JSON.stringify(value)
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

const notAnObject = (file: string, what: string): ImportRefusal[] => [
  { file, line: 1, reason: `a FormatJS ${what} is an object of message ids` },
]

/** Reads the extracted messages file: each entry's source is its defaultMessage. */
export function readFormatjsExtracted(text: string, file: string, sourceLocale: string): ReadResult {
  const json = readJson(text, file)
  const catalog = { locale: sourceLocale, file, entries: [] as ImportedEntry[] }
  const root = objectOf(json.value)
  if (!root) return { catalog, refusals: notAnObject(file, 'extracted messages file') }
  const refusals: ImportRefusal[] = []
  for (const [id, value] of Object.entries(root)) {
    const line = json.lineOf([id])
    const v = value as Record<string, unknown> | null
    if (typeof v !== 'object' || v === null || typeof v.defaultMessage !== 'string') {
      refusals.push({
        file,
        line,
        key: id,
        reason: 'an extracted message is an object with a string defaultMessage',
      })
      continue
    }
    const entry: ImportedEntry = { key: id, source: v.defaultMessage, translation: v.defaultMessage, line }
    const comment = descriptionOf(v.description)
    if (comment !== undefined) entry.comment = comment
    catalog.entries.push(entry)
  }
  return { catalog, refusals }
}

/** Reads one locale's translations: strings, `{ defaultMessage }` objects or compiled ASTs. */
export function readFormatjsTranslations(text: string, file: string, locale?: string): ReadResult {
  const json = readJson(text, file)
  const catalog = { locale: resolveLocale(file, locale, undefined), file, entries: [] as ImportedEntry[] }
  const root = objectOf(json.value)
  if (!root) return { catalog, refusals: notAnObject(file, 'translation file') }
  const refusals: ImportRefusal[] = []
  for (const [id, value] of Object.entries(root)) {
    const line = json.lineOf([id])
    const read = translationOf(value)
    if (typeof read === 'string') catalog.entries.push({ key: id, translation: read, line })
    else refusals.push({ file, line, key: id, reason: read.reason })
  }
  return { catalog, refusals }
}

function translationOf(value: unknown): string | { reason: string } {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    // A compiled AST: every element an object with a numeric type, as the parser writes them.
    const wellFormed = value.every(
      (el) => typeof el === 'object' && el !== null && typeof (el as { type?: unknown }).type === 'number',
    )
    if (wellFormed) {
      try {
        return printAST(value as MessageFormatElement[])
      } catch (error) {
        return { reason: `its compiled AST cannot be printed as ICU: ${(error as Error).message}` }
      }
    }
    return { reason: 'its value is an array that is not a compiled ICU AST (elements with a numeric type)' }
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { defaultMessage?: unknown }).defaultMessage === 'string'
  )
    return (value as { defaultMessage: string }).defaultMessage
  return { reason: 'a translation is a string, an object with a string defaultMessage, or a compiled AST' }
}
