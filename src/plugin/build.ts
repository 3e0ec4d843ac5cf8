import {
  buildCatalog,
  type CatalogInput,
  type CatalogRow,
  catalogRows,
  eachCatalogTranslation,
  type IdSource,
  inlineText,
  sourceTextOf,
  standInLocale,
  usedIds,
} from '../core/catalog/index'
import { isIcuSource } from '../core/check/message'
import type {
  CallSite,
  ExtractResult,
  FileExtraction,
  Message,
  ResolvedExtractOptions,
} from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import type { CompiledMessage } from '../core/icu/compile'
import { MessageForms } from '../core/icu/forms'
import { jsString } from '../core/js-string'
import type { ResolvedOptions } from '../core/model/options'
import { restorePlaceholders } from '../core/model/placeholders'
import type { TmsReport } from '../core/report'
import { type SyncResult, translationsOf } from '../core/sync'
import { rowsKey } from '../core/sync/catalog-memo'
import { assignIds, longId, SHORT_ID_LENGTH, sameSpelling, sharedIdError } from './ids'
import type { LocaleTexts } from './inline/index'
import type { SiteLookup } from './transform'
import { type CatalogMap, translationLiteral } from './virtual'

/** The ids of an inline build's output (in their order), what they stand for and their source texts. */
interface InlineIds {
  /** How many ids the build had: an id unknown then may be known after a later transform. */
  size: number
  sources: (IdSource | undefined)[]
  texts: (string | undefined)[]
  /** Whether each id's message is ICU (its text ships as a compiled form). */
  icu: boolean[]
}

interface FullCatalog {
  /** How many ids the build had when it was made: ids are only added during a build. */
  size: number
  catalog: Map<string, CompiledMessage>
}

/** Sorted ids while `of` has `size`; once a literal is made of them, their rows and quoted ids (`"<id>":`). */
interface Rows {
  of: ReadonlySet<string> | ReadonlyMap<string, IdSource>
  size: number
  ids: string[]
  made?: CatalogRow[]
  heads?: string[]
  /** Their rows' key of a catalog memo (see `memoKey`). */
  key?: string
}

/**
 * What one build start made: its options, messages, ids and which module uses which, and (once its
 * sync is done) the translations and the report. `TmsSession` makes one per build start and drops it
 * when the build closes; the catalog work itself is in `src/core/catalog/index.ts`.
 */
export class Build {
  readonly options: ResolvedOptions
  readonly extractOptions: ResolvedExtractOptions
  /**
   * Inline mode in this build: message calls stay markers that each locale's copy of the output
   * replaces. Off in a dev server, which serves one switchable app (runtime mode).
   */
  readonly inline: boolean
  /** Keyword specs by the callee text that names them (`_x`, `i18n.t`). */
  readonly specs: ReadonlyMap<string, KeywordSpec>
  /**
   * Message key -> message: the build start's, and with `sourceCatalog` those a transform met since
   * (a message typed in a dev server), whose text only the catalogs hold.
   */
  readonly messages: ReadonlyMap<string, Message>
  private readonly knownMessages: Map<string, Message>
  /**
   * The locales with a catalog chunk: target locales then pseudo-locales, and with `sourceCatalog`
   * the source locale first.
   */
  readonly locales: readonly string[]
  /** `sourceCatalog` in runtime mode: call sites keep only their ids, every catalog is complete. */
  readonly sourceCatalog: boolean
  /** Files `include`/`exclude` select: only these are transformed. */
  included: Set<string>
  /**
   * File -> ids its calls use: set by the transform, else looked up from the build start's extraction
   * when a catalog first asks (see `idsOfFile`).
   */
  readonly fileIds: Map<string, Set<string>> = new Map()
  /** Id -> what it stands for. */
  readonly idSources: Map<string, IdSource> = new Map()
  /** File -> content hash extraction saw at build start. */
  readonly startHashes: Map<string, string> = new Map()
  /** Set when the sync of this build is done. */
  sync: SyncResult | undefined
  report: TmsReport | undefined
  /**
   * Message key -> id of the sites that spell the placeholders as the message does (a hash per site
   * otherwise): every message's, made at build start (see `assignIds`), and a key new since then.
   */
  readonly plainIds: Map<string, string>
  /** Id -> key of `plainIds`, once a key new since the build start or a disk cache's module needs it. */
  private givenIds: Map<string, string> | undefined
  /** Per locale, the catalog of every id known when it was made (dev server, webpack's catalogs). */
  private readonly fullCatalogs = new Map<string, FullCatalog>()
  /** Per locale, the literal of the catalog of every id, while the build has `size` ids. */
  private readonly fullLiterals = new Map<string, { size: number; literal: string }>()
  /** Per locale, the literal of the used ids' catalog over the rows it was made of (see `prepareCatalogs`). */
  private readonly usedLiterals = new Map<
    string,
    { rows: Rows; sync: SyncResult | undefined; literal: string }
  >()
  /** See `rowsOf`. */
  private rows: Rows | undefined
  /**
   * What each call site of the build-start extraction looks up: the transform of an unchanged module
   * meets the same site objects (the extraction cache gives them back) and its ids are registered.
   */
  private readonly startLookups = new Map<CallSite, SiteLookup | undefined>()
  /** Compiled forms of ICU messages and translations, per text and locale. */
  readonly forms: MessageForms = new MessageForms()
  /** Id -> whether its message is ICU (see `isIcuId`). */
  private readonly icuIds = new Map<string, boolean>()
  /** Per list of ids of an inline build's output, what they stand for (see `inlineIds`). */
  private readonly inlineLookups = new WeakMap<readonly string[], InlineIds>()
  /** The build start's extraction of each file, whose ids are looked up when first needed. */
  private readonly startFiles: ReadonlyMap<string, FileExtraction>
  /** Whether every file of the build start has its ids (a catalog of every id needs them all). */
  private allRegistered = false
  /** The ids of the last list of modules asked for, while no transform changed a module's (see `usedIds`). */
  private lastUsed: { files: Iterable<string>; transforms: number; used: Set<string> } | undefined
  /** How many times a transform set a module's ids. */
  private transforms = 0

  constructor(
    options: ResolvedOptions,
    extractOptions: ResolvedExtractOptions,
    inline: boolean,
    extraction: ExtractResult,
  ) {
    this.options = options
    this.extractOptions = extractOptions
    this.inline = inline
    this.specs = new Map(extractOptions.keywords.map((k) => [k.name, k]))
    const messages = new Map<string, Message>()
    for (const m of extraction.messages) messages.set(m.key, m)
    this.knownMessages = messages
    this.messages = messages
    // The options refuse `sourceCatalog` with `mode: 'inline'`; a dev server of an inline app runs runtime mode.
    this.sourceCatalog = options.sourceCatalog && !inline
    this.locales = [
      ...(this.sourceCatalog ? [options.sourceLocale] : []),
      ...options.locales,
      ...options.pseudo,
    ]
    this.included = new Set(extraction.files.keys())
    this.startFiles = extraction.files
    // Every message's id at once, so that a key sharing its short id with another gets the long one
    // whichever module is transformed first; the hashes are the ones the transform used to make.
    this.plainIds = assignIds(this.messages.keys())
    // The sites' lookups are not made here: the transform makes each module's as it meets it, while
    // the bundler's own threads work on the modules before it, and a file no bundle imports costs none.
    for (const [file, fx] of extraction.files) this.startHashes.set(file, fx.hash)
  }

  /** The ids a module's calls use: the transform's, else those of its build-start extraction. */
  idsOfFile(file: string): ReadonlySet<string> | undefined {
    let ids = this.fileIds.get(file)
    if (ids === undefined) {
      const fx = this.startFiles.get(file)
      if (fx === undefined) return undefined
      ids = this.idsOf(fx)
      this.fileIds.set(file, ids)
    }
    return ids
  }

  /** What a transform found a module to use. */
  setFileIds(file: string, ids: Set<string>): void {
    this.fileIds.set(file, ids)
    this.transforms++
  }

  /** Every file of the build start with its ids: before a catalog of every id (dev server, no module list). */
  private registerAll(): void {
    if (this.allRegistered) return
    for (const file of this.startFiles.keys()) this.idsOfFile(file)
    this.allRegistered = true
  }

  /** The id of a message as its sites spell it; two messages with one id fail the build naming both. */
  private idOf(key: string, sitePlaceholders: readonly string[] | undefined, message?: Message): string {
    const m = message ?? this.messages.get(key)
    const spelling =
      m && sitePlaceholders && !sameSpelling(sitePlaceholders, m.placeholders)
        ? [...sitePlaceholders]
        : undefined
    const id = spelling ? longId(key, spelling) : (this.plainIds.get(key) ?? this.newId(key))
    const known = this.idSources.get(id)
    if (!known) {
      this.idSources.set(id, spelling ? { key, spelling } : { key })
    } else if (known.key !== key || !sameSpelling(known.spelling ?? [], spelling ?? [])) {
      throw sharedIdError(id, known.key, key)
    }
    return id
  }

  /**
   * The id of a key the build start did not know (a module changed in a dev server): the short id
   * unless a key has it already (its module is served), then the long one.
   */
  private newId(key: string): string {
    const given = this.given()
    const long = longId(key)
    const short = long.slice(0, SHORT_ID_LENGTH)
    const id = given.has(short) || this.idSources.has(short) ? long : short
    const other = given.get(id)
    if (other !== undefined) throw sharedIdError(id, other, key)
    this.plainIds.set(key, id)
    given.set(id, key)
    return id
  }

  /** Id -> key of `plainIds`: made when first needed, which only a rare build does. */
  private given(): Map<string, string> {
    this.givenIds ??= new Map([...this.plainIds].map(([key, id]) => [id, key]))
    return this.givenIds
  }

  private siteLookup(site: CallSite, fx: FileExtraction): SiteLookup | undefined {
    const message = this.messageOf(site.messageKey, fx)
    if (!message) return undefined
    // The message's own key (equal to the site's): the build keeps it, not the key of a decoded site.
    const id = this.idOf(message.key, site.placeholders, message)
    const text = sameSpelling(site.placeholders, message.placeholders)
      ? message.text
      : restorePlaceholders(message.parsed, site.placeholders)
    const form = isIcuSource(message) ? this.forms.literal(text, this.options.sourceLocale) : undefined
    if (site.pluralKey === undefined) return form === undefined ? { id, text } : { id, text, form }
    const plural = this.messageOf(site.pluralKey, fx)
    return { id, text, pluralId: this.idOf(plural?.key ?? site.pluralKey, site.pluralPlaceholders, plural) }
  }

  private messageOf(key: string, fx: FileExtraction): Message | undefined {
    const known = this.messages.get(key)
    if (known) return known
    const found = fx.messages.find((m) => m.key === key)
    if (found && this.sourceCatalog) this.knownMessages.set(key, found)
    return found
  }

  private idsOf(fx: FileExtraction): Set<string> {
    const ids = new Set<string>()
    for (const site of fx.calls) {
      const found = this.siteLookup(site, fx)
      this.startLookups.set(site, found)
      if (!found) continue
      this.addId(ids, site.messageKey, found.id)
      if (found.pluralId && site.pluralKey) this.addId(ids, site.pluralKey, found.pluralId)
    }
    return ids
  }

  /**
   * A module the transform did not meet in this build may be a bundler's disk cache's copy (webpack's
   * filesystem cache) made by a process in which its key still had the short id, before a message
   * sharing those 6 characters was added. Its catalog holds the short id for the key too, unless a
   * key of this build has it or two keys would.
   */
  private addId(ids: Set<string>, key: string, id: string): void {
    ids.add(id)
    if (id.length === SHORT_ID_LENGTH || this.plainIds.get(key) !== id) return
    const short = id.slice(0, SHORT_ID_LENGTH)
    const known = this.idSources.get(short)
    if (this.given().has(short) || (known && (known.key !== key || known.spelling))) return
    if (!known) this.idSources.set(short, { key })
    ids.add(short)
  }

  /** What a call site looks up: the build start's answer for its sites, else made now. */
  lookup(site: CallSite, fx: FileExtraction): SiteLookup | undefined {
    return this.startLookups.has(site) ? this.startLookups.get(site) : this.siteLookup(site, fx)
  }

  /** The input of a locale's catalog: this build's ids and messages and the locale's translations. */
  private catalogInput(
    locale: string,
    translations: ReadonlyMap<string, string> | undefined = translationsOf(this.sync, locale),
  ): CatalogInput {
    const source = locale === this.options.sourceLocale
    return {
      locale,
      sources: this.idSources,
      messages: this.messages,
      translations: source ? undefined : translations,
      placeholder: this.options.placeholder,
      forms: this.forms,
      fallback: this.sourceCatalog ? this.options.sourceLocale : undefined,
    }
  }

  /**
   * The ids the given modules use. The answer for the same list object is kept: the bundler layers
   * pass one list, once every module is transformed, for all locales' catalogs.
   */
  usedIds(files: Iterable<string>): Set<string> {
    const last = this.lastUsed
    if (last?.files === files && last.transforms === this.transforms) return last.used
    const used = usedIds({ get: (file) => this.idsOfFile(file) }, files, stripQuery)
    this.lastUsed = { files, transforms: this.transforms, used }
    return used
  }

  /**
   * A locale's catalog: id -> translation in each site's placeholder spelling. With `files`, only the
   * ids those modules use (a production bundle); without, every id (the dev server).
   */
  catalogFor(locale: string, files?: Iterable<string>): CatalogMap {
    if (!files) {
      this.registerAll()
      return this.fullCatalog(locale).catalog
    }
    const used = this.usedIds(files)
    // Every id a module uses is known: as many used ids as known ones means all of them.
    if (used.size === this.idSources.size) return this.fullCatalog(locale).catalog
    return buildCatalog(this.catalogInput(locale), used)
  }

  /**
   * The ids that have a translation in `locale` (the dev overlay marks them): with `sourceCatalog`
   * every catalog holds every id, so the catalog alone does not tell.
   */
  translatedIds(locale: string): string[] {
    if (!this.sourceCatalog) return [...this.catalogFor(locale).keys()]
    this.registerAll()
    return [
      ...buildCatalog({ ...this.catalogInput(locale), fallback: undefined }, this.idSources.keys()).keys(),
    ]
  }

  /** The literal of `catalogFor(locale, files)` (as `catalogLiteral` makes it), kept when the bundle uses every id. */
  catalogLiteralFor(locale: string, files?: Iterable<string>): string {
    const used = files && this.usedIds(files)
    // The ids of the bundle's modules (the usedIds answer is one set for all locales), a part of them.
    if (used && used.size !== this.idSources.size) {
      const rows = this.rowsOf(used)
      const made = this.usedLiterals.get(locale)
      if (made?.rows === rows && made.sync === this.sync) return made.literal
      const literal = this.literalOf(locale, rows)
      this.usedLiterals.set(locale, { rows, sync: this.sync, literal })
      return literal
    }
    if (!files) this.registerAll()
    const size = this.idSources.size
    const known = this.fullLiterals.get(locale)
    if (known?.size === size) return known.literal
    const literal = this.literalOf(locale, this.rowsOf(this.idSources))
    this.fullLiterals.set(locale, { size, literal })
    return literal
  }

  /** A locale's catalog literal over rows: the text `catalogLiteral(buildCatalog(...))` makes of the same ids. */
  private literalOf(locale: string, of: Rows): string {
    // A production build with no network: the last build's literal while its inputs are the same.
    const memos = this.sync?.memos
    const key = memos && this.memoKey(of, memos.messages)
    const memoed = key && memos.literal(locale, key, of.ids)
    if (memoed) return memoed
    of.made ??= catalogRows(this.idSources, this.messages, of.ids)
    const rows = of.made
    of.heads ??= rows.map((row) => `${jsString(row.id)}:`)
    const heads = of.heads
    // Pieces joined once: no string per translation, for tens of thousands of translations per locale.
    const parts: string[] = ['{']
    eachCatalogTranslation(this.catalogInput(locale), rows, (i, translation) => {
      if (parts.length > 1) parts.push(',')
      parts.push(heads[i]!, translationLiteral(translation))
    })
    parts.push('}')
    const literal = parts.join('')
    if (key) memos.record(locale, key, literal)
    return literal
  }

  /**
   * The rows' key of a catalog memo, made once for every locale; none when a message was met since the
   * build start (a module changed meanwhile: the memos' keys cover `covered` messages, the start's) or
   * for no ids (webpack's first pass).
   */
  private memoKey(of: Rows, covered: number): string | undefined {
    if (this.messages.size !== covered || of.ids.length === 0) return undefined
    const fallback = this.sourceCatalog ? this.options.sourceLocale : undefined
    of.key ??= rowsKey(of.ids, this.idSources, this.plainIds, fallback)
    return of.key
  }

  /** The ids of `of` (the used ids, or every id), sorted once for all locales, while `of` has the same ids. */
  private rowsOf(of: ReadonlySet<string> | ReadonlyMap<string, IdSource>): Rows {
    if (this.rows?.of === of && this.rows.size === of.size) return this.rows
    this.rows = { of, size: of.size, ids: [...of.keys()].sort() }
    return this.rows
  }

  /** The catalog of every id, made again only when ids were added since (a transform in between). */
  private fullCatalog(locale: string): FullCatalog {
    const known = this.fullCatalogs.get(locale)
    if (known && known.size === this.idSources.size) return known
    const made: FullCatalog = {
      size: this.idSources.size,
      catalog: buildCatalog(this.catalogInput(locale), this.idSources.keys()),
    }
    this.fullCatalogs.set(locale, made)
    return made
  }

  /**
   * The locales whose catalog of every id (a dev server's) was made before ids were added since: a
   * page that loaded it misses the new messages, which `sourceCatalog` has no inline text for.
   */
  staleFullCatalogs(): string[] {
    const size = this.idSources.size
    return this.locales.filter((locale) => {
      const literal = this.fullLiterals.get(locale)
      const catalog = this.fullCatalogs.get(locale)
      return (literal !== undefined && literal.size < size) || (catalog !== undefined && catalog.size < size)
    })
  }

  /** The locales of an inline build's copies: the source locale, the target locales, the pseudo-locales. */
  inlineLocales(): string[] {
    return [this.options.sourceLocale, ...this.locales]
  }

  /** What the copy of `locale` puts in place of each message: its translation, else the source text. */
  inlineTexts(locale: string): LocaleTexts {
    const source = locale === this.options.sourceLocale
    const input = source ? this.catalogInput(locale, undefined) : this.catalogInput(locale)
    const fallback = (s?: IdSource): string | undefined => standInLocale(input, s, this.options.sourceLocale)
    return {
      locale,
      form: (id, text) =>
        this.isIcuId(id) ? this.forms.literal(text, locale, fallback(this.idSources.get(id))) : undefined,
      text: (id) => {
        const source = this.idSources.get(id)
        return inlineText(input, source, source && sourceTextOf(source, this.messages.get(source.key)))
      },
      textsOf: (ids) => {
        const known = this.inlineIds(ids)
        return known.sources.map((source, i) => inlineText(input, source, known.texts[i]))
      },
      formsOf: (ids, texts) => {
        const { icu, sources } = this.inlineIds(ids)
        return texts.map((text, i) =>
          icu[i] && text !== undefined ? this.forms.literal(text, locale, fallback(sources[i])) : undefined,
        )
      },
    }
  }

  /** Whether an id stands for an ICU message: asked per site and copy, answered once per id. */
  private isIcuId(id: string): boolean {
    let icu = this.icuIds.get(id)
    if (icu === undefined) {
      const message = this.messages.get(this.idSources.get(id)?.key ?? '')
      icu = message !== undefined && isIcuSource(message)
      // An id not known yet may be known after a later transform: only a known id's answer is kept.
      if (message !== undefined) this.icuIds.set(id, icu)
    }
    return icu
  }

  /** What the given ids stand for and their source texts, looked up once for every locale's copy. */
  private inlineIds(ids: readonly string[]): InlineIds {
    let known = this.inlineLookups.get(ids)
    if (!known || known.size !== this.idSources.size) {
      const sources = ids.map((id) => this.idSources.get(id))
      known = {
        size: this.idSources.size,
        sources,
        texts: sources.map((source) => source && sourceTextOf(source, this.messages.get(source.key))),
        icu: ids.map((id) => this.isIcuId(id)),
      }
      this.inlineLookups.set(ids, known)
    }
    return known
  }
}

export function stripQuery(id: string): string {
  const q = id.indexOf('?')
  return q < 0 ? id : id.slice(0, q)
}
