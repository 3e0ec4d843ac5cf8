import type { Formats } from '../model/formats'
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
 * of its locales speaks Polish; see appLocaleFor), and each target catalog given its source texts from the source
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
  /** `--locale-map fr=fr-CA`: a file locale's app locale, where the rule finds none or several. */
  localeMap?: Readonly<Record<string, string>>
  /** The config's `formats`: translations are checked against their sources with them, as the build does. */
  formats?: Formats
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
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * The app's locale a file's locale stands for, by i18next's own fallback (an app locale `fr-FR` is
 * served by a `fr-FR` catalog, else by a `fr` one; never by `fr-CA`): the same tag, else, for a
 * file that names a language alone, the one app locale of that language (the source locale first).
 * `--locale-map fr=fr-CA` decides where that rule finds none or several. A problem says which.
 */
export function appLocaleFor(
  fileLocale: string,
  options: Pick<ReadCatalogsOptions, 'sourceLocale' | 'locales' | 'localeMap'>,
): { locale: string } | { problem: string } {
  const mapped = Object.entries(options.localeMap ?? {}).find(([from]) => same(from, fileLocale))?.[1]
  const wanted = mapped ?? fileLocale
  if (same(wanted, options.sourceLocale)) return { locale: 'source' }
  const exact = options.locales.find((l) => same(l, wanted))
  if (exact) return { locale: exact }
  const apps = `the app's are ${options.sourceLocale} (source), ${options.locales.join(', ') || 'no targets'}`
  if (mapped !== undefined)
    return {
      problem: `--locale-map maps ${fileLocale} to ${mapped}, which is not one of the app's locales (${apps})`,
    }
  if (fileLocale.includes('-'))
    return {
      problem: `its locale ${fileLocale} is none of the app's locales (${apps}); a catalog of ${fileLocale} serves only ${fileLocale}, so name the app's locale it goes to with --locale-map ${fileLocale}=<locale>`,
    }
  if (language(options.sourceLocale) === language(fileLocale)) return { locale: 'source' }
  const candidates = options.locales.filter((l) => language(l) === language(fileLocale))
  if (candidates.length === 1) return { locale: candidates[0]! }
  if (candidates.length === 0)
    return {
      problem: `its locale ${fileLocale} is not a language of the app (${apps}); add a locale of it to the app, or name one with --locale-map ${fileLocale}=<locale>`,
    }
  return {
    problem: `its locale ${fileLocale} would serve ${candidates.join(' and ')} alike, and which one takes its translations is not guessed: name it with --locale-map ${fileLocale}=${candidates[0]}`,
  }
}

/** {@link appLocaleFor}'s locale, or null when it has a problem. */
export function appLocaleOf(
  fileLocale: string,
  options: Pick<ReadCatalogsOptions, 'sourceLocale' | 'locales' | 'localeMap'>,
): string | null {
  const found = appLocaleFor(fileLocale, options)
  return 'locale' in found ? found.locale : null
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
    const found = appLocaleFor(read.catalog.locale, options)
    const locale = 'locale' in found ? found.locale : null
    files.push({
      file: input.file,
      fileLocale: read.catalog.locale,
      locale,
      entries: read.catalog.entries.length,
    })
    if ('problem' in found) {
      refusals.push({ file: input.file, line: 1, reason: found.problem })
      continue
    }
    const converted = convert(from, read.catalog)
    const namespace = converted.namespace ?? ''
    if (found.locale === 'source') {
      refusals.push(...converted.refusals)
      const list = sources.get(namespace) ?? []
      list.push(converted)
      sources.set(namespace, list)
    } else targets.push({ ...converted, locale: found.locale })
  }
  const attached = targets.map((target) => {
    // Source-text ids (Lingui's msgid) need no source catalog; keys do.
    const needsSources = target.messages.some((m) => m.source === undefined)
    const done = needsSources
      ? attachSources(
          target,
          joined(sources.get(target.namespace ?? '') ?? [], options.sourceLocale),
          options.formats,
        )
      : target
    refusals.push(...done.refusals)
    untranslated += done.untranslated.length
    return { ...done, locale: target.locale }
  })
  return { files, targets: attached, refusals, untranslated }
}

export { ImportReadError }
