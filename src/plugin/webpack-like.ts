import { join, resolve, sep } from 'node:path'
import type { Compiler as RspackCompiler } from '@rspack/core'
import type { UnpluginBuildContext } from 'unplugin'
import type { Compiler as WebpackCompiler } from 'webpack'
import { VERSION } from '../version'
import { rebuildPlan } from './cache-changes'
import { catalogBaseModuleLocale, hotCatalogsOf } from './hot-catalog'
import { inlinePublicPath, type LikeInlineCompilation, type LikeInlineCompiler } from './inline/index'
import { toText } from './problems'
import type { HandedRebuild, PullsCompiler } from './pull-channel'
import { REPORT_FILE, reportBody, reportJson } from './report'
import { type SyncOutcome, stripQuery, type TmsSession } from './session'
import { catalogModuleLocale } from './virtual'
import { warmWatch } from './warm-up'
import { changedCatalogModules, virtualIdOf, type WebpackLikeState } from './watch-catalogs'

/**
 * webpack and rspack: problems go into the compilation's warnings and errors; the catalog modules are
 * built first with an empty catalog and rebuilt in the compiler's finishMake, when every module of the
 * compilation is known, so the catalog chunks go through the rest of the pipeline (eval devtool,
 * minifier, real content hash) like any module. finishMake, not the compilation's finishModules:
 * rspack 2.3.3 and later refuse a rebuild in finishModules, and finishMake has the whole module graph
 * on webpack 5 and on every rspack 2 release.
 */

/** The slice of webpack's and rspack's compiler and compilation this file uses; both have it. */
interface LikeModule {
  resource?: string
}
export interface LikeCompilation extends LikeInlineCompilation {
  modules: Iterable<LikeModule>
  warnings: unknown[]
  errors: unknown[]
  fileDependencies: { add(file: string): void }
  rebuildModule(module: LikeModule, callback: (error: Error | null) => void): void
}
export interface LikeCompiler extends LikeInlineCompiler {
  options: LikeInlineCompiler['options'] & {
    context?: string
    devtool?: unknown
    plugins?: unknown[]
    cache?: unknown
    experiments?: unknown
    lazyCompilation?: unknown
    output: { clean?: unknown }
  }
  watchMode?: boolean
  /** Watch mode: the files changed since the last compilation (undefined for the first). */
  modifiedFiles?: ReadonlySet<string>
  webpack: LikeInlineCompiler['webpack'] & {
    Compilation: { PROCESS_ASSETS_STAGE_ADDITIONAL: number }
    WebpackError: new (message: string) => Error
    SourceMapDevToolPlugin?: abstract new (...args: never[]) => unknown
    EvalSourceMapDevToolPlugin?: abstract new (...args: never[]) => unknown
  }
  hooks: {
    thisCompilation: { tap(name: string, fn: (compilation: LikeCompilation) => void): void }
    finishMake: { tapPromise(name: string, fn: (compilation: LikeCompilation) => Promise<void>): void }
    done: { tap(name: string, fn: () => void): void }
    watchClose: { tap(name: string, fn: () => void): void }
  }
  getInfrastructureLogger(name: string): { info(text: string): void }
}

/**
 * webpack's or rspack's compiler as the slice this plugin reads: the one typed adapter between the
 * bundlers' own types and the slices. Both declare more than the plugin reads and differ where it does
 * not look (their `Module` type has no `resource`, which the modules the plugin reads all have), so
 * neither is assignable to a slice as declared; the slices are checked against both bundlers by the
 * bundler tests.
 */
export function compilerSlice(compiler: WebpackCompiler | RspackCompiler): LikeCompiler & PullsCompiler {
  return compiler as unknown as LikeCompiler & PullsCompiler
}

/**
 * Whether webpack or rspack reads the loaders' source maps: a devtool that makes one (`source-map`,
 * `eval-source-map`, `cheap-module-source-map`, ...) or a source map plugin in the config. `false`
 * (production's default) and `eval` (development's) read none: the transform then makes none, which
 * spares its time and the memory of every module's map (some 8 MiB at 2,000 modules).
 */
export function readsLoaderMaps(compiler: Pick<LikeCompiler, 'options' | 'webpack'>): boolean {
  const { devtool, plugins = [] } = compiler.options
  if (typeof devtool === 'string' && devtool.includes('source-map')) return true
  const { SourceMapDevToolPlugin, EvalSourceMapDevToolPlugin } = compiler.webpack
  return plugins.some(
    (p) =>
      (SourceMapDevToolPlugin !== undefined && p instanceof SourceMapDevToolPlugin) ||
      (EvalSourceMapDevToolPlugin !== undefined && p instanceof EvalSourceMapDevToolPlugin),
  )
}

/** webpack's watcher entry point, as NodeEnvironmentPlugin installs it before any plugin applies. */
interface LikeWatchFileSystem {
  watch(
    files: Iterable<string>,
    directories: Iterable<string>,
    missing: Iterable<string>,
    ...rest: unknown[]
  ): unknown
}

/**
 * Keeps unplugin's virtual modules (files under `<context>/_virtual_` that exist only in memory) out of
 * what webpack's watcher watches. Its first scan found them missing on disk and reported them removed,
 * so every watch (`webpack --watch`, the dev server) built everything a second time as it started.
 * Nothing is lost: a virtual module's text comes from the load hook, and the cache files it depends on
 * are watched. rspack's own virtual modules do not have this problem.
 */
export function watchWithoutVirtualModules(compiler: {
  options: { context?: string }
  watchFileSystem?: LikeWatchFileSystem | null
}): void {
  const fs = compiler.watchFileSystem
  if (!fs) return
  const virtual = virtualModuleFiles(compiler.options.context)
  const onDisk = (paths: Iterable<string>): string[] => [...paths].filter((p) => !virtual(p))
  const watch = fs.watch.bind(fs)
  fs.watch = (files, directories, missing, ...rest) =>
    watch(onDisk(files), directories, onDisk(missing), ...rest)
}

/**
 * Keeps webpack from building unplugin's virtual modules again on its own. Their files exist in
 * memory only, written as each is first resolved, within the build that reads them: webpack could not
 * trust a time so close to that build's start, and in a watch's first rebuild it built every virtual
 * module again (the runtime, the overlay's, each locale's catalog and base), which the first edit
 * waited for, and then for the catalogs made again in finishMake. A virtual module's text changes only
 * with the plugin's state, and finishMake rebuilds the catalog modules itself, so webpack is told to
 * ignore those files' times, as it does for a watch's ignored paths. The tap runs after
 * webpack-virtual-modules' own, which gives each virtual file its write time.
 */
export function trustVirtualModules(compiler: WebpackCompiler): void {
  const virtual = virtualModuleFiles(compiler.options.context)
  const files = new Set<string>()
  // The modules each compilation builds, not its file dependencies: an edit's rebuild builds a few of
  // thousands (reading the dependencies cost 9 ms per rebuild at 2,000 modules).
  compiler.hooks.thisCompilation.tap('unplugin-tms', (compilation) => {
    compilation.hooks.buildModule.tap('unplugin-tms', (module) => {
      const { resource } = module as { resource?: string }
      if (resource && virtual(resource)) files.add(resource)
    })
  })
  compiler.hooks.watchRun.tap({ name: 'unplugin-tms', stage: 100 }, () => {
    // The watcher's map of the times this compilation reads, made for it.
    const times = compiler.fileTimestamps
    if (times) for (const file of files) times.set(file, 'ignore')
  })
}

/**
 * Whether a path is one of unplugin's virtual module files: right in the context, `_virtual_<encoded
 * id>`; a user's directory whose name happens to start so is not.
 */
function virtualModuleFiles(context: string | undefined): (path: string) => boolean {
  const prefix = resolve(context ?? process.cwd(), '_virtual_')
  return (path) => path.startsWith(prefix) && !path.includes(sep, prefix.length)
}

/**
 * A webpack filesystem cache or an rspack persistent cache keeps transformed modules across runs but
 * cannot know what the plugin that made them does: the modules another version of unplugin-tms made
 * would ask for ids the new catalogs do not have (6 characters where they were 8). So the cache's
 * `version` names this one's, and another version starts a cache of its own. rspack 2 has the
 * persistent cache as `cache`; rspack 1.2 to 1.x had it as `experiments.cache`.
 */
export function versionBundlerCache(options: { cache?: unknown; experiments?: unknown }): void {
  markCache(options.cache)
  const experiments = options.experiments as { cache?: unknown } | undefined
  if (experiments && typeof experiments === 'object') markCache(experiments.cache)
}

function markCache(value: unknown): void {
  const cache = value as { type?: unknown; version?: unknown } | undefined
  if (!cache || typeof cache !== 'object' || (cache.type !== 'filesystem' && cache.type !== 'persistent'))
    return
  const mark = `unplugin-tms@${VERSION}`
  const version = typeof cache.version === 'string' ? cache.version : ''
  if (!version.split('+').includes(mark)) cache.version = version ? `${version}+${mark}` : mark
}

/** What rspack's lazy compilation hands its `test`: the module a dynamic import or entry would defer. */
interface LikeLazyModule {
  resource?: string
  nameForCondition?(): string | null | undefined
}
type LazyTest = RegExp | ((module: LikeLazyModule) => boolean)

/**
 * rspack's lazy compilation (`rspack dev` turns it on for the dynamic imports of a browser build)
 * would build each catalog chunk, and the review overlay's, only when the page first imports it: a
 * request and a rebuild on the first switch to each locale, and, as a page starts, the overlay's
 * rebuild and the first `setLocale`'s in a row, where the second removes the hot-update files the page
 * is still loading for the first (the client then reloads the page). These modules are small and every
 * page loads one: they are built with the rest, and the user's own `test` still decides for every
 * other module.
 */
export function buildVirtualModulesEagerly(options: {
  lazyCompilation?: unknown
  experiments?: unknown
}): void {
  if (options.lazyCompilation) options.lazyCompilation = eagerForVirtualModules(options.lazyCompilation)
  // rspack 1 has lazy compilation as `experiments.lazyCompilation` (1.5 and later also at the top).
  const experiments = options.experiments as { lazyCompilation?: unknown } | undefined
  if (experiments && typeof experiments === 'object' && experiments.lazyCompilation) {
    experiments.lazyCompilation = eagerForVirtualModules(experiments.lazyCompilation)
  }
}

function eagerForVirtualModules(lazy: unknown): unknown {
  const own = (typeof lazy === 'object' ? lazy : {}) as { test?: LazyTest }
  const test = own.test
  return {
    ...own,
    test: (module: LikeLazyModule): boolean => {
      const name = module.nameForCondition?.() ?? module.resource ?? ''
      if (virtualIdOf(name) !== undefined) return false
      if (test === undefined) return true
      return typeof test === 'function' ? test(module) : test.test(name)
    },
  }
}

/**
 * Under rspack's lazy compilation, two dynamic imports of an app at once (`Promise.all([import(a),
 * import(b)])`) each ask the dev server to compile their module: two compilations in a row. With
 * `output.clean` on, the second removes the first's hot-update files while the page is still fetching
 * them; the client finds no update and reloads the page, dropping its state. Keeping the hot-update
 * files (a few hundred bytes each, in the dev server's memory) lets the page apply both updates in
 * turn, as with `clean: false`. The user's own `keep` still decides for every other file.
 */
export function keepHotUpdatesUnderLazyCompilation(options: {
  lazyCompilation?: unknown
  output?: { clean?: unknown }
}): void {
  const output = options.output
  if (!options.lazyCompilation || !output?.clean) return
  const own = (typeof output.clean === 'object' ? output.clean : {}) as { keep?: KeepTest }
  const keep = own.keep
  output.clean = {
    ...own,
    keep: (path: string): boolean => {
      if (HOT_UPDATE.test(path)) return true
      if (keep === undefined) return false
      if (typeof keep === 'function') return keep(path)
      return typeof keep === 'string' ? path.startsWith(keep) : keep.test(path)
    },
  }
}

/**
 * A rebuild of a watch (webpack-dev-server, `webpack --watch`, their rspack twins) keeps its build when
 * no cache file changed, as vite's dev server does: reading every module's extraction, giving every
 * message its id and checking every translation again took about half a second of each rebuild at
 * 20,000 messages, for an edit of one module. A pull has its locales checked again alone. What the
 * kept build reported is not said again (an edited module's warnings come with its transform); the
 * outcome of a recheck is the changed locales'. Undefined: a new build starts (the first build, the
 * manifest changed, a compiler that does not say what changed).
 */
async function watchRebuild(
  session: TmsSession,
  modified: ReadonlySet<string> | undefined,
  handed: HandedRebuild | undefined,
): Promise<SyncOutcome | undefined> {
  const options = session.optionsIfStarted
  if (!modified || !options || !session.openBuild || handed === 'start') return undefined
  const plan = rebuildPlan(modified, options)
  if (plan === 'start') return undefined
  const report = session.openBuild.report
  // The dev server's channel checked the pulled locales and started this rebuild (pull-channel.ts).
  if (plan === 'keep') return handed ?? (report && { problems: [], info: [], report })
  return session.recheck(plan)
}

/** The default names of hot-update files (`[id].[fullhash].hot-update.js`, `[runtime].[fullhash].hot-update.json`). */
const HOT_UPDATE = /\.hot-update\.(?:[cm]?js|json)$/
type KeepTest = string | RegExp | ((path: string) => boolean)

function nativeOf(ctx: UnpluginBuildContext): { compiler: LikeCompiler; compilation?: LikeCompilation } {
  const native = ctx.getNativeBuildContext?.() as
    | { compiler: LikeCompiler; compilation?: LikeCompilation }
    | undefined
  if (!native) throw new Error('[unplugin-tms] no webpack/rspack compiler in the build context')
  return native
}

type LikeRawSource = InstanceType<LikeCompiler['webpack']['sources']['RawSource']>

/**
 * A source whose bytes are made each time they are asked for, not kept: webpack asks once, to write
 * the file (the dev server keeps its own copy), and a source it wrote is not written again, so a kept
 * copy would be a megabyte per base for nothing.
 */
function uncachedSource(
  RawSource: LikeCompiler['webpack']['sources']['RawSource'],
  text: string,
): LikeRawSource {
  const source = new RawSource(text) as LikeRawSource & { buffer(): Buffer }
  source.buffer = () => Buffer.from(text)
  return source
}

/**
 * A watch's pages fetch their locales' catalog bases as files (hot-catalog.ts): each compilation emits
 * them, as `output.clean` would remove a file the last compilation did not emit. `sources` holds one
 * source per file across compilations: webpack does not write again a source it wrote.
 */
function emitFetchedBases(
  session: TmsSession,
  compiler: LikeCompiler,
  compilation: LikeCompilation,
  sources: Map<string, LikeRawSource>,
): void {
  if (!compiler.watchMode) return
  const { Compilation, sources: webpackSources } = compiler.webpack
  compilation.hooks.processAssets.tap(
    { name: 'unplugin-tms', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
    () => {
      const build = session.openBuild
      const bases = build ? hotCatalogsOf(build).fetchedBases() : []
      const emitted = new Set<string>()
      for (const { fileName, literal } of bases) {
        let source = sources.get(fileName)
        if (!source) {
          source = uncachedSource(webpackSources.RawSource, literal)
          sources.set(fileName, source)
        }
        compilation.emitAsset(fileName, source, { immutable: true, development: true })
        emitted.add(fileName)
      }
      for (const fileName of sources.keys()) if (!emitted.has(fileName)) sources.delete(fileName)
    },
  )
}

export function webpackLikeHooks(
  session: TmsSession,
  state: WebpackLikeState,
): {
  buildStart(this: UnpluginBuildContext): Promise<void>
  buildEnd(this: UnpluginBuildContext): void
  apply(compiler: LikeCompiler): void
} {
  let outcome: SyncOutcome | undefined
  return {
    async buildStart() {
      const { compiler, compilation } = nativeOf(this)
      const command = compiler.watchMode ? 'serve' : 'build'
      session.configure({ root: compiler.options.context, sourcemap: readsLoaderMaps(compiler) })
      state.files = undefined
      const handed = state.pulls?.takeRebuild(compiler)
      const rebuilt =
        command === 'serve' ? await watchRebuild(session, compiler.modifiedFiles, handed) : undefined
      outcome = rebuilt ?? (await session.startAndSync(command))
      if (session.openBuild?.inline) inlinePublicPath(compiler)
      const logger = compiler.getInfrastructureLogger('unplugin-tms')
      for (const line of outcome.info) logger.info(line)
      for (const p of outcome.problems) {
        const error = new compiler.webpack.WebpackError(toText(p))
        if (p.severity === 'error') compilation?.errors.push(error)
        else compilation?.warnings.push(error)
      }
      if (command === 'serve' && compilation) {
        const { cacheDir, locales, retrievalType } = session.options
        compilation.fileDependencies.add(join(cacheDir, 'manifest.json'))
        // A dev server's channel watches the locale files itself, and starts the rebuild after its push.
        if (!state.pulls?.watchesPullsOf(compiler)) {
          for (const l of locales)
            compilation.fileDependencies.add(join(cacheDir, 'locales', `${l}.${retrievalType}.json`))
        }
      }
    },
    buildEnd() {
      if (!outcome || !session.options.report) return
      const { compiler } = nativeOf(this)
      // The infrastructure logger puts `[unplugin-tms]` in front itself.
      compiler.getInfrastructureLogger('unplugin-tms').info(reportBody(outcome.report))
      this.emitFile({ type: 'asset', fileName: REPORT_FILE, source: reportJson(outcome.report) })
    },
    apply(compiler) {
      versionBundlerCache(compiler.options)
      buildVirtualModulesEagerly(compiler.options)
      keepHotUpdatesUnderLazyCompilation(compiler.options)
      // webpack's child compilers (html-webpack-plugin's, ...) inherit finishMake's taps but not
      // thisCompilation's: only the compilation that thisCompilation saw gets its catalog modules rebuilt.
      const own = new WeakSet<LikeCompilation>()
      const baseSources = new Map<string, LikeRawSource>()
      compiler.hooks.thisCompilation.tap('unplugin-tms', (compilation) => {
        own.add(compilation)
        emitFetchedBases(session, compiler, compilation, baseSources)
      })
      compiler.hooks.finishMake.tapPromise('unplugin-tms', async (compilation) => {
        if (!own.has(compilation)) return
        const files: string[] = []
        const catalogModules: LikeModule[] = []
        // A watch's catalog modules hold what changed since their locale's base (hot-catalog.ts); a
        // base module is built again only when it does not hold its build's base yet.
        const hot = session.command === 'serve' ? hotCatalogsOf(session.build) : undefined
        for (const m of compilation.modules) {
          if (!m.resource) continue
          const id = virtualIdOf(m.resource)
          if (id === undefined) files.push(stripQuery(m.resource))
          else if (catalogModuleLocale(id) !== undefined) catalogModules.push(m)
          else {
            const base = catalogBaseModuleLocale(id)
            if (base !== undefined && hot && !hot.holds(base)) catalogModules.push(m)
          }
        }
        if (catalogModules.length === 0) return
        state.files = files
        const stale = hot
          ? await changedCatalogModules(session, state, compiler.options, catalogModules, files)
          : catalogModules
        await Promise.all(
          stale.map(
            (m) =>
              new Promise<void>((resolve, reject) =>
                compilation.rebuildModule(m, (error) => (error ? reject(error) : resolve())),
              ),
          ),
        )
        // The catalog memos these catalogs wrote are on disk when the build ends: the next may read them.
        await session.memosWritten()
      })
      // A watch readies its first edit once a build's first compilation is done (warm-up.ts).
      const warmed = new WeakSet<object>()
      let watching = true
      compiler.hooks.watchClose.tap('unplugin-tms', () => {
        watching = false
      })
      compiler.hooks.done.tap('unplugin-tms', () => {
        const build = session.openBuild
        if (!compiler.watchMode || !build || warmed.has(build)) return
        warmed.add(build)
        warmWatch(build, () => watching)
      })
    },
  }
}
