import type { SourceMap } from 'magic-string'
import { loadOptions } from '../config'
import { unknownStyleDiagnostics } from '../core/check/styles'
import {
  type ExtractOptions,
  type ExtractResult,
  extractFromCode,
  extractMessages,
  findSourceFiles,
  resolveExtractOptions,
  transientExtraction,
} from '../core/extract/index'
import {
  extractOptionsOf,
  type PreparedSync,
  prepareSync,
  releasePrepared,
  syncExtraction,
} from '../core/pipeline'
import { buildReport, type TmsReport } from '../core/report'
import { settingsFailure, translationsOf } from '../core/sync'
import { changedTranslations, recheckLocales } from '../core/sync/recheck'
import {
  inlineUnsupportedMessage,
  type Options,
  type ResolvedOptions,
  resolveOptions,
  TmsConfigError,
} from '../options'
import { connectService } from '../service'
import { Build, stripQuery } from './build'
import { IdsMemo } from './ids-memo'
import { inlineRuntimeModule } from './inline/index'
import { moduleLevelProblems } from './module-level'
import { framedProblem, type Problem, withReportProblems } from './problems'
import { runtimeCode } from './runtime-code'
import { rewriteMessageCalls } from './transform'
import { loadTransformMemo } from './transform-memo'
import type { RuntimeModuleHow } from './virtual'
import { literalCatalogModule, literalDigest, markerCatalogModule, runtimeModule } from './virtual'
import { isCompiledVuePart, templateProblem } from './vue-sfc'

export { stripQuery }

/** What the bundler layer tells the session before a build starts. */
export interface BundlerSetup {
  /**
   * The bundler's own root (vite's `root`, webpack's `context`, esbuild's `absWorkingDir`): the
   * default `root` when neither the options nor a config file name one.
   */
  root?: string
  /** A dev server (vite serve) runs runtime mode even when `mode: 'inline'`. */
  devServer?: boolean
  /** Whether transforms return source maps; off only where the bundler says it will not use them. */
  sourcemap?: boolean
  /** A bundler that cannot make inline copies: its name, for the error. */
  inlineUnsupported?: string
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
 * One plugin instance across builds (a watch or dev server runs many): the bundler's setup, and the
 * {@link Build} of the current build start, made by {@link start} and dropped by {@link release}.
 * Bundler hooks call into it; it holds no bundler knowledge, and the catalog work is core's
 * (`src/core/catalog/index.ts`). Its jobs are the build's life (start, sync, release), the transform
 * and the runtime and catalog modules; what a build holds (locales, catalogs, inline texts, the sync)
 * hooks read from the `Build` itself, through {@link build} or {@link openBuild}.
 */
export class TmsSession {
  readonly raw: Options | undefined
  command: 'build' | 'serve' = 'build'
  private setup: BundlerSetup = {}
  /** The current build start's; undefined before the first start and after a release. */
  private current: Build | undefined
  /** The options of the last build start: they outlive its release (a dev server's cache watch reads them). */
  private lastOptions: ResolvedOptions | undefined
  private started: Promise<StartOutcome> | undefined
  private syncing: Promise<SyncOutcome> | undefined
  /** The current start's connection has been taken by the service (see ServiceConnection.accepted). */
  private accepted: Promise<{ accepted?: Promise<void> } | undefined> | undefined
  /** A start made before the bundler's (vite's buildApp): the bundler's next start takes it. */
  private early: Promise<StartOutcome> | undefined
  /** Counts build starts and releases: a sync that a newer start or a release outdated keeps out. */
  private generation = 0
  /** Hooks that ran before the first build start (a dev server's configureServer). */
  private readonly waiting: (() => void)[] = []
  /**
   * Called when a transform gave the build ids it did not have (a message typed in a dev server):
   * with `sourceCatalog` the catalogs a page loaded must follow (dev.ts).
   */
  onIdsAdded: (() => void) | undefined

  constructor(raw: Options | undefined) {
    this.raw = raw
  }

  /** What the bundler tells before a build starts; each call adds to the last. */
  configure(setup: BundlerSetup): void {
    this.setup = { ...this.setup, ...setup }
  }

  /** The current build start's state; an error before the first start or after the build closed. */
  get build(): Build {
    if (!this.current) throw new Error('[unplugin-tms] no build has started: a hook ran before buildStart')
    return this.current
  }

  /** The current build start's state when one is open: what dev-server hooks and the overlay read between builds. */
  get openBuild(): Build | undefined {
    return this.current
  }

  /** The options of the last build start; an error before the first. */
  get options(): ResolvedOptions {
    if (!this.lastOptions)
      throw new Error('[unplugin-tms] no build has started: the options are not resolved yet')
    return this.lastOptions
  }

  /** The options once a build has started, else undefined. */
  get optionsIfStarted(): ResolvedOptions | undefined {
    return this.lastOptions
  }

  /**
   * Runs once per build: options and extraction, which transforms wait for ({@link ready}); then the
   * sync: push, pull, catalogs, which catalog modules, the inline copies and the report wait for
   * ({@link synced}). The bundler layer either waits for both before bundling ({@link startAndSync}) or,
   * in a production build of rollup, rolldown or vite, bundles meanwhile.
   */
  start(command: 'build' | 'serve'): Promise<StartOutcome> {
    const early = this.early
    this.early = undefined
    if (early && command === this.command) return early
    this.command = command
    const generation = ++this.generation
    const run = this.run(generation)
    this.started = run.then(({ outcome }) => outcome)
    // Wrapped: a promise returned as it is would be awaited here, and a refusal never settles it.
    this.accepted = run.then(async ({ prepared }) => ({ accepted: (await prepared.connection)?.accepted }))
    this.accepted.catch(() => undefined)
    this.syncing = run.then(({ extraction, build, prepared }) =>
      this.runSync(generation, extraction, build, prepared),
    )
    // Awaited by synced(); until someone does, a failure must not count as unhandled.
    this.syncing.catch(() => undefined)
    for (const wake of this.waiting.splice(0)) wake()
    return this.started
  }

  /**
   * Vite's buildApp: starts the build before the bundler does and resolves once it is past the
   * failures a user meets first (a setting, the credentials, the project), which then reach vite's
   * CLI as they are rather than inside the bundler's error of the build. Costs the wait for the
   * service's first answer before bundling; the rest of the sync still runs beside the bundler.
   */
  async checked(): Promise<void> {
    const started = this.start('build')
    this.early = started
    await started
    const failure = settingsFailure(this.options)
    if (failure) throw failure
    const syncing = this.syncing
    const accepted = (await this.accepted?.catch(() => undefined))?.accepted
    // No network: nothing further fails before the cache is read, which overlaps the bundling.
    if (!syncing || !accepted) return
    await Promise.race([syncing, accepted])
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
    this.early = undefined
    this.accepted = undefined
    this.started = undefined
    this.syncing = undefined
    this.current?.dispose()
    this.current = undefined
  }

  /** Resolves when the catalog, transform and ids memos and kept copies the current build wrote are on disk (a failed write is only a miss later). */
  async memosWritten(): Promise<void> {
    const build = this.current
    const kept = (id: string): boolean => build?.includes(id) ?? false
    const memos = [build?.sync?.memos?.settled(), build?.memo?.save(kept), build?.idsMemo?.saved()]
    await Promise.all([...memos, build?.copiesWritten()])
  }

  /** Resolves when the current build start's extraction is done; rejects with its error. */
  async ready(): Promise<void> {
    if (!this.started) await new Promise<void>((wake) => this.waiting.push(wake))
    await this.started
  }

  /** Resolves when the current build's sync is done too (translations, report); rejects with an error of either. */
  async synced(): Promise<SyncOutcome> {
    await this.ready()
    const syncing = this.syncing
    if (!syncing) throw new Error('[unplugin-tms] the build closed before its sync was asked for')
    return syncing
  }

  /**
   * {@link synced}, and again for each build start that came meanwhile: a dev server's refresh (a
   * cache change, its own sync's push among them) may start a new build while a catalog waits, and
   * that build is the one `build` gives next. So what reads `build` after this finds its sync done.
   */
  async syncedLatest(): Promise<SyncOutcome> {
    for (;;) {
      const generation = this.generation
      const outcome = await this.synced()
      // The same start, or a release (the server closed): nothing newer to wait for.
      if (generation === this.generation || !this.started) return outcome
    }
  }

  private async run(generation: number): Promise<{
    outcome: StartOutcome
    extraction: ExtractResult
    build: Build
    prepared: PreparedSync
  }> {
    const from = this.raw?.root ?? this.setup.root ?? process.cwd()
    const merged = { root: from, ...(await loadOptions(this.raw ?? {}, from)) }
    const options = resolveOptions(merged, { command: this.command })
    this.lastOptions = options
    if (options.mode === 'inline' && this.setup.inlineUnsupported) {
      throw new TmsConfigError('mode', inlineUnsupportedMessage(this.setup.inlineUnsupported))
    }
    const extractOptions = resolveExtractOptions(extractOptionsOf(options) as ExtractOptions)
    const inline = options.mode === 'inline' && !this.setup.devServer
    const prepared = prepareSync(options, connectService(), true, this.command === 'serve')
    // Read beside the extraction: the transforms of unchanged modules come from it.
    const memo = loadTransformMemo(options, extractOptions, {
      inline,
      sourcemap: this.setup.sourcemap ?? true,
      keepPositions: this.setup.devServer === true,
    })
    // The ids of the last build start's messages: an unchanged app reads them rather than hash each key.
    const idsMemo = IdsMemo.load(options.cacheDir, options.root)
    let extraction: ExtractResult
    try {
      extraction = await extractMessages(extractOptionsOf(options))
    } catch (error) {
      await releasePrepared(prepared)
      throw error
    }
    const ids = await idsMemo
    const build = new Build(options, extractOptions, inline, extraction, ids)
    build.memo = await memo
    if (this.setup.devServer) build.memo.autosave((id) => build.includes(id))
    // A release (the dev server closed) or a newer start came first: this build is nobody's.
    if (generation === this.generation) {
      this.current?.dispose()
      this.current = build
    }
    // Asked only when a message may name a style: a warm start then reads no message (see `Merged`).
    const styles =
      extraction.styled === 0
        ? []
        : unknownStyleDiagnostics(extraction.messages, options.formats, options.placeholder, options.root)
    const problems = [...extraction.diagnostics, ...styles].map((d) => framedProblem(d))
    if (this.command === 'serve') for (const p of problems) if (p.severity === 'error') p.severity = 'warning'
    return { outcome: { problems }, extraction, build, prepared }
  }

  /** The sync of the extraction `generation`'s start made: push, pull, report. */
  private async runSync(
    generation: number,
    extraction: ExtractResult,
    build: Build,
    prepared: PreparedSync,
  ): Promise<SyncOutcome> {
    const problems: Problem[] = []
    const info: string[] = []
    const { options } = build
    const { sync, report } = await syncExtraction(
      {
        options,
        logger: {
          info: (message) => info.push(message),
          warn: (message) => problems.push({ severity: 'warning', code: 'sync', message }),
        },
        // A dev server serves what the cache holds (`tms pull` refreshes it) and pushes only when asked.
        push: options.push,
        pull: this.command === 'build',
        strict: this.command === 'build',
        memo: true,
        keepTexts: build.inline,
        connect: connectService(),
        prepared,
      },
      extraction,
    )
    // A newer start, or the end of this build, came first: this sync's results are nobody's.
    if (generation === this.generation) {
      build.sync = sync
      build.report = report
      if (this.setup.devServer) build.autosaveCatalogMemos()
    }
    return { problems: withReportProblems(problems, report, options, this.command), info, report }
  }

  /**
   * A dev server's catalog refresh after a `tms pull` changed only these locales' cache files: their
   * translations read and checked again for the current build (see `recheckLocales`), its extraction,
   * ids and manifest kept. Undefined when the build cannot be rechecked (no sync yet, a file that does
   * not read): the caller starts anew.
   */
  async recheck(locales: readonly string[]): Promise<SyncOutcome | undefined> {
    const build = this.current
    const sync = build?.sync
    if (!build || !sync || locales.length === 0) return undefined
    const problems: Problem[] = []
    const info: string[] = []
    const rechecked = await recheckLocales({
      options: build.options,
      messages: build.startMessages,
      sync,
      locales,
      memos: build.recheckMemos,
      logger: {
        info: (message) => info.push(message),
        warn: (message) => problems.push({ severity: 'warning', code: 'sync', message }),
      },
    })
    // The server closed, or a new start came, meanwhile.
    if (!rechecked || build !== this.current || sync !== build.sync) return undefined
    // Decoded before the memos go, so that which translations changed is known.
    const were = new Map(locales.map((l) => [l, translationsOf(sync, l)]))
    sync.memos?.forget(locales)
    for (const [locale, { texts, coverage }] of rechecked) {
      const was = were.get(locale)
      sync.translations.set(locale, texts)
      sync.coverage[locale] = coverage
      // Which translations changed is known where the build had them read.
      build.translationsChanged(locale, was && changedTranslations(was, texts))
    }
    const report = buildReport(sync, build.report?.requests ?? 0, build.report?.unanswered ?? 0)
    build.report = report
    return { problems: withReportProblems(problems, report, build.options, this.command), info, report }
  }

  /** Re-reads the include globs when `file`, created or deleted while a dev server or watch runs, is or was a source. */
  async refreshIncluded(file: string): Promise<void> {
    const build = this.current
    if (!build?.mayInclude(file)) return
    build.included = new Set(await findSourceFiles(build.extractOptions))
  }

  /** True for a module the transform must look at (an included file). */
  wants(id: string): boolean {
    return this.current?.includes(id) ?? false
  }

  /**
   * Rewrites one module. The call sites come from build-start extraction when the content is the same
   * (found by content hash, no second parse); a module changed since (dev server) is extracted now.
   */
  transform(code: string, id: string): { code: string; map: SourceMap | null; problems: Problem[] } | null {
    const build = this.current
    const file = stripQuery(id)
    if (!build?.includes(file)) return null
    // Vite's requests of a .vue file's parts (`?vue&type=script`) hold Vue's output for the file this
    // transform already rewrote: no message site, and the ids the file uses stay as recorded.
    if (id !== file && isCompiledVuePart(file, code)) return null
    // Astro's requests of an .astro file's parts (`?astro&type=script`, `&type=style`) hold a <script>
    // or <style> body, not the component: read as a template it would give sites at wrong offsets.
    if (id !== file && /\.astro$/i.test(file)) return null
    const remembered = build.memo?.hit(id, code, build.startHashes.get(file), build.ids)
    if (remembered) {
      build.setFileIds(file, remembered.ids, remembered.hash)
      const { problems } = remembered
      if (remembered.code !== null) return { code: remembered.code, map: remembered.map, problems }
      return problems.length > 0 ? { code, map: null, problems } : null
    }
    // Read once here: decoded for this call only, so a build keeps no per-site object of its modules.
    const fx = transientExtraction(extractFromCode(file, code, build.extractOptions))
    const problems: Problem[] = []
    // Diagnostics of the content extraction saw at build start were reported then.
    if (build.startHashes.get(file) !== fx.hash) {
      const { formats, placeholder, root } = build.options
      for (const d of [
        ...fx.diagnostics,
        ...unknownStyleDiagnostics(fx.messages, formats, placeholder, root),
      ])
        problems.push(framedProblem(d, code))
    }
    // Only the content the build start extracted: its keys, and so its ids, are the build's.
    const memo = build.startHashes.get(file) === fx.hash ? build.memo : undefined
    // The memo keeps the ids under the content hash and this build's stamp (see `ModuleUsage`).
    const kept = memo ? fx.hash : undefined
    if (fx.calls.length === 0) {
      build.setFileIds(file, new Set(), kept)
      memo?.record(id, fx.hash, { code: null, map: null, problems }, new Set(), build.ids)
      return problems.length > 0 ? { code, map: null, problems } : null
    }
    const template = templateProblem(fx, code, build.extractOptions.cwd)
    if (template) problems.push(framedProblem(template, code))
    if (!build.inline) {
      for (const d of moduleLevelProblems(fx, code, build.extractOptions.cwd))
        problems.push(framedProblem(d, code))
    }
    const known = build.idSources.size
    const result = rewriteMessageCalls({
      code,
      id,
      calls: fx.calls,
      lookup: (site) => build.lookup(site, fx),
      specs: build.specs,
      runtimeModule: build.extractOptions.runtimeModule,
      sourcemap: this.setup.sourcemap ?? true,
      keepPositions: this.setup.devServer === true,
      importRuntime: !build.inline,
      idOnly: build.sourceCatalog,
    })
    const used = new Set(result?.ids ?? [])
    build.setFileIds(file, used, kept)
    if (build.sourceCatalog && build.idSources.size > known) this.onIdsAdded?.()
    memo?.record(
      id,
      fx.hash,
      { code: result?.code ?? null, map: result?.map ?? null, problems },
      used,
      build.ids,
    )
    if (!result) return problems.length > 0 ? { code, map: null, problems } : null
    return { code: result.code, map: result.map, problems }
  }

  /** `server`: a server build or vite's SSR, whose runtime has a locale per request (runWithLocale). */
  async runtimeModule(how: RuntimeModuleHow & { server?: boolean }): Promise<string> {
    const build = this.build
    const runtime = await runtimeCode(how.server ? 'node' : 'browser')
    if (build.inline) return inlineRuntimeModule(runtime, build.inlineLocales())
    return runtimeModule({
      ...how,
      runtime,
      sourceLocale: build.options.sourceLocale,
      locales: build.locales,
    })
  }

  /**
   * The catalog module of a locale: a marker to fill in later, or the literal (webpack's final
   * pass). A marker names the digest of the catalog of every id (`'digest'`: esbuild, which names its
   * chunks before they are filled), or none yet (`'render'`: rollup, rolldown and vite hash a chunk
   * after renderChunk, which fills it), which spares making every catalog twice.
   */
  catalogModule(locale: string, how: { marker: 'digest' | 'render' } | { files?: Iterable<string> }): string {
    const build = this.build
    const index = build.locales.indexOf(locale)
    if (index < 0) throw new Error(`[unplugin-tms] no catalog for locale ${locale}`)
    if ('marker' in how) {
      const digest = how.marker === 'digest' ? literalDigest(build.catalogLiteralFor(locale)) : '0'
      return markerCatalogModule(index, digest)
    }
    return literalCatalogModule(build.catalogLiteralFor(locale, how.files))
  }
}
