import type { ViteDevServer } from 'vite'
import { CacheChanges } from './cache-changes'
import { refreshModule, refreshTargets } from './dev-refresh'
import { toText } from './problems'
import type { SyncOutcome, TmsSession } from './session'
import {
  type CatalogMap,
  catalogChanges,
  catalogModuleId,
  HOT_EVENT,
  type HotUpdate,
  LOADED_EVENT,
  type LoadedCatalog,
} from './virtual'
import { warmEditPath } from './warm-up'

/**
 * The vite dev server: catalogs come from the disk cache, and when the cache changes (a `tms pull` in
 * another terminal) the catalogs are rebuilt and what changed in each is pushed to the page over the
 * HMR channel (a pull changes a few translations of thousands; the whole catalog is a megabyte at 20,000
 * messages to make, send and parse): the page merges it into the catalog it loaded, with no reload, and
 * either the React components showing a changed id re-render by Fast Refresh of their modules
 * (dev-refresh.ts), or the runtime calls the onLocaleChange listeners. A page connected too late for
 * a push is sent the whole catalog when its report of what it loaded arrives (`answerLoaded`).
 *
 * With `sourceCatalog`, a transform that adds ids (a message typed since) invalidates the catalog
 * modules and pushes the catalogs the pages loaded (`onIdsAdded`). webpack's and rspack's dev servers
 * do the same through the catalog modules themselves: each accepts its own hot update and hands the
 * new catalog to the runtime (`HotCatalogs.catalogModule` in hot-catalog.ts), lazy compilation never
 * defers them (`buildVirtualModulesEagerly` in webpack-like.ts); a pull reaches their pages first
 * through a channel of the plugin's own (pull-channel.ts). A new or deleted file that is or may
 * be a source re-runs the `include` globs (`watchChange` in report-plugin.ts, `refreshIncluded` in
 * session.ts). Once the server closes (its build released), no debounce, cache change or refresh
 * reaches the session: a late one would fail on the released build, or start a build nobody closes.
 */

/** How long the push of the loaded catalogs waits for a burst of transforms (an edit's, a branch switch's) to end. */
const TRANSFORMS_DEBOUNCE_MS = 50

/** What the dev plugin holds of a configured server: `close` stops its timers, watch and refreshes. */
export interface DevServerCatalogs {
  close(): void
}

/**
 * Every environment's catalog module of `locale` made again: the server's runtime keeps the catalogs it
 * loaded, so the catalog module and, through it, the runtime module that imports it are made again for
 * the next ssrLoadModule. Vite 5 has no environments: its one module graph serves the page and
 * ssrLoadModule alike.
 */
function invalidateCatalog(server: ViteDevServer, locale: string): void {
  const id = catalogModuleId(locale)
  if (!server.environments) {
    const mod = server.moduleGraph.getModuleById(id)
    if (mod) server.moduleGraph.invalidateModule(mod)
    return
  }
  for (const environment of Object.values(server.environments)) {
    const mod = environment.moduleGraph.getModuleById(id)
    if (mod) environment.moduleGraph.invalidateModule(mod)
  }
}

/** The pages' channel: the client environment's (vite 5: the server's). */
function pageChannel(server: ViteDevServer) {
  return server.environments?.client?.hot ?? server.ws
}

/** One page's end of the channel, as a listener gets it. */
interface PageClient {
  send(payload: { type: 'custom'; event: string; data: HotUpdate }): void
}

/** A catalog's hot update, sent to every connected page, or to `client` alone. */
function pushToPage(server: ViteDevServer, data: HotUpdate, client?: PageClient): void {
  ;(client ?? pageChannel(server)).send({ type: 'custom', event: HOT_EVENT, data })
}

function isLoadedCatalog(data: unknown): data is LoadedCatalog {
  const { locale, digest } = (data ?? {}) as Partial<LoadedCatalog>
  return typeof locale === 'string' && typeof digest === 'string'
}

export function configureDevServer(session: TmsSession, server: ViteDevServer): DevServerCatalogs {
  let idsTimer: NodeJS.Timeout | undefined
  /** Set once the server closes: the build is released then, so nothing may ask the session for it. */
  let closed = false
  /**
   * `fn` as a late callback (a watcher event, a timer, a settled promise): once the server closed it
   * does nothing. Every callback of this file that can outlive the server goes through it.
   */
  const whileOpen =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R | undefined =>
      closed ? undefined : fn(...args)
  const logger = server.config.logger

  // Each locale whose catalog differs from before the refresh has its module made again, and what
  // changed in it pushed to the page; then the page's modules that show a changed id run again, where
  // that is how the page shows the change (src/plugin/dev-refresh.ts), the pushes quiet then. Whole
  // catalogs are compared, not the recheck's changed ids (`catalogChangesSince`): a refresh may be a
  // new start, and a recheck keeps every unchanged entry, so the comparison is a pass of same objects.
  const pushChanged = (before: Map<string, CatalogMap>, outcome: SyncOutcome): void => {
    for (const p of outcome.problems) logger.warn(toText(p))
    const updates: HotUpdate[] = []
    const ids = new Set<string>()
    for (const [locale, was] of before) {
      const changes = catalogChanges(was, session.build.catalogFor(locale))
      if (!changes) continue
      invalidateCatalog(server, locale)
      updates.push({ locale, ...changes })
      for (const id in changes.changed) ids.add(id)
      for (const id of changes.removed) ids.add(id)
    }
    if (updates.length === 0) return
    const targets = refreshTargets(server, session.build.usage.fileIds, ids)
    for (const update of updates) {
      pushToPage(server, targets ? { ...update, quiet: true } : update)
      logger.info(`[unplugin-tms] ${update.locale} catalog updated from the cache`, { timestamp: true })
    }
    // After the pushes: the page merges the changes before it imports the modules again.
    for (const mod of targets ?? []) refreshModule(server, mod)
  }
  // What the changed cache files ask (`planOf`): their target locales checked again (a `tms pull`), or
  // a new build start from the cache (the manifest: new strings). The server may close during either:
  // its build is released with the server's, and nothing follows.
  const refresh = async (plan: 'start' | string[]): Promise<void> => {
    // The page's catalogs wait for the current build's sync, and so does the comparison: a change seen
    // during that sync (its own push rewrites the manifest) would otherwise be measured against
    // catalogs with no translation yet, and every locale told the page as updated. A failed sync is
    // the start's to report; a new start follows.
    await session.syncedLatest().catch(() => undefined)
    if (closed) return
    const build = session.build
    // The catalogs as the page has them (made here if no page imported one yet), of the locales whose
    // file changed (a new start may change any): the others' stay as they are, also when a file that
    // does not read has the recheck start anew from the same files.
    const touched = plan === 'start' ? build.locales : build.locales.filter((l) => plan.includes(l))
    const before = new Map(touched.map((l) => [l, build.catalogFor(l)]))
    const outcome =
      (plan === 'start' ? undefined : await session.recheck(plan)) ?? (await session.startAndSync('serve'))
    whileOpen(pushChanged)(before, outcome)
    // Ids added while the start ran: the new build's catalogs are the ones to push.
    pushAdded()
  }

  // `sourceCatalog`: a message typed since the page loaded its catalog has no text at its call site.
  // The catalog modules are made again at once (a reload imports the new ones); a page that stays
  // gets the catalogs pages loaded pushed whole, after the burst of transforms an edit brings. What was
  // loaded is the pages' own word (`answerLoaded`), not what the build made: a new build start (a
  // refresh) or anything else that makes the catalogs again meanwhile must not hide that a page's
  // catalog lacks the new ids.
  const loaded = new Set<string>()
  let idsAdded = false
  const pushAdded = whileOpen(() => {
    const build = session.openBuild
    if (!idsAdded || !build) return
    idsAdded = false
    for (const locale of build.locales) {
      if (loaded.has(locale))
        pushToPage(server, { locale, catalog: Object.fromEntries(build.catalogFor(locale)) })
    }
  })
  session.onIdsAdded = whileOpen(() => {
    for (const locale of session.build.locales) invalidateCatalog(server, locale)
    idsAdded = true
    clearTimeout(idsTimer)
    idsTimer = setTimeout(pushAdded, TRANSFORMS_DEBOUNCE_MS)
  })

  // Vite sends a push only to the pages connected at that moment. A page reports each catalog it loaded
  // once its socket is connected (its client holds the message till then): one whose catalog is not the
  // current one missed a push (or came after the ids were added), and gets the whole catalog.
  const answerLoaded = whileOpen((data: unknown, client: PageClient) => {
    const build = session.openBuild
    if (!build || !isLoadedCatalog(data) || !build.locales.includes(data.locale)) return
    const { locale, digest } = data
    loaded.add(locale)
    if (build.catalogDigestFor(locale) === digest) return
    pushToPage(server, { locale, catalog: Object.fromEntries(build.catalogFor(locale)) }, client)
  })
  pageChannel(server).on(LOADED_EVENT, answerLoaded)

  const changes = new CacheChanges(
    () => session.optionsIfStarted,
    refresh,
    (error) => logger.error(`[unplugin-tms] could not reload the catalogs: ${error.message}`),
  )
  const onChange = (file: string): void => changes.changed(file)

  server.watcher.on('change', onChange)
  server.watcher.on('add', onChange)
  // The cache directory may live outside the root that vite watches.
  // (A closed chokidar watcher that is asked to add a path starts watching again.)
  session.ready().then(
    whileOpen(() => void server.watcher.add(session.options.cacheDir)),
    () => {},
  )
  // A warm-up that fails costs the first edit its time, nothing more.
  session
    .synced()
    .then(whileOpen(() => warmEditPath(session.openBuild, true)))
    .catch(() => {})
  const close = (): void => {
    if (closed) return
    closed = true
    changes.close()
    clearTimeout(idsTimer)
    server.watcher.off('change', onChange)
    server.watcher.off('add', onChange)
    session.onIdsAdded = undefined
    pageChannel(server).off(LOADED_EVENT, answerLoaded)
  }
  // The dev plugin's closeBundle calls close as the server's build is released (every vite, also in
  // middleware mode); an http server's close may come first.
  server.httpServer?.once('close', close)
  return { close }
}
