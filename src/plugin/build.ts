import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { buildCatalog, type CatalogInput, type IdSource } from '../core/catalog/index'
import type { LocaleCheckMemo } from '../core/check/locale'
import { isIcuSource } from '../core/check/message'
import type {
  CallSite,
  ExtractResult,
  FileExtraction,
  Message,
  ResolvedExtractOptions,
} from '../core/extract/index'
import { sourceFileTest } from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import { MessageForms } from '../core/icu/forms'
import type { ResolvedOptions } from '../core/model/options'
import { restorePlaceholders } from '../core/model/placeholders'
import { readWhole } from '../core/read-whole'
import type { TmsReport } from '../core/report'
import type { StoredText } from '../core/stored-text'
import { type SyncResult, translationsOf } from '../core/sync'
import { CatalogCache } from './catalog-cache'
import { IdTable } from './id-table'
import { sameSpelling } from './ids'
import type { IdsMemo } from './ids-memo'
import type { CopiesStore, LocaleTexts } from './inline/index'
import { InlineTexts } from './inline-texts'
import type { SiteLookup } from './lookup'
import { IdleWrite, writeMemoFile } from './memo-file'
import { ModuleUsage, stripQuery } from './module-usage'
import type { TransformMemo } from './transform-memo'
import type { CatalogChanges, CatalogMap } from './virtual'

export { stripQuery }

/**
 * What one build start made: its options, messages, ids and which module uses which, and (once its
 * sync is done) the translations and the report. `TmsSession` makes one per build start and drops it
 * when the build closes. What is kept only to be fast lives beside it: the ids in an {@link IdTable},
 * which module uses which in {@link ModuleUsage}, the catalogs in one {@link CatalogCache}, the
 * inline copies' texts in {@link InlineTexts}; the catalog work itself is in
 * `src/core/catalog/index.ts`.
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
  get messages(): ReadonlyMap<string, Message> {
    return this.knownMessages
  }
  /** Made when first asked: a warm build whose memos answer reads no message. */
  private get knownMessages(): Map<string, Message> {
    if (!this.byKey) {
      this.byKey = new Map()
      for (const m of this.extraction.messages) this.byKey.set(m.key, m)
    }
    return this.byKey
  }
  private byKey: Map<string, Message> | undefined
  /** How many {@link messages}, known without reading them until one is added. */
  get messageCount(): number {
    return this.byKey ? this.byKey.size : this.extraction.count
  }
  private readonly extraction: ExtractResult
  /**
   * The locales with a catalog chunk: target locales then pseudo-locales, and with `sourceCatalog`
   * the source locale first.
   */
  readonly locales: readonly string[]
  /** `sourceCatalog` in runtime mode: call sites keep only their ids, every catalog is complete. */
  readonly sourceCatalog: boolean
  /** `sourceCatalog`: the source locale, whose messages fill every catalog's gaps. */
  readonly fallbackLocale: string | undefined
  /** Files `include`/`exclude` select: only these are transformed. */
  included: Set<string>
  /** The include globs' test of one file (see {@link includes}), made when first asked. */
  private isSourceFile: ((file: string) => boolean) | undefined
  /** Files the globs do not select (a path's answer does not change): each module is asked twice, by the filter and the transform. */
  private readonly notSources = new Set<string>()
  /** File -> content hash extraction saw at build start. */
  readonly startHashes: Map<string, string> = new Map()
  /** The build's remembered transforms (see `TransformMemo`); set by the session at start. */
  memo: TransformMemo | undefined
  /** The long ids of the last build start's messages (see `IdsMemo`). */
  readonly idsMemo: IdsMemo | undefined
  /** The build start's messages, in the order its sync was given them (a recheck gives them again). */
  get startMessages(): readonly Message[] {
    return this.extraction.messages
  }
  /** A dev server's last check of each rechecked locale (see `recheckLocales`). */
  readonly recheckMemos: Map<string, LocaleCheckMemo> = new Map()
  /** Set when the sync of this build is done. */
  sync: SyncResult | undefined
  report: TmsReport | undefined
  /** The ids and what each stands for. */
  readonly ids: IdTable
  /** Which module uses which ids. */
  readonly usage: ModuleUsage
  /** Compiled forms of ICU messages and translations, per text and locale. */
  readonly forms: MessageForms
  private readonly catalogs: CatalogCache
  /**
   * Locale -> each recheck that replaced its translations, in turn: the ids of the messages whose
   * translation it changed, or undefined when not known (see {@link translationsRevision}). An id
   * added since is made from the translations as they are when it is.
   */
  private readonly rechecks = new Map<string, (ReadonlySet<string> | undefined)[]>()
  private readonly inlineTextsOf: InlineTexts
  /**
   * What each call site of the build-start extraction looks up: the transform of an unchanged module
   * meets the same site objects (the extraction cache gives them back) and its ids are registered.
   */
  private readonly startLookups = new Map<CallSite, SiteLookup | undefined>()
  /** A dev server's next write of its catalog memos (see {@link autosaveCatalogMemos}). */
  private memosWrite: IdleWrite | undefined
  /** The writes of this build's kept inline copies (see {@link keptCopies}). */
  private readonly copiesWrites: Promise<void>[] = []

  constructor(
    options: ResolvedOptions,
    extractOptions: ResolvedExtractOptions,
    inline: boolean,
    extraction: ExtractResult,
    idsMemo?: IdsMemo,
  ) {
    this.options = options
    this.forms = new MessageForms(options.formats)
    this.extractOptions = extractOptions
    this.inline = inline
    this.specs = new Map(extractOptions.keywords.map((k) => [k.name, k]))
    this.extraction = extraction
    // The options refuse `sourceCatalog` with `mode: 'inline'`; a dev server of an inline app runs runtime mode.
    this.sourceCatalog = options.sourceCatalog && !inline
    this.fallbackLocale = this.sourceCatalog ? options.sourceLocale : undefined
    this.locales = [
      ...(this.sourceCatalog ? [options.sourceLocale] : []),
      ...options.locales,
      ...options.pseudo,
    ]
    this.included = new Set(extraction.files.keys())
    // The start's keys, whatever a transform adds to `messages` before the table is made.
    let startKeys: string[] | undefined
    const keys = () => (startKeys ??= [...new Set(extraction.messages.map((m) => m.key))])
    const digest = extraction.digest
    this.idsMemo = idsMemo
    this.ids = new IdTable(
      keys,
      digest,
      (key) => this.messages.get(key),
      idsMemo && {
        remembered: () => idsMemo.remembered(digest, extraction.count),
        longIds: () => idsMemo.longIds(keys(), digest),
      },
    )
    // The sites' lookups are not made here: the transform makes each module's as it meets it, while
    // the bundler's own threads work on the modules before it, and a file no bundle imports costs none.
    this.usage = new ModuleUsage(extraction.files, (fx) => this.idsOf(fx))
    for (const [file, fx] of extraction.files) this.startHashes.set(file, fx.hash)
    this.catalogs = new CatalogCache(this)
    this.inlineTextsOf = new InlineTexts(this.ids, () => this.messages, this.forms)
  }

  /**
   * A dev server's catalog memos are written once their changes pause ({@link IdleWrite}): the sync's
   * checks, the literals the page's catalog modules were made of, as the transform memo's entries are.
   */
  autosaveCatalogMemos(): void {
    const memos = this.sync?.memos
    if (!memos) return
    const write = new IdleWrite(() => void memos.settled())
    this.memosWrite = write
    memos.autosave(() => write.touch())
  }

  /** Drops the memos' waiting writes: the build was released or replaced (a write after it could recreate a removed cache). */
  dispose(): void {
    this.memo?.dispose()
    this.memosWrite?.cancel()
    this.sync?.memos?.autosave(undefined)
  }

  /** Id -> what it stands for. */
  get idSources(): ReadonlyMap<string, IdSource> {
    return this.ids.sources
  }

  /** Message key -> id of the sites that spell the placeholders as the message does (see {@link IdTable.plain}). */
  get plainIds(): ReadonlyMap<string, string> {
    return this.ids.plain
  }

  /** File -> ids its calls use, for the files met so far (see {@link ModuleUsage}). */
  get fileIds(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.usage.fileIds
  }

  /**
   * Whether module `id` (a query aside) is one of the {@link included} files, or a file the include
   * globs select that the build start did not find (a dev server's module created and imported before
   * its watcher told of it): included from now on.
   */
  includes(id: string): boolean {
    const file = stripQuery(id)
    if (this.included.has(file)) return true
    if (this.notSources.has(file)) return false
    if (!this.selects(file)) {
      this.notSources.add(file)
      return false
    }
    this.included.add(file)
    return true
  }

  /**
   * Whether a file created or deleted may change {@link included}: it is one of them, or the include
   * globs select it. The cache's own files (a `cacheDir` inside the root the server watches), written
   * while a page loads, are neither, and run no glob.
   */
  mayInclude(file: string): boolean {
    return this.included.has(file) || this.selects(file)
  }

  private selects(file: string): boolean {
    this.isSourceFile ??= sourceFileTest(this.extractOptions)
    return this.isSourceFile(file)
  }

  /** What a transform found a module to use (see {@link ModuleUsage.setFileIds}). */
  setFileIds(file: string, ids: Set<string>, remembered?: string): void {
    this.usage.setFileIds(file, ids, remembered)
  }

  private siteLookup(site: CallSite, fx: FileExtraction): SiteLookup | undefined {
    const message = this.messageOf(site.messageKey, fx)
    if (!message) return undefined
    // The message's own key (equal to the site's): the build keeps it, not the key of a decoded site.
    const id = this.ids.idOf(message.key, site.placeholders, message)
    const text = sameSpelling(site.placeholders, message.placeholders)
      ? message.text
      : restorePlaceholders(message.parsed, site.placeholders)
    const form = isIcuSource(message) ? this.forms.literal(text, this.options.sourceLocale) : undefined
    if (site.pluralKey === undefined) return form === undefined ? { id, text } : { id, text, form }
    const plural = this.messageOf(site.pluralKey, fx)
    return {
      id,
      text,
      pluralId: this.ids.idOf(plural?.key ?? site.pluralKey, site.pluralPlaceholders, plural),
    }
  }

  private messageOf(key: string, fx: FileExtraction): Message | undefined {
    const known = this.messages.get(key)
    if (known) return known
    const found = fx.messages.find((m) => m.key === key)
    if (found && this.sourceCatalog) this.knownMessages.set(key, found)
    return found
  }

  /** The ids a build-start extraction's calls use, each site's lookup kept for its transform. */
  private idsOf(fx: FileExtraction): Set<string> {
    const ids = new Set<string>()
    for (const site of fx.calls) {
      const found = this.siteLookup(site, fx)
      this.startLookups.set(site, found)
      if (!found) continue
      this.ids.addId(ids, site.messageKey, found.id)
      if (found.pluralId && site.pluralKey) this.ids.addId(ids, site.pluralKey, found.pluralId)
    }
    return ids
  }

  /** What a call site looks up: the build start's answer for its sites, else made now. */
  lookup(site: CallSite, fx: FileExtraction): SiteLookup | undefined {
    return this.startLookups.has(site) ? this.startLookups.get(site) : this.siteLookup(site, fx)
  }

  /** The input of a locale's catalog: this build's ids and messages and the locale's translations. */
  catalogInput(
    locale: string,
    translations: ReadonlyMap<string, string> | undefined = translationsOf(this.sync, locale),
  ): CatalogInput {
    const source = locale === this.options.sourceLocale
    return {
      locale,
      sources: this.ids.sources,
      messages: this.messages,
      translations: source ? undefined : translations,
      placeholder: this.options.placeholder,
      forms: this.forms,
      fallback: this.fallbackLocale,
    }
  }

  /** The ids the given modules use (see {@link ModuleUsage.usedIds}). */
  usedIds(files: Iterable<string>): Set<string> {
    return this.usage.usedIds(files)
  }

  /** See {@link CatalogCache.catalogFor}. */
  catalogFor(locale: string, files?: Iterable<string>): CatalogMap {
    return this.catalogs.catalogFor(locale, files)
  }

  /**
   * The ids that have a translation in `locale` (the dev overlay marks them): with `sourceCatalog`
   * every catalog holds every id, so the catalog alone does not tell.
   */
  translatedIds(locale: string): string[] {
    if (!this.sourceCatalog) return [...this.catalogFor(locale).keys()]
    this.usage.registerAll()
    return [
      ...buildCatalog({ ...this.catalogInput(locale), fallback: undefined }, this.ids.sources.keys()).keys(),
    ]
  }

  /**
   * A recheck replaced the locale's translations in `sync`; `keys`: the message keys whose translation
   * it changed (undefined: not known). Its catalogs are made again when asked, or have the entries of
   * those keys' ids made again (see `CatalogCache.translationsChanged`).
   */
  translationsChanged(locale: string, keys: ReadonlySet<string> | undefined): void {
    let revisions = this.rechecks.get(locale)
    if (!revisions) {
      revisions = []
      this.rechecks.set(locale, revisions)
    }
    const ids = keys && this.idsOfKeys(keys)
    revisions.push(ids)
    this.catalogs.translationsChanged(locale, ids)
  }

  /** How many times a recheck replaced the locale's translations in this build. */
  translationsRevision(locale: string): number {
    return this.rechecks.get(locale)?.length ?? 0
  }

  /**
   * The ids whose entry in `locale`'s catalog the rechecks since translations revision `since` may have
   * changed; undefined when one of them did not say which translations it changed.
   */
  idsChangedSince(locale: string, since: number): Set<string> | undefined {
    const ids = new Set<string>()
    for (const changed of this.rechecks.get(locale)?.slice(since) ?? []) {
      if (!changed) return undefined
      for (const id of changed) ids.add(id)
    }
    return ids
  }

  /**
   * What the rechecks since translations revision `since` changed in `locale`'s catalog, of the ids
   * `within` keeps (all by default): the entries of the ids whose translation changed, made again
   * (also one that comes out as before), and those of them left with no entry. Undefined when a
   * recheck did not say which translations it changed: the caller compares whole catalogs.
   */
  catalogChangesSince(
    locale: string,
    since: number,
    within: (id: string) => boolean = () => true,
  ): CatalogChanges | undefined {
    const ids = this.idsChangedSince(locale, since)
    if (!ids) return undefined
    const touched = [...ids].filter(within)
    const entries = buildCatalog(this.catalogInput(locale), touched)
    return { changed: Object.fromEntries(entries), removed: touched.filter((id) => !entries.has(id)) }
  }

  /** The ids that stand for one of `keys` (a message has one id per spelling of its placeholders). */
  private idsOfKeys(keys: ReadonlySet<string>): Set<string> {
    const ids = new Set<string>()
    if (keys.size === 0) return ids
    for (const [id, source] of this.ids.sources) if (keys.has(source.key)) ids.add(id)
    return ids
  }

  /** See {@link CatalogCache.literalFor}. */
  catalogLiteralFor(locale: string, files?: Iterable<string>): string {
    return this.catalogs.literalFor(locale, files)
  }

  /** See {@link CatalogCache.storedLiteralFor}. */
  storedCatalogLiteralFor(locale: string, files?: Iterable<string>): StoredText {
    return this.catalogs.storedLiteralFor(locale, files)
  }

  /** See {@link CatalogCache.digestFor}. */
  catalogDigestFor(locale: string): string {
    return this.catalogs.digestFor(locale)
  }

  /** The locales of an inline build's copies: the source locale, the target locales, the pseudo-locales. */
  inlineLocales(): string[] {
    return [this.options.sourceLocale, ...this.locales]
  }

  /** What the copy of `locale` puts in place of each message: its translation, else the source text. */
  inlineTexts(locale: string): LocaleTexts {
    const source = locale === this.options.sourceLocale
    const input = () => (source ? this.catalogInput(locale, undefined) : this.catalogInput(locale))
    return this.inlineTextsOf.of(locale, input, this.options.sourceLocale, this.catalogs.keptSlots(locale))
  }

  /** Where the copies of the inline output named `output` are kept: `<cacheDir>/inline/` (see `KeptCopies`). */
  keptCopies(output: string): CopiesStore {
    const name = createHash('sha1').update(`${this.options.root}\0${output}`).digest('hex').slice(0, 16)
    const file = join(this.options.cacheDir, 'inline', `${name}.v1.cache`)
    return {
      read: () => readWhole(file).catch(() => undefined),
      write: (bytes) => {
        const written = writeMemoFile(file, bytes)
        this.copiesWrites.push(written)
        return written
      },
    }
  }

  /** Resolves when the kept copies this build wrote are on disk. */
  async copiesWritten(): Promise<void> {
    await Promise.all(this.copiesWrites)
  }
}
