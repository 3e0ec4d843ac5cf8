import { readJson } from './json-lines'
import { localeFromPath, resolveLocale } from './locale'
import type { ImportedEntry, ImportRefusal, ReadResult } from './types'

/**
 * i18next's JSON v4 resources, one file per locale and namespace (`locales/pl/common.json`, or
 * `lang/pl.json` for the default namespace). Nested objects become key paths joined with `.` (its
 * default keySeparator); plural suffixes and contexts stay in the keys for convert-i18next.ts.
 */

/** Reads one i18next resource file; `namespace` defaults to the file's name under a locale folder. */
export function readI18next(
  text: string,
  file: string,
  options: { locale?: string; namespace?: string } = {},
): ReadResult {
  // An empty file (a namespace created and never filled) gives i18next no keys, as `{}` does: its
  // http backend fails to parse it and loads nothing. Read it so, rather than stop the whole import.
  const json = /^[\uFEFF\s]*$/.test(text) ? { value: {}, lineOf: () => 1 } : readJson(text, file)
  const locale = resolveLocale(file, options.locale, undefined)
  const entries: ImportedEntry[] = []
  const refusals: ImportRefusal[] = []
  const catalog: ReadResult['catalog'] = { locale, file, entries }
  const inFolder = !options.locale && localeFromPath(file)?.inFolder
  const namespace =
    options.namespace ??
    (inFolder
      ? file
          .split(/[\\/]/)
          .pop()!
          .replace(/\.[^.]*$/, '')
      : undefined)
  if (namespace !== undefined) catalog.namespace = namespace
  const walk = (value: unknown, path: string[]): void => {
    const line = json.lineOf(path)
    const key = path.join('.')
    if (typeof value === 'string') entries.push({ key, translation: value, line })
    else if (Array.isArray(value))
      refusals.push({
        file,
        line,
        key,
        reason:
          'it is an array (read with returnObjects), which has no message form; make each item its own key',
      })
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
    } else refusals.push({ file, line, key, reason: `its value is ${JSON.stringify(value)}, not a text` })
  }
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    refusals.push({ file, line: 1, reason: 'an i18next resource file is an object of keys' })
  else walk(json.value, [])
  return { catalog, refusals }
}
