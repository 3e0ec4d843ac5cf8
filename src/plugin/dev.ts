import { relative, sep } from 'node:path'
import type { ViteDevServer } from 'vite'
import { toText } from './problems'
import type { TmsSession } from './session'
import { type CatalogMap, catalogLiteral, catalogModuleId, HOT_EVENT } from './virtual'

/**
 * The vite dev server: catalogs come from the disk cache, and when the cache changes (a `tms pull` in
 * another terminal) the catalogs are rebuilt and each changed one is pushed to the page over the HMR
 * channel: the runtime swaps it in and calls the onLocaleChange listeners, with no reload.
 *
 * With `sourceCatalog`, a transform that adds ids (a message typed since) invalidates the catalog
 * modules and pushes the catalogs the page loaded (`onIdsAdded`). webpack's and rspack's dev servers
 * do the same through the catalog modules themselves: each accepts its own hot update and hands the new
 * catalog to the runtime (`literalCatalogModule` in virtual.ts), lazy compilation never defers them
 * (`buildVirtualModulesEagerly` in webpack-like.ts). A new or deleted file re-runs the `include` globs
 * (`watchChange` in factory.ts, `refreshIncluded` in session.ts).
 */

const CACHE_FILE = /^(?:manifest\.json|locales[\\/][^\\/]+\.json)$/
const DEBOUNCE_MS = 50

export function configureDevServer(session: TmsSession, server: ViteDevServer): void {
  let timer: NodeJS.Timeout | undefined
  let refreshing = Promise.resolve()
  const logger = server.config.logger

  // Every environment's: the server's runtime keeps the catalogs it loaded, so the catalog module and,
  // through it, the runtime module that imports it are made again for the next ssrLoadModule. Vite 5
  // has no environments: its one module graph serves the page and ssrLoadModule alike.
  const invalidate = (locale: string): void => {
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
  const push = (locale: string, catalog: CatalogMap): void => {
    const payload = {
      type: 'custom' as const,
      event: HOT_EVENT,
      data: { locale, catalog: Object.fromEntries(catalog) },
    }
    const env = server.environments?.client
    if (env) env.hot.send(payload)
    else server.ws.send(payload)
  }

  const refresh = async (): Promise<void> => {
    const before = new Map(session.build.locales.map((l) => [l, catalogLiteral(session.build.catalogFor(l))]))
    const outcome = await session.startAndSync('serve')
    for (const p of outcome.problems) logger.warn(toText(p))
    for (const locale of session.build.locales) {
      const catalog = session.build.catalogFor(locale)
      if (before.get(locale) === catalogLiteral(catalog)) continue
      invalidate(locale)
      push(locale, catalog)
      logger.info(`[unplugin-tms] ${locale} catalog updated from the cache`, { timestamp: true })
    }
  }

  // `sourceCatalog`: a message typed since the page loaded its catalog has no text at its call site.
  // The catalog modules are made again at once (a reload imports the new ones); a page that stays
  // gets the stale catalogs pushed, after the burst of transforms an edit brings.
  let idsTimer: NodeJS.Timeout | undefined
  session.onIdsAdded = () => {
    for (const locale of session.build.locales) invalidate(locale)
    clearTimeout(idsTimer)
    idsTimer = setTimeout(() => {
      for (const locale of session.openBuild?.staleFullCatalogs() ?? []) {
        push(locale, session.build.catalogFor(locale))
        session.build.catalogLiteralFor(locale)
      }
    }, DEBOUNCE_MS)
  }

  const onChange = (file: string): void => {
    const options = session.optionsIfStarted
    if (!options) return
    const rel = relative(options.cacheDir, file)
    if (rel.startsWith(`..${sep}`) || !CACHE_FILE.test(rel)) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      // One refresh at a time: a second change during a refresh runs after it, with both changes.
      refreshing = refreshing.then(refresh).catch((error: Error) => {
        logger.error(`[unplugin-tms] could not reload the catalogs: ${error.message}`)
      })
    }, DEBOUNCE_MS)
  }

  server.watcher.on('change', onChange)
  server.watcher.on('add', onChange)
  // The cache directory may live outside the root that vite watches.
  session.ready().then(
    () => server.watcher.add(session.options.cacheDir),
    () => {},
  )
  server.httpServer?.once('close', () => {
    clearTimeout(timer)
    clearTimeout(idsTimer)
  })
}
