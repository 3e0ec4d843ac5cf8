import { isIcuSource } from '../check/message'
import { checkIcuTranslationPlaceholders, checkTranslation } from '../check/translation'
import type { Message } from '../extract/types'
import type { CompiledMessage } from '../icu/compile'
import type { MessageForms } from '../icu/forms'
import { isFormatOnly } from '../icu/parse'
import { type PlaceholderSpec, restorePlaceholders } from '../model/placeholders'

/**
 * The catalog folder (one file): the catalog work of a build as functions of their inputs: which ids the modules of a chunk use, a
 * locale's catalog (id -> translation, checked and in each site's placeholder spelling), and the text
 * each inline copy puts in place of an id. The plugin holds the state (which ids exist, which module
 * uses which) and calls these; they need no bundler, so `test/core/locale-catalog.test.ts` runs them
 * alone.
 */

/**
 * What an id stands for: a message, and the placeholder spelling of the call sites that use it when
 * they spell the placeholders differently from the message (`t('Hi {0}')` reached as `{name}`).
 */
export interface IdSource {
  key: string
  spelling?: string[]
}

/** What a catalog is made from: the build's ids, messages and compiled forms, and one locale's translations. */
export interface CatalogInput {
  locale: string
  /** Id -> what it stands for. */
  sources: ReadonlyMap<string, IdSource>
  /** Message key -> message. */
  messages: ReadonlyMap<string, Message>
  /** Message key -> translation in `locale`, in the message's own spelling; undefined: none pulled. */
  translations: ReadonlyMap<string, string> | undefined
  placeholder: PlaceholderSpec
  /** The build's compiled forms, made once per text and locale. */
  forms: MessageForms
  /**
   * `sourceCatalog`: the catalog is complete, an id with no usable translation holds its source
   * message compiled in this (the source) locale, as a call site holds it otherwise.
   */
  fallback?: string
}

/** The ids the given modules use (`fileIds`: module -> ids its calls look up). */
export function usedIds(
  fileIds: Pick<ReadonlyMap<string, ReadonlySet<string>>, 'get'>,
  files: Iterable<string>,
  moduleOf: (file: string) => string = (file) => file,
): Set<string> {
  const used = new Set<string>()
  for (const f of files) for (const i of fileIds.get(moduleOf(f)) ?? []) used.add(i)
  return used
}

/**
 * The catalog of `ids` in the input's locale: an id with no translation is left out (the runtime shows
 * the source), unless its message has nothing to translate (only formatted values: it is its own
 * translation, formatted in this locale); an ICU translation ships compiled, and one that does not compile is left out too; a
 * translation whose placeholders do not match its source's is left out rather than shown broken.
 */
export function buildCatalog(input: CatalogInput, ids: Iterable<string>): Map<string, CompiledMessage> {
  const out = new Map<string, CompiledMessage>()
  if (!input.translations && input.fallback === undefined) return out
  eachCatalogTranslation(input, catalogRows(input.sources, input.messages, ids), (_, translation, id) =>
    out.set(id, translation),
  )
  return out
}

/** One id of a catalog, with what it stands for looked up once for every locale's catalog. */
export interface CatalogRow {
  id: string
  source: IdSource
  message: Message | undefined
  /** Whether the message is an ICU message (its translations ship compiled). */
  icu: boolean
}

/** The rows of `ids` (in their order) that stand for something. */
export function catalogRows(
  sources: ReadonlyMap<string, IdSource>,
  messages: ReadonlyMap<string, Message>,
  ids: Iterable<string>,
): CatalogRow[] {
  const rows: CatalogRow[] = []
  for (const id of ids) {
    const source = sources.get(id)
    if (!source) continue
    const message = messages.get(source.key)
    rows.push({ id, source, message, icu: message !== undefined && isIcuSource(message) })
  }
  return rows
}

/**
 * Each translation of the input locale's catalog over `rows`, in their order: what {@link buildCatalog} gives
 * for the same ids, without a map in between (a literal of every id is made straight from it).
 */
export function eachCatalogTranslation(
  input: Pick<CatalogInput, 'locale' | 'translations' | 'placeholder' | 'forms' | 'fallback'>,
  rows: readonly CatalogRow[],
  each: (index: number, translation: CompiledMessage, id: string) => void,
): void {
  const { translations, locale, fallback } = input
  if (!translations && fallback === undefined) return
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const translated = translationOf(row, translations?.get(row.source.key), locale, input)
    if (translated !== undefined) {
      each(i, translated, row.id)
      continue
    }
    const text = sourceTextOf(row.source, row.message)
    if (text === undefined) continue
    const own = row.icu ? input.forms.ownForm(text, locale) : undefined
    if (own !== undefined) each(i, own, row.id)
    else if (fallback !== undefined)
      each(i, (row.icu && input.forms.sourceForm(text, fallback, locale)) || text, row.id)
  }
}

/** A row's translation as the catalog ships it; undefined when there is none or it does not fit. */
function translationOf(
  row: CatalogRow,
  text: string | undefined,
  locale: string,
  input: Pick<CatalogInput, 'placeholder' | 'forms'>,
): CompiledMessage | undefined {
  if (text === undefined) return undefined
  if (row.icu) return input.forms.form(text, locale)
  return row.source.spelling
    ? restoreSitePlaceholders(row.source, text, row.message, input.placeholder)
    : text
}

/**
 * A translation with the placeholders restored in the spelling of sites that name them otherwise;
 * undefined when its placeholders do not match the message's.
 */
export function restoreSitePlaceholders(
  source: IdSource,
  text: string,
  message: Message | undefined,
  placeholder: PlaceholderSpec,
): string | undefined {
  if (!message || !source.spelling) return text
  // An ICU message's placeholders are its structure's (a one-word branch body is none), as extracted.
  const checked = isIcuSource(message)
    ? checkIcuTranslationPlaceholders(text, message, placeholder)
    : checkTranslation(text, message, placeholder)
  return checked.ok ? restorePlaceholders(checked.parsed, source.spelling) : undefined
}

/** An id's source text in its sites' placeholder spelling; undefined for an unknown message. */
export function sourceTextOf(source: IdSource, message: Message | undefined): string | undefined {
  if (!message) return undefined
  return source.spelling ? restorePlaceholders(message.parsed, source.spelling) : message.text
}

/**
 * What an inline copy puts in place of an id: the translation in the sites' spelling, else (source
 * locale, untranslated, a translation that does not fit) the source text.
 */
export function inlineText(
  input: Omit<CatalogInput, 'sources' | 'forms'>,
  source: IdSource | undefined,
  sourceText: string | undefined,
): string | undefined {
  const translated = source && input.translations?.get(source.key)
  if (translated !== undefined && source) {
    const text = source.spelling
      ? restoreSitePlaceholders(source, translated, input.messages.get(source.key), input.placeholder)
      : translated
    if (text !== undefined) return text
  }
  return sourceText
}

/**
 * The locale an inline copy formats a site's text in when that text is the source standing in for a
 * missing or unfit translation: the source locale; undefined when the copy has the translation, or
 * when the message has nothing to translate (only formatted values: formatted in the copy's locale).
 */
export function standInLocale(
  input: Omit<CatalogInput, 'sources' | 'forms'>,
  source: IdSource | undefined,
  sourceLocale: string,
): string | undefined {
  if (inlineText(input, source, undefined) !== undefined) return undefined
  const text = source && sourceTextOf(source, input.messages.get(source.key))
  return text !== undefined && isFormatOnly(text) ? undefined : sourceLocale
}
