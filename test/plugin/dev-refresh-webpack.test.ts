import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ReactRefreshPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import { launchChromium } from './bundlers'
import { startWebpackDevServer } from './dev-page'
import { fillCache, type Project, setupProject } from './helpers'
import {
  APP,
  FRENCH,
  loadedOnce,
  openInFrench,
  pull as pullInto,
  REPO,
  type Renders,
  renders as rendersOf,
  setFrench,
  TIMEOUT,
  waitFor as waitForIn,
} from './react-pull'

/**
 * The React app of dev-refresh.test.ts in webpack-dev-server with React Fast Refresh
 * (@pmmmwh/react-refresh-webpack-plugin), and in @rspack/dev-server with rspack's
 * (@rspack/plugin-react-refresh), open in Chromium, and a `tms pull` (the cache's French replaced). The dev server's channel of pulled
 * translations (pull-channel.ts) brings it to the page while the watch is suspended, so no rebuild
 * can: the component showing the changed translation re-renders by Fast Refresh of its module, and
 * nothing else does; a translation shown through a plain module, which is no Fast Refresh boundary,
 * is announced and the app re-renders from its root. Once the watch resumes, the rebuild's hot update
 * of the catalog module lands and renders nothing again. No reload; the component's state is kept.
 * The server starts warm, as dev-refresh.test.ts's does: a first server's catalog memos answer it.
 */

/** The dev-loop bench's loader: SWC's JSX transform with React Refresh's registrations. */
const LOADER = join(REPO, 'bench/swc-refresh-loader.cjs')
/** What the dev server's client logs once it applied a hot update (its `client.logging: 'info'`). */
const UP_TO_DATE = /^\[[\w-]+\] App is up to date\.$/

interface Watching {
  suspend(): void
  resume(): void
}
interface Served {
  url: string
  watching(): Watching
  stop(): Promise<void>
}
type Pushed = { locale: string; changed: Record<string, unknown>; removed: string[]; modules?: unknown[] }

describe.each(['webpack', 'rspack'] as const)('%s with React Fast Refresh', (bundler) => {
  let project: Project
  let served: Served
  let browser: Browser
  let page: Page
  const errors: string[] = []
  /** The dev server client's log, {@link UP_TO_DATE} once an update is applied. */
  const logged: string[] = []

  async function serve(): Promise<Served> {
    const config = {
      mode: 'development',
      context: project.root,
      entry: './src/main.jsx',
      target: 'web',
      devtool: false,
      output: {
        path: join(project.root, `dist-${bundler}-dev`),
        filename: 'main.js',
        publicPath: '/',
        clean: true,
      },
      // The repository's package.json says `"type": "module"`, which makes webpack read .js as strict
      // ESM, where React Refresh's module code cannot `require`: an app's own package says commonjs.
      module: {
        rules: [
          { test: /\.jsx?$/, exclude: /node_modules/, type: 'javascript/auto', use: [{ loader: LOADER }] },
        ],
      },
      resolve: { extensions: ['.js', '.jsx'] },
      plugins:
        bundler === 'webpack'
          ? [new ReactRefreshPlugin({ overlay: false }), tmsWebpack(project.options({ cache: 'offline' }))]
          : [new ReactRefreshRspackPlugin(), tmsRspack(project.options({ cache: 'offline' }))],
      infrastructureLogging: { level: 'none' },
      stats: 'none',
      devServer: {
        host: '127.0.0.1',
        port: 0,
        hot: true,
        static: { directory: join(project.root, 'public'), watch: false },
        client: { overlay: false, logging: 'info' },
        setupExitSignals: false,
      },
    }
    let compiler: { watching?: Watching }
    const running = await startWebpackDevServer(bundler, config, (made) => {
      compiler = made as { watching?: Watching }
    })
    return { ...running, watching: () => compiler.watching! }
  }

  const renders = (): Promise<Renders> => rendersOf(page)

  /** What the channel sent the page, by a listener of the test's own on the same route. */
  const pushed = (): Promise<Pushed[]> =>
    page.evaluate(() => (window as unknown as { pushed: Pushed[] }).pushed)

  const waitFor = (selector: string, expected: string): Promise<unknown> =>
    waitForIn(page, selector, expected)
  const pull = (source: string, translation: string): Promise<void> => pullInto(project, source, translation)
  const upToDate = (from: number): boolean => logged.slice(from).some((line) => UP_TO_DATE.test(line))

  /**
   * Resumes the suspended watch and waits for the rebuild's hot update, which holds `translation`, to be
   * applied, and for a render it would start to have run.
   */
  async function resumeUntilUpdated(translation: string): Promise<void> {
    let holds = false
    const onResponse = (response: { url(): string; text(): Promise<string> }): void => {
      if (!/\.hot-update\.js$/.test(response.url())) return
      response.text().then(
        (code) => {
          if (code.includes(translation)) holds = true
        },
        () => {},
      )
    }
    page.on('response', onResponse)
    const applied = logged.length
    served.watching().resume()
    const until = Date.now() + 60_000
    while (!(holds && upToDate(applied)) && Date.now() < until)
      await new Promise((done) => setTimeout(done, 50))
    page.off('response', onResponse)
    expect({ holds, applied: upToDate(applied) }).toEqual({ holds: true, applied: true })
    // A render an announcement would start runs within a task or two; a slow one only passes wrongly.
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)))
  }

  beforeAll(async () => {
    mkdirSync(join(REPO, '.tmp'), { recursive: true })
    project = await setupProject(FRENCH, APP, join(REPO, '.tmp'))
    await fillCache(project)
    mkdirSync(join(project.root, 'public'), { recursive: true })
    const html = readFileSync(join(project.root, 'index.html'), 'utf8')
    writeFileSync(
      join(project.root, 'public/index.html'),
      html.replace('<script type="module" src="/src/main.jsx"></script>', '<script src="/main.js"></script>'),
    )
    browser = await launchChromium()
    // Cache files old enough for their digests to be recorded, then a first server that serves French
    // and keeps it in its catalog memo: the second starts from the memo (see dev-refresh.test.ts).
    await new Promise((done) => setTimeout(done, 2_500))
    // Kept in `served` until the second starts: afterAll stops a first that a failure left running.
    served = await serve()
    const first = served
    const firstPage = await browser.newPage()
    await firstPage.goto(first.url)
    await firstPage.waitForFunction(
      () => document.querySelector('#add')?.textContent === 'Add a tulip',
      TIMEOUT,
    )
    await setFrench(firstPage)
    const catalogs = join(project.cacheDir, 'catalogs')
    const kept = (): string[] =>
      (existsSync(catalogs) ? readdirSync(catalogs) : []).filter((f) =>
        /^fr-FR\.published\.\w+\.memo$/.test(f),
      )
    const until = Date.now() + 30_000
    while (kept().length < 1 && Date.now() < until) await new Promise((done) => setTimeout(done, 50))
    expect(kept()).toHaveLength(1)
    await firstPage.close()
    await first.stop()

    served = await serve()
    page = await browser.newPage()
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (message) => logged.push(message.text()))
    await page.goto(served.url)
    // A listener of the test's own on the channel's route: what the dev server sent.
    await openInFrench(page, () =>
      page.evaluate(() => {
        const w = window as unknown as { pushed: unknown[] }
        w.pushed = []
        new EventSource('/__tms/pulls').onmessage = (event) => w.pushed.push(JSON.parse(event.data))
      }),
    )
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    await project?.close()
  })

  test('a pulled translation of a component re-renders that component alone, before any rebuild, and the rebuild renders nothing again', async () => {
    served.watching().suspend()
    const before = await renders()
    await pull('Welcome to the flower shop', 'Bienvenue chez la fleuriste')
    await waitFor('#title', 'Bienvenue chez la fleuriste')
    const after = await renders()
    expect({ App: after.App - before.App, Basket: after.Basket - before.Basket }).toEqual({
      App: 0,
      Basket: 0,
    })
    expect(after.Title).toBeGreaterThan(before.Title)
    const update = (await pushed()).at(-1)!
    expect({ ...update, changed: Object.values(update.changed) }).toEqual({
      locale: 'fr-FR',
      changed: ['Bienvenue chez la fleuriste'],
      removed: [],
      modules: ['./src/Title.jsx'],
    })
    await resumeUntilUpdated('Bienvenue chez la fleuriste')
    expect(await renders()).toEqual(after)
    expect(await page.textContent('#title')).toBe('Bienvenue chez la fleuriste')
    expect(await page.textContent('#basket')).toBe('2 tulipes dans votre panier')
    expect(await loadedOnce(page)).toBe(true)
    expect(errors).toEqual([])
  })

  test('a pulled translation shown through a plain module is announced: the app re-renders from its root, no reload', async () => {
    served.watching().suspend()
    const before = await renders()
    await pull('Open the basket', 'Voir le panier')
    await waitFor('#open', 'Voir le panier')
    const after = await renders()
    expect(after.App).toBeGreaterThan(before.App)
    const update = (await pushed()).at(-1)!
    // The page's module that shows it is named; the page finds it is no Fast Refresh boundary.
    expect({ ...update, changed: Object.values(update.changed) }).toEqual({
      locale: 'fr-FR',
      changed: ['Voir le panier'],
      removed: [],
      modules: ['./src/labels.js'],
    })
    await resumeUntilUpdated('Voir le panier')
    expect(await renders()).toEqual(after)
    expect(await page.textContent('#basket')).toBe('2 tulipes dans votre panier')
    expect(await loadedOnce(page)).toBe(true)
    expect(errors).toEqual([])
  })
})
