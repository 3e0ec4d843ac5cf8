import { readFileSync } from 'node:fs'
import { loadOptions } from '../config'
import { checkTranslation } from '../core/catalog'
import {
  type CallSite,
  type Diagnostic,
  type ExtractOptions,
  type ExtractResult,
  extractFromCode,
  extractMessages,
  type FileExtraction,
  findSourceFiles,
  type Message,
  type ResolvedExtractOptions,
  resolveExtractOptions,
} from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import type { CompiledMessage } from '../core/icu/compile'
import { MessageForms } from '../core/icu/forms'
import { isIcuSource } from '../core/icu/translation'
import { extractOptionsOf, syncExtraction, usesService } from '../core/pipeline'
import { restorePlaceholders } from '../core/placeholders'
import { authorizationHint, type TmsReport, thresholdFailure } from '../core/report'
import type { SyncResult } from '../core/sync'
import { type Options, type ResolvedOptions, resolveOptions, TmsConfigError } from '../options'
import { connectService } from '../service'
import { messageId, sameSpelling } from './ids'
import { inlineRuntimeModule, type LocaleTexts } from './inline/index'
import { type Problem, problemFromDiagnostic } from './problems'
import { runtimeCode } from './runtime-code'
import { rewriteMessageCalls, type SiteLookup } from './transform'
import {
  type CatalogEntries,
  catalogLiteral,
  literalCatalogModule,
  literalDigest,
  markerCatalogModule,
  runtimeModule,
} from './virtual'

/** Where a catalog entry comes from: a message, and the placeholder spelling of the sites that use it. */
interface Entry {
  key: string
  /** Set when the sites spell the placeholders differently from the message. */
  spelling?: string[]
}

/** The entries of an inline build's message ids (in the order of the ids) and their source texts. */
interface InlineEntries {
  /** How many entries the session had: an id unknown then may be known after a later transform. */
  size: number
  entries: (Entry | undefined)[]
  sources: (string | undefined)[]
}

interface FullCatalog {
  /** How many entries the session had when it was made: entries are only added during a build. */
  size: number
  entries: Map<string, CompiledMessage>
  literal?: string
}

/** What a build start's extraction produced, for the bundler to report. */
export interface StartOutcome {
  problems: Problem[]
}

/** What a build's sync (push, pull, report) produced, for the bundler to report. */
export interface SyncOutcome {
  /** Warnings of the sync, and the coverage threshold's failure (an error in a build). */
  problems: Problem[]
  /** Info lines: what the sync did. */
  info: string[]
  report: TmsReport
}

/**
 * One plugin instance's state across builds (a watch or dev server runs many): the options, the
 * messages and catalogs of the last build start, and which catalog ids each module uses. Bundler
 * hooks call into it; it holds no bundler knowledge.
 */
export class TmsSession {
  readonly raw: Options | undefined
  command: 'build' | 'serve' = 'build'
  /** Whether transforms return source maps; off only where the bundler says it will not use them. */
  sourcemap = true
  options!: ResolvedOptions
  extractOptions!: ResolvedExtractOptions
  /** Keyword specs by the callee text that names them (`_x`, `i18n.t`). */
  specs: Map<string, KeywordSpec> = new Map()
  messages: Map<string, Message> = new Map()
  sync!: SyncResult
  report!: TmsReport
  /** Target locales then pseudo-locales: the ones with a catalog chunk. */
  locales: string[] = []
  /**
   * Inline mode in this build: message calls stay markers that each locale's copy of the output
   * replaces. Off in a dev server, which serves one switchable app (runtime mode).
   */
  inline = false
  /** Set by the bundler layer: a dev server (vite serve) runs runtime mode even when `mode: 'inline'`. */
  devServer = false
  /** Set by the bundler layer for a bundler that cannot make inline copies: its name, for the error. */
  inlineUnsupported: string | undefined
  /** Files `include`/`exclude` select: only these are transformed. */
  included: Set<string> = new Set()
  /** File -> catalog ids its calls use (from build-start extraction, updated by the transform). */
  readonly fileIds: Map<string, Set<string>> = new Map()
  readonly entries: Map<string, Entry> = new Map()
  private started: Promise<StartOutcome> | undefined
  private syncing: Promise<SyncOutcome> | undefined
  /** Counts build starts and releases: a sync that a newer start or a release outdated keeps out. */
  private generation = 0
  /** Hooks that ran before the first build start (a dev server's configureServer). */
  private readonly waiting: (() => void)[] = []
  /** File -> content hash extraction saw at build start. */
  private readonly startHashes = new Map<string, string>()
  /**
   * Message key -> catalog id of the sites that spell the placeholders as the message does: a hash per
   * site and build otherwise, and the id of a key never changes.
   */
  private readonly plainIds = new Map<string, string>()
  /**
   * Per locale, the catalog of every entry known when it was made, and its literal: the catalog module's
   * digest and a bundle that uses every message (the usual case) need the same one.
   */
  private readonly fullCatalogs = new Map<string, FullCatalog>()
  /** Every entry's id, sorted: made again when entries were added (see `sortedIds`). */
  private sorted: string[] | undefined
  /**
   * What each call site of the build-start extraction looks up: the transform of an unchanged module
   * meets the same site objects (the extraction cache gives them back) and its entries are registered.
   */
  private readonly startLookups = new Map<CallSite, SiteLookup | undefined>()
  /** Compiled forms of ICU messages and translations, per text and locale. */
  private readonly forms = new MessageForms()
  /** Per list of ids of an inline build's output, their entries (see `inlineEntries`). */
  private readonly inlineLookups = new WeakMap<readonly string[], InlineEntries>()

  /**
   * The bundler's own root (vite's `root`, webpack's `context`, esbuild's `absWorkingDir`): the
   * default `root` when neither the options nor a config file name one.
   */
  bundlerRoot: string | undefined

  constructor(raw: Options | undefined) {
    this.raw = raw
  }

  /**
   * Runs once per build: options and extraction, which transforms wait for ({@link ready}); then the
   * sync: push, pull, catalogs, which catalog modules, the inline copies and the report wait for
   * ({@link synced}). The bundler layer either waits for both before bundling ({@link startAndSync}) or,
   * when the sync waits on the service ({@link syncWaitsOnService}), bundles meanwhile.
   */
  start(command: 'build' | 'serve'): Promise<StartOutcome> {
    this.command = command
    const generation = ++this.generation
    const run = this.run()
    this.started = run.then(({ outcome }) => outcome)
    this.syncing = run.then(({ extraction }) => this.runSync(generation, extraction))
    // Awaited by synced(); until someone does, a failure must not count as unhandled.
    this.syncing.catch(() => undefined)
    for (const wake of this.waiting.splice(0)) wake()
    return this.started
  }

  /**
   * Starts a build and waits for its sync too, for the bundlers that report all of it at once: the
   * sync's warnings, the extraction's problems, then the threshold's.
   */
  async startAndSync(command: 'build' | 'serve'): Promise<SyncOutcome> {
    return this.withSync(await this.start(command))
  }

  /** A start's outcome and its sync's, once that is done (see {@link startAndSync}). */
  async withSync(started: StartOutcome): Promise<SyncOutcome> {
    const synced = await this.synced()
    const threshold = synced.problems.filter((p) => p.code === 'threshold')
    const warnings = synced.problems.filter((p) => p.code !== 'threshold')
    return {
      problems: [...warnings, ...started.problems, ...threshold],
      info: synced.info,
      report: synced.report,
    }
  }

  /**
   * Drops what a build start made (messages, catalogs, call-site lookups, the report), once the
   * bundler is done with the build: bundlers that keep each finished build's plugin contexts (rolldown,
   * and through it vite) otherwise keep all of it, megabytes per build, in a process that builds many
   * times. The options stay; the next build start makes the rest again.
   */
  release(): void {
    this.generation++
    this.started = undefined
    this.syncing = undefined
    this.messages = new Map()
    this.sync = undefined as unknown as SyncResult
    this.report = undefined as unknown as TmsReport
    this.included = new Set()
    this.plainIds.clear()
    this.clearBuildState()
  }

  /** What each build start makes again from its extraction. */
  private clearBuildState(): void {
    this.fileIds.clear()
    this.entries.clear()
    this.fullCatalogs.clear()
    this.sorted = undefined
    this.startLookups.clear()
    this.startHashes.clear()
    this.forms.clear()
  }

  /**
   * Whether the current build's sync waits on the service (a production build whose options allow
   * the network): then the bundler need not wait for it. Reading the cache alone is quick work that
   * would only compete with the bundler's. Known once the start is {@link ready}.
   */
  get syncWaitsOnService(): boolean {
    return this.command === 'build' && usesService(this.options)
  }

  /** Resolves when the current build start's extraction is done; rejects with its error. */
  async ready(): Promise<void> {
    if (!this.started) await new Promise<void>((wake) => this.waiting.push(wake))
    await this.started
  }

  /** Resolves when the current build's sync is done too (translations, report); rejects with an error of either. */
  async synced(): Promise<SyncOutcome> {
    await this.ready()
    return (await this.syncing)!
  }

  private async run(): Promise<{ outcome: StartOutcome; extraction: ExtractResult }> {
    const from = this.raw?.root ?? this.bundlerRoot ?? process.cwd()
    const merged = { root: from, ...(await loadOptions(this.raw ?? {}, from)) }
    this.options = resolveOptions(merged, { command: this.command })
    if (this.options.mode === 'inline' && this.inlineUnsupported) {
      throw new TmsConfigError('mode', inlineUnsupportedMessage(this.inlineUnsupported))
    }
    this.inline = this.options.mode === 'inline' && !this.devServer
    this.extractOptions = resolveExtractOptions(extractOptionsOf(this.options) as ExtractOptions)
    this.specs = new Map(this.extractOptions.keywords.map((k) => [k.name, k]))
    const extraction = await extractMessages(extractOptionsOf(this.options))
    this.messages = new Map(extraction.messages.map((m) => [m.key, m]))
    this.locales = [...this.options.locales, ...this.options.pseudo]
    this.included = new Set(extraction.files.keys())
    this.clearBuildState()
    for (const [file, fx] of extraction.files) {
      this.fileIds.set(file, this.idsOf(fx))
      this.startHashes.set(file, fx.hash)
    }
    const problems = extraction.diagnostics.map((d) => this.framed(d))
    if (this.command === 'serve') for (const p of problems) if (p.severity === 'error') p.severity = 'warning'
    return { outcome: { problems }, extraction }
  }

  /** The sync of the extraction `generation`'s start made: push, pull, report. */
  private async runSync(generation: number, extraction: ExtractResult): Promise<SyncOutcome> {
    const problems: Problem[] = []
    const info: string[] = []
    const { sync, report } = await syncExtraction(
      {
        options: this.options,
        logger: {
          info: (message) => info.push(message),
          warn: (message) => problems.push({ severity: 'warning', code: 'sync', message }),
        },
        // A dev server serves what the cache holds (`tms pull` refreshes it) and pushes only when asked.
        push: this.options.push,
        pull: this.command === 'build',
        strict: this.command === 'build',
        connect: connectService(),
      },
      extraction,
    )
    // A newer start, or the end of this build, came first: this sync's results are nobody's.
    if (generation === this.generation) {
      this.sync = sync
      this.report = report
    }
    // The report is info, which most bundlers do not print: a translation that cannot show is a warning.
    if (report.unauthorized) {
      problems.push({ severity: 'warning', code: 'sync', message: authorizationHint(report.unauthorized) })
    }
    const failure = thresholdFailure(report, this.options)
    if (failure) {
      problems.push({
        severity: this.command === 'build' ? 'error' : 'warning',
        code: 'threshold',
        message: failure,
      })
    }
    if (this.command === 'serve') for (const p of problems) if (p.severity === 'error') p.severity = 'warning'
    return { problems, info, report }
  }

  /** A diagnostic with the code frame of its file, read again only for the few files with problems. */
  private framed(d: Diagnostic, code?: string): Problem {
    let text = code
    if (text === undefined && d.line !== undefined) {
      try {
        text = readFileSync(d.file, 'utf8')
      } catch {
        text = undefined
      }
    }
    return problemFromDiagnostic(d, text)
  }

  /** Re-reads the include globs: a file created while a dev server or watch runs. */
  async refreshIncluded(): Promise<void> {
    if (!this.extractOptions) return
    this.included = new Set(await findSourceFiles(this.extractOptions))
  }

  private entryId(key: string, sitePlaceholders: readonly string[] | undefined, message?: Message): string {
    const m = message ?? this.messages.get(key)
    const spelling =
      m && sitePlaceholders && !sameSpelling(sitePlaceholders, m.placeholders)
        ? [...sitePlaceholders]
        : undefined
    let id = spelling ? undefined : this.plainIds.get(key)
    if (id === undefined) {
      id = messageId(key, spelling)
      if (!spelling) this.plainIds.set(key, id)
    }
    const known = this.entries.get(id)
    if (!known) {
      this.entries.set(id, spelling ? { key, spelling } : { key })
    } else if (known.key !== key || !sameSpelling(known.spelling ?? [], spelling ?? [])) {
      throw new Error(
        `[unplugin-tms] two messages share the catalog id ${id}: ${JSON.stringify(known.key)} and ${JSON.stringify(key)}; change one text slightly`,
      )
    }
    return id
  }

  private siteLookup(site: CallSite, fx: FileExtraction): SiteLookup | undefined {
    const message = this.messages.get(site.messageKey) ?? fx.messages.find((m) => m.key === site.messageKey)
    if (!message) return undefined
    const id = this.entryId(site.messageKey, site.placeholders, message)
    const text = sameSpelling(site.placeholders, message.placeholders)
      ? message.text
      : restorePlaceholders(message.parsed, site.placeholders)
    const form = isIcuSource(message) ? this.forms.literal(text, this.options.sourceLocale) : undefined
    if (site.pluralKey === undefined) return form === undefined ? { id, text } : { id, text, form }
    const plural = this.messages.get(site.pluralKey) ?? fx.messages.find((m) => m.key === site.pluralKey)
    return { id, text, pluralId: this.entryId(site.pluralKey, site.pluralPlaceholders, plural) }
  }

  private idsOf(fx: FileExtraction): Set<string> {
    const ids = new Set<string>()
    for (const site of fx.calls) {
      const found = this.siteLookup(site, fx)
      this.startLookups.set(site, found)
      if (found) ids.add(found.id)
      if (found?.pluralId) ids.add(found.pluralId)
    }
    return ids
  }

  /** True for a module the transform must look at (an included file). */
  wants(id: string): boolean {
    return this.included.has(stripQuery(id))
  }

  /**
   * Rewrites one module. The call sites come from build-start extraction when the content is the same
   * (found by content hash, no second parse); a module changed since (dev server) is extracted now.
   */
  transform(code: string, id: string): { code: string; map: unknown; problems: Problem[] } | null {
    const file = stripQuery(id)
    if (!this.included.has(file)) return null
    const fx = extractFromCode(file, code, this.extractOptions)
    const problems: Problem[] = []
    // Diagnostics of the content extraction saw at build start were reported then.
    if (this.startHashes.get(file) !== fx.hash) {
      for (const d of fx.diagnostics) problems.push(this.framed(d, code))
    }
    if (fx.calls.length === 0) {
      this.fileIds.set(file, new Set())
      return problems.length > 0 ? { code, map: null, problems } : null
    }
    const result = rewriteMessageCalls({
      code,
      id,
      calls: fx.calls,
      lookup: (site) =>
        this.startLookups.has(site) ? this.startLookups.get(site) : this.siteLookup(site, fx),
      specs: this.specs,
      runtimeModule: this.extractOptions.runtimeModule,
      sourcemap: this.sourcemap,
      importRuntime: !this.inline,
    })
    this.fileIds.set(file, new Set(result?.ids ?? []))
    if (!result) return problems.length > 0 ? { code, map: null, problems } : null
    return { code: result.code, map: result.map, problems }
  }

  /**
   * A locale's catalog: id -> translation in each site's placeholder spelling. With `files`, only the
   * ids those modules use (a production bundle); without, every id (the dev server).
   */
  catalogFor(locale: string, files?: Iterable<string>): CatalogEntries {
    if (!files) return this.fullCatalog(locale).entries
    const used = this.usedIds(files)
    // Every id a module uses is an entry: as many used ids as entries means all of them.
    if (used.size === this.entries.size) return this.fullCatalog(locale).entries
    return this.buildCatalog(locale, used)
  }

  /** `catalogLiteral(catalogFor(locale, files))`, built once when the bundle uses every entry. */
  catalogLiteralFor(locale: string, files?: Iterable<string>): string {
    const used = files && this.usedIds(files)
    if (used && used.size !== this.entries.size) return catalogLiteral(this.buildCatalog(locale, used))
    const full = this.fullCatalog(locale)
    full.literal ??= catalogLiteral(full.entries, this.sortedIds(full.size))
    return full.literal
  }

  /** Every catalog id, sorted, while the session has `size` entries (the one sort the locales share). */
  private sortedIds(size: number): string[] | undefined {
    if (size !== this.entries.size) return undefined
    if (this.sorted?.length !== size) this.sorted = [...this.entries.keys()].sort()
    return this.sorted
  }

  /** The ids the given modules use. */
  usedIds(files: Iterable<string>): Set<string> {
    const used = new Set<string>()
    for (const f of files) for (const i of this.fileIds.get(stripQuery(f)) ?? []) used.add(i)
    return used
  }

  /** The catalog of every entry, made again only when entries were added since (a transform in between). */
  private fullCatalog(locale: string): FullCatalog {
    const known = this.fullCatalogs.get(locale)
    if (known && known.size === this.entries.size) return known
    const made: FullCatalog = {
      size: this.entries.size,
      entries: this.buildCatalog(locale, this.entries.keys()),
    }
    this.fullCatalogs.set(locale, made)
    return made
  }

  private buildCatalog(locale: string, ids: Iterable<string>): Map<string, CompiledMessage> {
    const translations = this.sync.catalogs.get(locale)
    const out = new Map<string, CompiledMessage>()
    for (const id of ids) {
      const entry = this.entries.get(id)
      const text = entry && translations?.get(entry.key)
      if (text === undefined || !entry) continue
      const message = this.messages.get(entry.key)
      if (message && isIcuSource(message)) {
        // An ICU translation ships compiled; one that does not compile leaves the source in place.
        const form = this.forms.form(text, locale)
        if (form !== undefined) out.set(id, form)
        continue
      }
      const respelled = entry.spelling ? this.respell(entry, text) : text
      if (respelled !== undefined) out.set(id, respelled)
    }
    return out
  }

  /** A translation in the message's spelling, re-spelled for sites that name the placeholders otherwise. */
  private respell(entry: Entry, text: string): string | undefined {
    const message = this.messages.get(entry.key)
    if (!message || !entry.spelling) return text
    const checked = checkTranslation(text, message, this.options.placeholder)
    return checked.ok ? restorePlaceholders(checked.parsed, entry.spelling) : undefined
  }

  /** `server`: a server build or vite's SSR, whose runtime has a locale per request (runWithLocale). */
  async runtimeModule(how: { hot: boolean; chunkNames: boolean; server?: boolean }): Promise<string> {
    const runtime = await runtimeCode(how.server ? 'node' : 'browser')
    if (this.inline) return inlineRuntimeModule(runtime, this.inlineLocales())
    return runtimeModule({
      runtime,
      sourceLocale: this.options.sourceLocale,
      locales: this.locales,
      hot: how.hot,
      chunkNames: how.chunkNames,
    })
  }

  /** The catalog module of a locale: a marker to fill in later, or the literal (dev, webpack's final pass). */
  catalogModule(locale: string, how: { marker: true } | { files?: Iterable<string> }): string {
    const index = this.locales.indexOf(locale)
    if (index < 0) throw new Error(`[unplugin-tms] no catalog for locale ${locale}`)
    if ('marker' in how) return markerCatalogModule(index, literalDigest(this.catalogLiteralFor(locale)))
    return literalCatalogModule(this.catalogLiteralFor(locale, how.files))
  }

  /** The locales of an inline build's copies: the source locale, the target locales, the pseudo-locales. */
  inlineLocales(): string[] {
    return [this.options.sourceLocale, ...this.locales]
  }

  /**
   * What the copy of `locale` puts in place of each message: the translation in the site's placeholder
   * spelling, else (source locale, untranslated, rejected translation) the source text.
   */
  inlineTexts(locale: string): LocaleTexts {
    const translations = locale === this.options.sourceLocale ? undefined : this.sync.catalogs.get(locale)
    const textOf = (entry: Entry | undefined, source: string | undefined): string | undefined => {
      const translated = entry && translations?.get(entry.key)
      if (translated !== undefined) {
        const text = entry!.spelling ? this.respell(entry!, translated) : translated
        if (text !== undefined) return text
      }
      return source
    }
    return {
      locale,
      form: (id, text) => {
        const message = this.messages.get(this.entries.get(id)?.key ?? '')
        return message && isIcuSource(message) ? this.forms.literal(text, locale) : undefined
      },
      text: (id) => {
        const entry = this.entries.get(id)
        return textOf(entry, entry && this.sourceTextOf(entry))
      },
      textsOf: (ids) => {
        const known = this.inlineEntries(ids)
        return known.entries.map((entry, i) => textOf(entry, known.sources[i]))
      },
    }
  }

  /** The entries of the given ids and their source texts, looked up once for every locale's copy. */
  private inlineEntries(ids: readonly string[]): InlineEntries {
    let known = this.inlineLookups.get(ids)
    if (!known || known.size !== this.entries.size) {
      const entries = ids.map((id) => this.entries.get(id))
      known = {
        size: this.entries.size,
        entries,
        sources: entries.map((entry) => entry && this.sourceTextOf(entry)),
      }
      this.inlineLookups.set(ids, known)
    }
    return known
  }

  /** An entry's source text in its sites' placeholder spelling; undefined for an unknown message. */
  private sourceTextOf(entry: Entry): string | undefined {
    const message = this.messages.get(entry.key)
    if (!message) return undefined
    return entry.spelling ? restorePlaceholders(message.parsed, entry.spelling) : message.text
  }
}

/** The error for `mode: 'inline'` with a bundler that cannot make the copies. */
export function inlineUnsupportedMessage(bundler: string): string {
  return `mode: 'inline' is not available with ${bundler}: use vite, rollup, rolldown, webpack or rspack for inline builds, or mode: 'runtime' with ${bundler}`
}

export function stripQuery(id: string): string {
  const q = id.indexOf('?')
  return q < 0 ? id : id.slice(0, q)
}
