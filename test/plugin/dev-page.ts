import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createServer, type Plugin, type ViteDevServer, version as viteVersion } from 'vite'
import type { Options } from '../../src/options'
import { LOADED_EVENT, type LoadedCatalog } from '../../src/plugin/virtual'
import tmsRspack from '../../src/rspack'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import { onFreePort } from '../helpers/listen'
import { browserWebpackConfig, gotoViteDev, launchChromium } from './bundlers'
import { fillCache, type Project, setupProject } from './helpers'

/** The fixture app in a dev server (vite's, webpack's, rspack's) with a warm cache, open in Chromium. */
export interface DevPage {
  project: Project
  page: Page
  /** The text of the app's `#out` element. */
  shown(): Promise<string>
  /** Resolves once `#out` holds `expected` (a hot update or a reload lands in its own time). */
  waitForText(expected: string): Promise<void>
  /**
   * Vite's server only: resolves once the server has taken in its watcher's report of the new file
   * `file` (absolute), asked before writing it. A page that imports a module while vite is still
   * taking in the report of its creation is reloaded: vite sees a module with no importer that has
   * not said it accepts its updates yet (its first request made its node). On a loaded machine the
   * report comes late enough for that (a test failed so in about one run of 30 there).
   */
  created(file: string): Promise<void>
  /**
   * Vite's server only: resolves once the server has taken in a page's next report that it loaded
   * `locale`'s catalog, asked before the page loads it. The page sends the report over its socket
   * while the test goes on; a cache written before the server took it in is pushed to the page, and
   * the report, now of an old catalog, then has the whole catalog sent to the page as well.
   */
  reported(locale: string): Promise<void>
  close(): Promise<void>
}

/** How long {@link DevPage.created} and {@link DevPage.reported} wait for the server. */
const SERVER_WAIT_MS = 30_000

/** Vite 6 and later call a plugin's `hotUpdate` hook for a new file; vite 5 has only `watchChange`. */
const HOT_UPDATE_HOOK = Number(viteVersion.split('.')[0]) >= 6

/**
 * Waits, by key, for something vite's server takes in. A wait ends on the next timer after `taken`:
 * what the server does with it in the same turn (other plugins' hooks, other listeners of the same
 * event) has run by then.
 */
class ServerWaits {
  private readonly waiting = new Map<string, () => void>()

  protected taken(key: string): void {
    const done = this.waiting.get(key)
    this.waiting.delete(key)
    if (done) setTimeout(done, 0)
  }

  /** `missed`: what the error says did not happen, before "in 30 s". */
  protected wait(key: string, missed: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key)
        reject(new Error(`${missed} in ${SERVER_WAIT_MS / 1000} s`))
      }, SERVER_WAIT_MS)
      this.waiting.set(key, () => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}

/**
 * The files whose creation vite's server has taken in. Vite 6 and later tell it through a plugin's
 * `hotUpdate` hook: vite computes the modules a change touches before it calls the hook. Vite 5 calls
 * the plugins' `watchChange`, then computes them once every plugin's hook settled; this suite's
 * plugins settle theirs in microtasks (unplugin-tms's glob is synchronous). Either way what follows
 * the hook until the modules are known is microtasks, with no I/O for a file no page imports.
 */
class CreatedFiles extends ServerWaits {
  readonly plugin: Plugin = {
    name: 'test:created-files',
    watchChange: (id, change) => {
      if (!HOT_UPDATE_HOOK && change.event === 'create') this.taken(id)
    },
    hotUpdate: (options) => {
      if (options.type === 'create') this.taken(options.file)
    },
  }

  created(file: string): Promise<void> {
    return this.wait(file, `vite's watcher did not report ${file}`)
  }
}

/**
 * The pages' reports of a catalog loaded ({@link LOADED_EVENT}) that vite's server has taken in. The
 * plugin's own listener of the event runs in the same emit as this one, before or after it.
 */
class LoadedReports extends ServerWaits {
  readonly plugin: Plugin = {
    name: 'test:loaded-reports',
    configureServer: (server) => {
      // The pages' channel, as the plugin listens on it (src/plugin/dev.ts: vite 5 has only server.ws).
      const channel = server.environments?.client?.hot ?? server.ws
      channel.on(LOADED_EVENT, (data: LoadedCatalog) => this.taken(data.locale))
    },
  }

  reported(locale: string): Promise<void> {
    return this.wait(locale, `no page reported ${locale}'s catalog loaded`)
  }
}

/** `rspack-lazy`: rspack compiling dynamic imports when the page first imports them, as `rspack dev` does by default for the browser. */
export type DevServerKind = 'vite' | 'webpack' | 'rspack' | 'rspack-lazy'

type SetupMiddlewares = (list: unknown[], server: unknown) => unknown[]

/** A running dev server: where it listens, and how to stop it. */
export interface RunningDevServer {
  url: string
  stop(): Promise<void>
}

/**
 * What `webpack serve` and `rspack serve` do with a configuration: the server gets the compiler's
 * devServer options (the plugin's overlay hook in them) and listens once the first build is done.
 * `made` is handed the compiler (its `watching`, once the server started).
 */
export async function startWebpackDevServer(
  bundler: 'webpack' | 'rspack',
  config: { devServer: object },
  made?: (compiler: unknown) => void,
): Promise<RunningDevServer> {
  let server: { start(): Promise<void>; stop(): Promise<void>; server?: unknown }
  if (bundler === 'webpack') {
    const { default: webpack } = await import('webpack')
    const { default: WebpackDevServer } = await import('webpack-dev-server')
    const compiler = webpack(config as never)
    made?.(compiler)
    server = new WebpackDevServer(compiler.options.devServer as never, compiler)
  } else {
    const { rspack } = await import('@rspack/core')
    const { RspackDevServer } = await import('@rspack/dev-server')
    const compiler = rspack(config as never)
    made?.(compiler)
    const { devServer: options, lazyCompilation } = compiler.options as unknown as {
      devServer: { setupMiddlewares?: SetupMiddlewares }
      lazyCompilation?: unknown
    }
    if (lazyCompilation) {
      // As `rspack dev` serves a lazy compilation: its middleware, which builds a module the page asks for, first.
      const lazy = rspack.lazyCompilationMiddleware(compiler as never)
      const setup = options.setupMiddlewares
      options.setupMiddlewares = (list, devServer) => [
        { name: 'lazy-compilation', middleware: lazy },
        ...(setup ? setup(list, devServer) : list),
      ]
    }
    server = new RspackDevServer(options as never, compiler as never)
  }
  await server.start()
  const address = (server.server as { address(): AddressInfo }).address()
  return { url: `http://127.0.0.1:${address.port}`, stop: () => server.stop() }
}

/**
 * The fixture app in webpack-dev-server or @rspack/dev-server as an app would run it: hot updates and
 * live reload on (the servers' defaults), the page from `public/index.html` loading the bundle.
 */
async function serveFixture(kind: 'webpack' | 'rspack' | 'rspack-lazy', project: Project, extra?: Options) {
  const bundler = kind === 'webpack' ? 'webpack' : 'rspack'
  const html = readFileSync(join(project.root, 'index.html'), 'utf8')
  const script = '<script type="module" src="/src/main.js"></script>'
  if (!html.includes(script)) throw new Error(`the fixture's index.html has no ${script}`)
  mkdirSync(join(project.root, 'public'), { recursive: true })
  writeFileSync(
    join(project.root, 'public/index.html'),
    html.replace(script, '<script src="/main.js"></script>'),
  )
  const plugin =
    bundler === 'webpack' ? tmsWebpack(project.options(extra)) : tmsRspack(project.options(extra))
  return startWebpackDevServer(bundler, {
    ...browserWebpackConfig(project.root, join(project.root, `dist-${kind}-dev`), plugin, 'development'),
    ...(kind === 'rspack-lazy' ? { lazyCompilation: { entries: false, imports: true } } : {}),
    devServer: {
      host: '127.0.0.1',
      port: 0,
      static: { directory: join(project.root, 'public'), watch: false },
      // The client's error overlay would cover the page; its logging would fill the test's output.
      client: { overlay: false, logging: 'none' },
      setupExitSignals: false,
    },
  })
}

async function serveWithVite(
  project: Project,
  extra: Options | undefined,
  created: CreatedFiles,
  reports: LoadedReports,
): Promise<RunningDevServer> {
  const server: ViteDevServer = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options(extra)), created.plugin, reports.plugin],
    server: { host: '127.0.0.1', port: 0 },
  })
  await onFreePort(() => server.listen())
  return { url: server.resolvedUrls!.local[0]!, stop: () => server.close() }
}

/** `prepare` changes the project's copy of the app before the server starts. */
export async function openDevPage(
  extra?: Options,
  kind: DevServerKind = 'vite',
  prepare?: (project: Project) => void,
): Promise<DevPage> {
  const project = await setupProject()
  await fillCache(project)
  prepare?.(project)
  const browser: Browser = await launchChromium()
  const created = new CreatedFiles()
  const reports = new LoadedReports()
  const server =
    kind === 'vite'
      ? await serveWithVite(project, extra, created, reports)
      : await serveFixture(kind, project, extra)
  const page = await browser.newPage()
  // A test that pushes starts on a connected page (webpack-dev-server's client asks for what it
  // missed when it connects; vite's does not).
  if (kind === 'vite') await gotoViteDev(page, server.url)
  else await page.goto(server.url)
  await page.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined, undefined, {
    timeout: 60_000,
  })
  return {
    project,
    page,
    shown: () => page.evaluate(() => document.querySelector('#out')!.textContent!),
    waitForText: async (expected) => {
      await page.waitForFunction((text) => document.querySelector('#out')!.textContent === text, expected, {
        timeout: 30_000,
      })
    },
    created: (file) => {
      if (kind !== 'vite') throw new Error(`created() is vite's only, not ${kind}'s`)
      return created.created(file)
    },
    reported: (locale) => {
      if (kind !== 'vite') throw new Error(`reported() is vite's only, not ${kind}'s`)
      return reports.reported(locale)
    },
    close: () =>
      closeInTurn([
        ['the page', page.close.bind(page), 'browser'],
        ['Chromium', browser.close.bind(browser), 'browser'],
        ['the dev server', server.stop, 'app'],
        ['the project (its emulator and files)', project.close.bind(project), 'app'],
      ]),
  }
}

/** How long one step of {@link closeInTurn} may take. */
const CLOSE_STEP_MS = 30_000

/**
 * Runs each closing step in turn, each within {@link CLOSE_STEP_MS}, every step also after one failed.
 * A step of the app (the dev server, the project) that fails or hangs fails the closing, by name. The
 * browser's steps only warn: Chromium once took a test file's whole hook timeout to close on a loaded
 * CI machine, after every assertion had passed, and what it does on close is not the plugin's.
 */
async function closeInTurn(steps: [name: string, close: () => Promise<unknown>, owner: 'browser' | 'app'][]) {
  const failed: string[] = []
  for (const [name, close, owner] of steps) {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not finish in ${CLOSE_STEP_MS / 1000} s`)),
        CLOSE_STEP_MS,
      )
    })
    try {
      await Promise.race([close(), late])
    } catch (error) {
      const why = `closing ${name}: ${(error as Error).message}`
      if (owner === 'browser') console.warn(why)
      else failed.push(why)
    } finally {
      clearTimeout(timer)
    }
  }
  if (failed.length > 0) throw new Error(failed.join('; '))
}
