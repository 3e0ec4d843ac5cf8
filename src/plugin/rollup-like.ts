import { join } from 'node:path'
import type { UnpluginOptions } from 'unplugin'
import type { StoredText } from '../core/stored-text'
import { type Problem, toRollupLog, toText, vitePrinter } from './problems'
import { REPORT_FILE, reportJson, reportText } from './report'
import type { SyncOutcome, TmsSession } from './session'
import {
  catalogModuleLocale,
  fillCatalogMarkers,
  filledCatalogBytes,
  hasCatalogMarker,
  jsonExpression,
  literalDigest,
} from './virtual'

/**
 * Rollup, rolldown and vite: the build start reports through `this.warn` / `this.error`, the report
 * is an emitted asset, and the catalog markers are filled once every module of the graph is known: a
 * catalog's own chunk in generateBundle, written as a file of bytes (see {@link writeCatalogFiles}),
 * any other chunk holding a marker in renderChunk.
 */

/** The part of rollup's and rolldown's plugin context these hooks use. */
interface RollupLikeContext {
  warn(log: ReturnType<typeof toRollupLog>): void
  error(log: ReturnType<typeof toRollupLog>): never
  info?(log: string | { message: string }): void
  addWatchFile(id: string): void
  emitFile(file: { type: 'asset'; fileName: string; source: string }): string
  getModuleIds(): IterableIterator<string>
  meta: { watchMode?: boolean }
}

/** Hands problems to the bundler: every warning, then the first error (which stops the build). */
export function reportProblems(
  ctx: RollupLikeContext,
  problems: readonly Problem[],
  viteCommand?: 'build' | 'serve',
): void {
  const printer = viteCommand ? vitePrinter(ctx, viteCommand) : 'fields'
  for (const p of problems) if (p.severity === 'warning') ctx.warn(toRollupLog(p, printer))
  const error = problems.find((p) => p.severity === 'error')
  if (error) ctx.error(toRollupLog(error))
}

export interface RollupLikeState {
  /** Vite only: `serve` or `build`, known from configResolved (set: the build is vite's, whose logger prints a warning's text alone). */
  command?: 'build' | 'serve'
  /** Vite's logger, when there is one. */
  info?: (text: string) => void
  /** Vite's logger's errors: a dev server's sync that failed after the server listened. */
  error?: (text: string) => void
  /**
   * The modules of this build's graph, listed once it is rendered: one list for every chunk and
   * output, so the ids they use are gathered once for all locales.
   */
  modules?: string[]
}

function cacheFiles(session: TmsSession): string[] {
  const { cacheDir, locales, retrievalType } = session.options
  return [
    join(cacheDir, 'manifest.json'),
    ...locales.map((l) => join(cacheDir, 'locales', `${l}.${retrievalType}.json`)),
  ]
}

export function rollupLikeHooks(
  session: TmsSession,
  state: RollupLikeState,
): Pick<UnpluginOptions, 'buildStart' | 'buildEnd'> & {
  renderStart: { order: 'post'; handler(): void }
  closeBundle(): Promise<void>
} {
  /** This build's start: null before it, 'whole' when buildStart waited for the sync too. */
  let started: 'extraction' | 'whole' | null = null
  /** Builds started and not closed yet: a session shared by overlapping builds is released after the last. */
  let open = 0
  /** Counts build starts and releases: a dev server's sync reported late is reported only for its own build. */
  let generation = 0
  /** A production build's sync is done: its catalogs are made when its chunks start to render. */
  let catalogsDue = false
  /**
   * Every module is transformed and the sync is done: the catalogs renderChunk will fill are made now,
   * on the next turn of the event loop, while the bundler renders on its own threads (the main thread
   * waits on them) instead of after, when the chunks wait for them. Called from the last renderStart,
   * not from buildEnd: between buildEnd and renderStart rolldown links and then calls the other
   * plugins' hooks on the main thread, which this work would hold up. The same list of modules and
   * the same function as renderChunk's, so the literal is the one renderChunk would make; a failure
   * here is left to renderChunk, which makes it again and reports it.
   */
  const prepareCatalogs = (ctx: RollupLikeContext): void => {
    if (session.openBuild?.inline || typeof ctx.getModuleIds !== 'function') return
    const files = [...ctx.getModuleIds()]
    state.modules = files
    setImmediate(() => {
      // The build closed first (or a new one started): its catalogs are nobody's.
      if (state.modules !== files) return
      try {
        for (const locale of session.build.locales) session.build.storedCatalogLiteralFor(locale, files)
      } catch {
        // renderChunk asks again and reports.
      }
    })
  }
  /** A sync's info lines and problems, through the bundler's logger (a problem of error severity throws). */
  const tell = (ctx: RollupLikeContext, outcome: SyncOutcome): void => {
    for (const line of outcome.info) log(ctx, state, `[unplugin-tms] ${line}`)
    reportProblems(ctx, outcome.problems, state.command)
  }
  return {
    async buildStart() {
      const ctx = this as unknown as RollupLikeContext
      const command = state.command ?? (ctx.meta?.watchMode ? 'serve' : 'build')
      open++
      const mine = ++generation
      started = null
      state.modules = undefined
      const extraction = await session.start(command)
      if (command === 'build') {
        // The sync (a pull, or only the cache read of an offline build) goes on while the bundler
        // bundles: its native threads parse and link meanwhile. buildEnd waits for it and reports it.
        reportProblems(ctx, extraction.problems, state.command)
        started = 'extraction'
        return
      }
      if (state.command === 'serve') {
        // Vite's dev server listens while the sync reads the cache: the page's first requests overlap
        // it, its modules wait for the extraction (done) and its catalogs for the sync. A dev server's
        // sync problems are warnings, told when it is done; the extraction's may stop the server now.
        reportProblems(ctx, extraction.problems, state.command)
        started = 'whole'
        session.synced().then(
          (outcome) => {
            if (mine !== generation) return
            tell(ctx, outcome)
            log(ctx, state, reportText(outcome.report))
          },
          (error: Error) => {
            if (mine === generation)
              state.error?.(toText({ severity: 'error', code: 'sync', message: error.message }))
          },
        )
        return
      }
      // A watch (rollup's, rolldown's): each build waits for its sync, and the cache files are watched,
      // so a `tms pull` in another terminal rebuilds with the new translations.
      const outcome = await session.withSync(extraction)
      started = 'whole'
      tell(ctx, outcome)
      for (const f of cacheFiles(session)) ctx.addWatchFile(f)
    },
    async buildEnd(error?: unknown) {
      const ctx = this as unknown as RollupLikeContext
      if (started === null) return
      let outcome: SyncOutcome
      try {
        outcome = await session.synced()
      } catch (syncError) {
        // A failed build says why already; else the sync's failure is the build's.
        if (error) return
        throw syncError
      }
      if (error) return
      if (started === 'extraction') {
        catalogsDue = true
        tell(ctx, outcome)
      }
      if (state.command === 'serve' || !session.options.report) return
      log(ctx, state, reportText(outcome.report))
      ctx.emitFile({ type: 'asset', fileName: REPORT_FILE, source: reportJson(outcome.report) })
    },
    // After the other plugins' renderStart: the bundler renders its chunks once all have returned.
    renderStart: {
      order: 'post',
      handler() {
        if (!catalogsDue) return
        catalogsDue = false
        prepareCatalogs(this as unknown as RollupLikeContext)
      },
    },
    // After the last hook of a build (each rebuild of a watch, a dev server's close).
    async closeBundle() {
      open = Math.max(0, open - 1)
      if (open > 0) return
      generation++
      catalogsDue = false
      started = null
      state.modules = undefined
      // The catalog memos this build wrote are on disk when it ends: the next build may read them.
      const written = session.memosWritten()
      session.release()
      await written
    },
  }
}

/** What a catalog's own chunk is known by: rollup's and rolldown's rendered and output chunks alike. */
export interface CatalogChunk {
  facadeModuleId: string | null
  moduleIds: readonly string[]
}

/** A bundle as generateBundle hands it: each output file by its name. */
export type OutputFiles = Record<string, ({ type: 'chunk'; code: string } & CatalogChunk) | { type: 'asset' }>

/** An output's `sourcemap` option: true, 'inline' and 'hidden' all write a map. */
export type Sourcemap = boolean | 'inline' | 'hidden' | undefined

/** The part of the plugin context the catalog files' hooks use. */
export interface CatalogFilesContext {
  getModuleIds(): IterableIterator<string>
  emitFile(file: { type: 'asset'; fileName: string; source: Uint8Array }): string
}

/**
 * The locale of a chunk that holds its catalog module alone (a locale's loader imports it, so it is
 * a chunk of its own unless the app's chunking put more in it); undefined for any other chunk.
 */
export function catalogChunkLocale(chunk: CatalogChunk): string | undefined {
  const { facadeModuleId, moduleIds } = chunk
  if (!facadeModuleId || moduleIds.length !== 1 || moduleIds[0] !== facadeModuleId) return undefined
  return catalogModuleLocale(facadeModuleId)
}

/** The modules of the build's graph, listed once for every chunk and output. */
function graphModules(state: RollupLikeState, ctx: { getModuleIds(): IterableIterator<string> }): string[] {
  state.modules ??= [...ctx.getModuleIds()]
  return state.modules
}

/** The catalog literal of a marker's locale place (as its memo holds it), of the graph's modules. */
function storedLiterals(
  session: TmsSession,
  state: RollupLikeState,
  ctx: { getModuleIds(): IterableIterator<string> },
): (index: number) => StoredText | undefined {
  const files = graphModules(state, ctx)
  return (index) => {
    const locale = session.build.locales[index]
    return locale === undefined ? undefined : session.build.storedCatalogLiteralFor(locale, files)
  }
}

/**
 * Fills the catalog markers of a rendered chunk with the catalogs of the modules of the build's graph
 * (rollup, rolldown, vite), but those of a catalog's own chunk written without a source map: they are
 * filled as its file is written ({@link writeCatalogFiles}).
 */
export function fillChunkCatalogs(
  session: TmsSession,
  state: RollupLikeState,
  ctx: { getModuleIds(): IterableIterator<string> },
  code: string,
  chunk: CatalogChunk & { fileName: string },
  sourcemap: Sourcemap,
): ReturnType<typeof fillCatalogMarkers> {
  if (!hasCatalogMarker(code)) return null
  if (!sourcemap && catalogChunkLocale(chunk) !== undefined) return null
  const files = graphModules(state, ctx)
  const catalogOf = (index: number) => {
    const locale = session.build.locales[index]
    return locale === undefined ? undefined : session.build.catalogLiteralFor(locale, files)
  }
  return fillCatalogMarkers(code, chunk.fileName, catalogOf, !!sourcemap, jsonExpression)
}

/**
 * What a catalog's own chunk adds to its hash (augmentChunkHash): its catalog's digest. The chunk is
 * hashed with its marker, filled only after (see {@link writeCatalogFiles}), and its name must change
 * with its catalog, which the marker's text does not.
 */
export function catalogChunkHash(
  session: TmsSession,
  state: RollupLikeState,
  ctx: { getModuleIds(): IterableIterator<string> },
  chunk: CatalogChunk,
): string | undefined {
  const locale = catalogChunkLocale(chunk)
  if (locale === undefined) return undefined
  return literalDigest(session.build.storedCatalogLiteralFor(locale, graphModules(state, ctx)))
}

/**
 * Writes each catalog's own chunk as a file of bytes (generateBundle, after the other plugins'): its
 * code with the marker filled from the catalog memo's bytes, undecoded. As a chunk it would go through
 * the bundler's minifier and back into JavaScript, megabytes per locale, for a string no minifier
 * shortens (docs/bundling.md: 0.93x the wall time of BENCHMARKS.md's build). Left to renderChunk
 * when the output has source maps.
 */
export function writeCatalogFiles(
  session: TmsSession,
  state: RollupLikeState,
  ctx: CatalogFilesContext,
  sourcemap: Sourcemap,
  bundle: OutputFiles,
): void {
  if (sourcemap) return
  for (const fileName of Object.keys(bundle)) {
    const chunk = bundle[fileName]!
    if (chunk.type !== 'chunk' || catalogChunkLocale(chunk) === undefined) continue
    const source = filledCatalogBytes(chunk.code, storedLiterals(session, state, ctx))
    if (!source) continue
    delete bundle[fileName]
    ctx.emitFile({ type: 'asset', fileName, source })
  }
}

function log(ctx: RollupLikeContext, state: RollupLikeState, text: string): void {
  if (state.info) state.info(text)
  // Rollup and rolldown put the plugin's name in front themselves.
  else if (typeof ctx.info === 'function') ctx.info(text.replace(/^\[unplugin-tms\] /, ''))
}
