import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { convertI18next } from '../import/convert-i18next'
import { readI18next } from '../import/i18next'
import { ImportReadError } from '../import/types'
import { MigrateInputError, type SourceTexts } from './types'

/**
 * i18next's source locale catalog, which gives each key its text: `--catalog <file or folder>`, or
 * the first of the usual places (`public/locales/en/*.json`, `locales/en.json`, ...). Read with the
 * import's reader and conversion, so `tms migrate` and `tms import` turn a key into the same message.
 */

const BASES = [
  'public/locales',
  'locales',
  'src/locales',
  'src/i18n/locales',
  'src/i18n',
  'static/locales',
  'assets/locales',
  'src/assets/locales',
  'public/lang',
  'lang',
]

/** The JSON files of the source catalog, each with its namespace (the file name in a locale folder). */
export function findCatalogFiles(
  cwd: string,
  given: string | undefined,
  locale: string,
): { file: string; namespace: string }[] {
  if (given !== undefined) {
    const path = join(cwd, given)
    if (!existsSync(path)) throw new MigrateInputError(`--catalog ${given}: no such file or folder`)
    if (statSync(path).isDirectory()) {
      const files = readdirSync(path).filter((f) => f.endsWith('.json'))
      if (files.length === 0)
        throw new MigrateInputError(`--catalog ${given}: the folder holds no .json file`)
      return files.map((f) => ({ file: join(path, f), namespace: basename(f, '.json') }))
    }
    return [
      {
        file: path,
        namespace: /[\\/]locales?[\\/][^\\/]+[\\/][^\\/]+$/.test(path)
          ? basename(path, '.json')
          : 'translation',
      },
    ]
  }
  // As i18next serves en-US from an `en` catalog when there is no `en-US` one.
  const names = locale.includes('-') ? [locale, locale.split('-')[0]!] : [locale]
  for (const name of names)
    for (const base of BASES) {
      const folder = join(cwd, base, name)
      if (existsSync(folder) && statSync(folder).isDirectory()) {
        const files = readdirSync(folder).filter((f) => f.endsWith('.json'))
        if (files.length > 0)
          return files.map((f) => ({ file: join(folder, f), namespace: basename(f, '.json') }))
      }
      const single = join(cwd, base, `${name}.json`)
      if (existsSync(single)) return [{ file: single, namespace: 'translation' }]
    }
  throw new MigrateInputError(
    `no ${locale} catalog of i18next found (looked in ${BASES.map((b) => `${b}/${locale}/`).join(', ')}); pass --catalog <file or folder> and --source-locale <locale>`,
  )
}

/** Each namespace's keys with their text in our form; what the conversion refused is simply absent. */
export function readSourceTexts(
  cwd: string,
  files: { file: string; namespace: string }[],
  locale: string,
): SourceTexts {
  return sourceTextsOf(
    files.map(({ file, namespace }) => ({
      file: relative(cwd, file),
      namespace,
      text: readFileSync(file, 'utf8'),
    })),
    locale,
  )
}

/** The same from the catalogs' texts: i18next's JSON v4, plural suffixes and contexts as ICU. */
export function sourceTextsOf(
  catalogs: { file: string; namespace: string; text: string }[],
  locale: string,
): SourceTexts {
  const out = new Map<string, Map<string, string>>()
  for (const { file, namespace, text } of catalogs) {
    let read: ReturnType<typeof readI18next>
    try {
      read = readI18next(text, file, { locale, namespace })
    } catch (error) {
      if (error instanceof ImportReadError) throw new MigrateInputError(error.message)
      throw error
    }
    const converted = convertI18next(read.catalog)
    const texts = out.get(namespace) ?? new Map<string, string>()
    for (const m of converted.messages) if (m.key !== undefined) texts.set(m.key, m.text)
    out.set(namespace, texts)
  }
  return out
}
