import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import { browserWebpackConfig, launchChromium } from './bundlers'
import { type RunningDevServer, startWebpackDevServer } from './dev-page'
import { FRENCH, FRENCH_TEXT, fillCache, PROJECT, type Project, SOURCE_TEXT, setupProject } from './helpers'

/**
 * A page of another origin that loads its bundle from webpack-dev-server or @rspack/dev-server (an app
 * whose HTML a backend serves, its scripts from the dev server: `output.publicPath: 'auto'`), with the
 * CORS header such a setup gives its dev server (`devServer.headers`; webpack-dev-server 6 serves
 * another origin nothing without it). The catalog's base, a JSON file the page fetches, and the
 * channel of pulled translations, an event stream, are the page's requests to the dev server's origin,
 * answered with that header too. A pull while the watch is suspended reaches the page by the channel
 * alone. (The dev server's own client opens its socket on the page's origin unless
 * `client.webSocketURL` says otherwise: its hot updates are not what this test is about.)
 */
describe.each(['webpack', 'rspack'] as const)('%s: a page of another origin', (bundler) => {
  let project: Project
  let dev: RunningDevServer
  /** Its `watching` is there once the server started. */
  let compiler: { watching: { suspend(): void; resume(): void } }
  let pages: Server
  let browser: Browser
  let page: Page
  const errors: string[] = []

  const shown = (): Promise<string> => page.evaluate(() => document.querySelector('#out')!.textContent!)
  const waitForText = (expected: string): Promise<unknown> =>
    page.waitForFunction((text) => document.querySelector('#out')!.textContent === text, expected, {
      timeout: 30_000,
    })

  beforeAll(async () => {
    project = await setupProject()
    await fillCache(project)
    const plugin =
      bundler === 'webpack'
        ? tmsWebpack(project.options({ cache: 'offline' }))
        : tmsRspack(project.options({ cache: 'offline' }))
    const built = browserWebpackConfig(
      project.root,
      join(project.root, `dist-${bundler}-dev`),
      plugin,
      'development',
    )
    const config = {
      ...built,
      output: { ...built.output, publicPath: 'auto' },
      devServer: {
        host: '127.0.0.1',
        port: 0,
        static: false,
        headers: { 'Access-Control-Allow-Origin': '*' },
        client: { overlay: false, logging: 'none' },
        setupExitSignals: false,
      },
    }
    dev = await startWebpackDevServer(bundler, config, (made) => {
      compiler = made as typeof compiler
    })
    const script = '<script type="module" src="/src/main.js"></script>'
    const html = readFileSync(join(project.root, 'index.html'), 'utf8').replace(
      script,
      `<script src="${dev.url}/main.js"></script>`,
    )
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html))
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
    browser = await launchChromium()
    page = await browser.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`)
    await page.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined, undefined, {
      timeout: 60_000,
    })
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => pages?.close(resolve))
    await dev?.stop()
    await project?.close()
  })

  test('switches to a locale and takes a pulled translation from the dev server of the other origin', async () => {
    expect(await shown()).toBe(SOURCE_TEXT.join('\n'))
    await page.evaluate(() =>
      (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
    )
    expect(await shown()).toBe(FRENCH_TEXT.join('\n'))
    compiler.watching.suspend()
    const cache = new DiskCache(project.cacheDir, PROJECT)
    const current = await cache.readLocale('fr-FR', 'published')
    if (!current.hit) throw new Error('the first pull did not fill the cache')
    const opened = FRENCH_TEXT.indexOf(FRENCH.Open!)
    await cache.writeLocale('fr-FR', 'published', {
      ...current.value.translations,
      [project.hashcodes.get('Open')!]: 'Ouvrir maintenant',
    })
    await waitForText(FRENCH_TEXT.map((text, i) => (i === opened ? 'Ouvrir maintenant' : text)).join('\n'))
    compiler.watching.resume()
    expect(errors).toEqual([])
  }, 120_000)
})
