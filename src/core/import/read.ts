import { convertFormatjs } from './convert-formatjs'
import { convertI18next } from './convert-i18next'
import { convertLingui } from './convert-lingui'
import { attachSources } from './finish'
import { readFormatjsExtracted, readFormatjsTranslations } from './formatjs'
import { readI18next } from './i18next'
import { readJson } from './json-lines'
import { readLinguiJson, readLinguiPo } from './lingui'
import { localeFromPath } from './locale'
import {
  type ConvertedCatalog,
  type ConvertedMessage,
  type ImportedCatalog,
  ImportReadError,
  type ImportRefusal,
  type ReadResult,
} from './types'

/**
 * From the files the user names to converted catalogs: each file read by its library's reader,
 * converted into our form, given its locale among the app's (`pl` is the app's `pl-PL` when only one
 * of its locales speaks Polish), and each target catalog given its source texts from the source
 * locale's catalogs (explicit ids, FormatJS ids, i18next keys). Files in the source locale give
 * sources only; nothing of them is imported.
 */

export const LIBRARIES = ['lingui', 'formatjs', 'i18next'] as const
export type Library = (typeof LIBRARIES)[number]

export interface CatalogFile {
  /** As the user named it (reports print it so). */
  file: string
  text: string
}

export interface ReadCatalogsOptions {
  /** `--locale`: the locale of every file, over headers and paths. */
  locale?: string
  sourceLocale: string
  /** The app's target locales. */
  locales: readonly string[]
}

/** A file's place in the import: the source of the app's texts, or one locale's translations. */
export interface FileRole {
  file: string
  /** The locale the file names, as the file names it. */
  fileLocale: string
  /** `source`, or the app's target locale its translations go to; null when none fits. */
  locale: string | null
  entries: number
}

export interface ReadCatalogs {
  files: FileRole[]
  /** Converted target catalogs, every message with its source text in our form. */
  targets: (ConvertedCatalog & { locale: string })[]
  refusals: ImportRefusal[]
  untranslated: number
}

const language = (locale: string): string => locale.split('-')[0]!.toLowerCase()

/** The app's locale a file's locale stands for: the same tag, else the only one of the same language. */
export function appLocaleOf(
  fileLocale: string,
  options: Pick<ReadCatalogsOptions, 'sourceLocale' | 'locales'>,
): string | null {
  if (fileLocale === options.sourceLocale) return 'source'
  if (options.locales.includes(fileLocale)) return fileLocale
  const same = options.locales.filter((l) => language(l) === language(fileLocale))
  if (same.length === 1) return same[0]!
  if (same.length === 0 && language(options.sourceLocale) === language(fileLocale)) return 'source'
  return null
}

function isFormatjsExtracted(text: string, file: string, options: ReadCatalogsOptions): boolean {
  const value = readJson(text, file).value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const entries = Object.values(value)
  const described =
    entries.length > 0 &&
    entries.every(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as { defaultMessage?: unknown }).defaultMessage === 'string',
    )
  if (!described) return false
  // Objects with a defaultMessage are what `formatjs extract` writes; a translated copy of it lives
  // under a target locale's name.
  const named = options.locale ?? localeFromPath(file)?.locale
  return named === undefined || appLocaleOf(named, options) === 'source'
}

function readOne(from: Library, input: CatalogFile, options: ReadCatalogsOptions): ReadResult {
  const { file, text } = input
  if (from === 'lingui')
    return file.endsWith('.po')
      ? readLinguiPo(text, file, options.locale)
      : readLinguiJson(text, file, options.locale)
  if (from === 'formatjs')
    return isFormatjsExtracted(text, file, options)
      ? readFormatjsExtracted(text, file, options.locale ?? options.sourceLocale)
      : readFormatjsTranslations(text, file, options.locale)
  return readI18next(text, file, options.locale ? { locale: options.locale } : {})
}

function convert(from: Library, catalog: ImportedCatalog): ConvertedCatalog {
  if (from === 'lingui') return convertLingui(catalog)
  if (from === 'formatjs') return convertFormatjs(catalog)
  return convertI18next(catalog)
}

/** The source catalog of one namespace: every source-locale file's messages joined. */
function joined(catalogs: ConvertedCatalog[], sourceLocale: string): ConvertedCatalog {
  const messages: ConvertedMessage[] = catalogs.flatMap((c) => c.messages)
  return {
    locale: sourceLocale,
    file: catalogs.map((c) => c.file).join(', ') || `(no catalog of ${sourceLocale} was given)`,
    messages,
    refusals: [],
    untranslated: [],
  }
}

/** Reads and converts the files; an unreadable file throws {@link ImportReadError} naming file:line. */
export function readCatalogs(
  from: Library,
  inputs: readonly CatalogFile[],
  options: ReadCatalogsOptions,
): ReadCatalogs {
  const files: FileRole[] = []
  const refusals: ImportRefusal[] = []
  const sources = new Map<string, ConvertedCatalog[]>()
  const targets: (ConvertedCatalog & { locale: string })[] = []
  let untranslated = 0
  for (const input of inputs) {
    const read = readOne(from, input, options)
    refusals.push(...read.refusals)
    const locale = appLocaleOf(read.catalog.locale, options)
    files.push({
      file: input.file,
      fileLocale: read.catalog.locale,
      locale,
      entries: read.catalog.entries.length,
    })
    if (locale === null) {
      refusals.push({
        file: input.file,
        line: 1,
        reason: `its locale ${read.catalog.locale} is not one of the app's (source ${options.sourceLocale}; targets ${options.locales.join(', ')}); name the locale with --locale`,
      })
      continue
    }
    const converted = convert(from, read.catalog)
    const namespace = converted.namespace ?? ''
    if (locale === 'source') {
      refusals.push(...converted.refusals)
      const list = sources.get(namespace) ?? []
      list.push(converted)
      sources.set(namespace, list)
    } else targets.push({ ...converted, locale })
  }
  const attached = targets.map((target) => {
    // Source-text ids (Lingui's msgid) need no source catalog; keys do.
    const needsSources = target.messages.some((m) => m.source === undefined)
    const done = needsSources
      ? attachSources(target, joined(sources.get(target.namespace ?? '') ?? [], options.sourceLocale))
      : target
    refusals.push(...done.refusals)
    untranslated += done.untranslated.length
    return { ...done, locale: target.locale }
  })
  return { files, targets: attached, refusals, untranslated }
}

export { ImportReadError }
