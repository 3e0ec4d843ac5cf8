import { type FSWatcher, watch } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { Build } from './build'
import { CacheChanges } from './cache-changes'
import { AT_MOST, filesShowing } from './dev-refresh'
import { type SyncOutcome, stripQuery, type TmsSession } from './session'
import type { CatalogChanges } from './virtual'
import { type DevServerCompiler, routeInDevServer } from './webpack-dev-server'

/**
 * The page's channel of pulled translations in webpack-dev-server and @rspack/dev-server. A `tms
 * pull` changes the cache; the watch's rebuild then makes the catalog module again and the page gets
 * it as a hot update, but that rebuild is the whole compilation's (0.6-0.8 s at 2,000 modules), and
 * the catalog module's update re-renders every `useLocale()` from the app's root. The dev server
 * watches the cache itself, checks the changed locales again at once, and sends each page what
 * changed (server-sent events on {@link PULLS_PATH}) with the webpack ids of the modules that show
 * a changed id: the page merges the changes into the catalog it holds and runs those modules again
 * when each is a React Fast Refresh boundary (only those components re-render), or announces the
 * locale as before (pull-page-code.ts). Then it starts the rebuild itself: the compiler does not
 * watch the locale files while the channel does (webpack-like.ts), so that the rebuild's work on the
 * same thread does not hold the push back. The rebuild takes the check's outcome (its warnings, the
 * coverage report) instead of checking again, and its update of the catalog module finds the page
 * showing it already: no second render. A page that missed a push (connected late, the server
 * restarting) gets the change from that update, as before the channel. A locale file that does not
 * read has the rebuild start anew; a new build start (the manifest changed) is the rebuild's alone.
 */

export const PULLS_PATH = '/__tms/pulls'

/** What a page is sent of one locale. `modules` absent: announce the change to the runtime. */
export interface PulledUpdate extends CatalogChanges {
  locale: string
  /** The webpack ids of the page's modules that show a changed id, to run again; none may be loaded. */
  modules?: (string | number)[]
}

/** The slice of a webpack or rspack compilation the channel reads once it is done. */
export interface LikeDoneCompilation {
  modules: Iterable<{ resource?: string }>
  chunkGraph?: { getModuleId?(module: { resource?: string }): string | number | null }
}

/** What the rebuild the channel started takes over: the outcome of its checks, or a new start. */
export type HandedRebuild = SyncOutcome | 'start'

export class PullChannel {
  private readonly session: TmsSession
  /** The compiler of the dev server's page, and how to start its rebuild. */
  private readonly compiler: object
  private readonly rebuild: () => void
  private handed: HandedRebuild | undefined
  private readonly pages = new Set<ServerResponse>()
  /** The page's last compilation, read when a push names modules (not on every edit's rebuild). */
  private compilation: LikeDoneCompilation | undefined
  /** Each source file that has ids -> the ids of its modules in {@link compilation}, once a push asked. */
  private moduleIds: Map<string, (string | number)[]> | undefined
  private watcher: FSWatcher | undefined
  private readonly changes: CacheChanges
  private closed = false

  constructor(session: TmsSession, compiler: object, rebuild: () => void) {
    this.session = session
    this.compiler = compiler
    this.rebuild = rebuild
    // A refresh that fails leaves the change to the rebuild's own check of the cache.
    this.changes = new CacheChanges(
      () => session.optionsIfStarted,
      (plan) => this.refresh(plan),
      () => this.handOver('start'),
    )
    // The cache directory exists once a build synced (it writes the cache).
    session.synced().then(
      () => this.watchCache(),
      () => {},
    )
  }

  /** The dev server's middleware: a page's event stream on {@link PULLS_PATH}. */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== PULLS_PATH || this.closed) {
      next()
      return
    }
    // `no-transform`: the dev server's compression would otherwise hold each event back.
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    })
    res.write(': unplugin-tms pulled translations\n\n')
    this.pages.add(res)
    req.on('close', () => this.pages.delete(res))
  }

  /** The page's compilation is done: the next push finds the modules that show ids in it. */
  compiled(compilation: LikeDoneCompilation): void {
    if (this.closed) return
    this.compilation = compilation
    this.moduleIds = undefined
  }

  /** Whether the channel watches the locale files of `compiler`'s cache (the compiler then does not). */
  watchesPullsOf(compiler: object): boolean {
    return compiler === this.compiler && this.watcher !== undefined && !this.closed
  }

  /** What the rebuild of `compiler` the channel started takes over (once). */
  takeRebuild(compiler: object): HandedRebuild | undefined {
    if (compiler !== this.compiler) return undefined
    const handed = this.handed
    this.handed = undefined
    return handed
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.changes.close()
    this.watcher?.close()
    for (const page of this.pages) page.end()
    this.pages.clear()
    this.compilation = undefined
    this.moduleIds = undefined
  }

  private watchCache(): void {
    if (this.closed || this.watcher) return
    const options = this.session.optionsIfStarted
    if (!options) return
    const dir = join(options.cacheDir, 'locales')
    try {
      this.watcher = watch(dir, (_event, name) => name && this.changes.changed(join(dir, name.toString())))
    } catch {
      // No translations in the cache yet: the watch's rebuild brings the first pull to the page.
      return
    }
    // A watcher that failed leaves the locale files to the compiler's watch again (its next compilation).
    this.watcher.on('error', () => {
      this.watcher?.close()
      this.watcher = undefined
    })
  }

  /** The changed locales checked again, and each page sent what changed in them. */
  private async refresh(plan: 'start' | string[]): Promise<void> {
    if (plan === 'start') return this.handOver('start')
    const { session } = this
    await session.syncedLatest().catch(() => undefined)
    const build = session.openBuild
    if (this.closed || !build) return
    const revisions = new Map(plan.map((locale) => [locale, build.translationsRevision(locale)]))
    const outcome = await session.recheck(plan)
    if (this.closed || session.openBuild !== build) return
    if (!outcome) return this.handOver('start')
    for (const locale of plan) {
      const update = this.updateOf(build, locale, revisions.get(locale) ?? 0)
      if (update) this.send(update)
    }
    this.handOver(outcome)
  }

  /** The rebuild started, with what it takes over (the outcomes of two checks before it, together). */
  private handOver(next: HandedRebuild): void {
    const was = this.handed
    if (next === 'start' || was === 'start') this.handed = 'start'
    else if (!was) this.handed = next
    else {
      const { problems, info } = was
      this.handed = { ...next, problems: [...problems, ...next.problems], info: [...info, ...next.info] }
    }
    this.rebuild()
  }

  /** What changed in `locale` since translations revision `since`; undefined: nothing, or not known. */
  private updateOf(build: Build, locale: string, since: number): PulledUpdate | undefined {
    const changes = build.catalogChangesSince(locale, since)
    if (!changes) return undefined
    const ids = new Set([...Object.keys(changes.changed), ...changes.removed])
    if (ids.size === 0) return undefined
    const update: PulledUpdate = { locale, ...changes }
    const files = filesShowing(build.usage.fileIds, ids)
    if (!files) return update
    const moduleIds = this.moduleIdsOf(build)
    if (!moduleIds) return update
    const modules: (string | number)[] = []
    for (const file of files) modules.push(...(moduleIds.get(file) ?? []))
    return modules.length > AT_MOST ? update : { ...update, modules }
  }

  /**
   * Each file of the last compilation that has ids -> the ids of its modules, made at the first push
   * after it (a walk of every module: 6 ms at 2,000 components, not each edit's to pay). Undefined
   * when the compilation cannot be read (rspack's, once the next one began): the page announces.
   */
  private moduleIdsOf(build: Build): Map<string, (string | number)[]> | undefined {
    const { compilation } = this
    const graph = compilation?.chunkGraph
    if (this.moduleIds || !compilation || !graph?.getModuleId) return this.moduleIds
    const ids = new Map<string, (string | number)[]>()
    try {
      for (const module of compilation.modules) {
        if (!module.resource) continue
        const file = stripQuery(module.resource)
        if (!build.usage.fileIds.has(file)) continue
        const id = graph.getModuleId(module)
        if (id === null) continue
        const known = ids.get(file)
        if (known) known.push(id)
        else ids.set(file, [id])
      }
    } catch {
      return undefined
    }
    this.moduleIds = ids
    return ids
  }

  private send(update: PulledUpdate): void {
    const event = `data: ${JSON.stringify(update)}\n\n`
    for (const page of this.pages) page.write(event)
  }
}

const NAME = 'unplugin-tms-pulls'

/** The compiler's slice {@link pullsInDevServer} uses. */
export interface PullsCompiler extends DevServerCompiler {
  /** Set by the compiler's watch (webpack-dev-middleware starts it). */
  watching?: { invalidate(): void }
  hooks: DevServerCompiler['hooks'] & {
    done: { tap(name: string, fn: (stats: { compilation: LikeDoneCompilation }) => void): void }
  }
}

/**
 * Adds the channel to the compiler's dev server (a page's, in development: webpack-dev-server.ts),
 * `state.pulls` while the server runs, and tells it where the page's modules are after each compilation.
 */
export function pullsInDevServer(
  session: TmsSession,
  state: { pulls: PullChannel | undefined },
  compiler: PullsCompiler,
): void {
  routeInDevServer(
    compiler,
    NAME,
    () => true,
    (devServer) => {
      state.pulls?.close()
      const channel = new PullChannel(session, compiler, () => compiler.watching?.invalidate())
      state.pulls = channel
      devServer.server?.once('close', () => {
        channel.close()
        if (state.pulls === channel) state.pulls = undefined
      })
      return (req, res, next) => channel.handle(req, res, next)
    },
  )
  compiler.hooks.done.tap(NAME, (stats) => state.pulls?.compiled(stats.compilation))
}
