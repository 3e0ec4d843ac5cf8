import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { rspack } from '@rspack/core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import WebpackDevServer from 'webpack-dev-server'
import { createClient, type TmsClient } from '../../src/client/index'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import { browserWebpackConfig, launchChromium, runWebpackLike } from '../plugin/bundlers'
import { startWebpackDevServer } from '../plugin/dev-page'
import {
  filesUnder,
  MARKER_CHARACTER,
  OVERLAY_CODE,
  type OverlayProject,
  openOverlayPage,
  PROJECT,
  type ReceivedBody,
  SECRET,
  setupOverlayProject,
} from './project'

/**
 * The review overlay in webpack-dev-server (webpack 5) and @rspack/dev-server, in Chromium, on the
 * overlay fixture app against the emulator; and the same app built with no dev server, which holds
 * none of it.
 */

const TIMEOUT = { timeout: 30_000 }
/** The overlay's names, with the dev servers' editor link in place of vite's. */
const WEBPACK_OVERLAY_CODE = [
  ...OVERLAY_CODE.filter((n) => n !== '__open-in-editor'),
  'open-editor?fileName=',
]

type Bundler = 'webpack' | 'rspack'

let project: OverlayProject
let client: TmsClient
let browser: Browser

/** The fixture app for the browser: its page (public/index.html) loads the bundle instead of vite's module. */
function webConfig(bundler: Bundler, mode: 'development' | 'production', outDir: string) {
  const plugin = bundler === 'webpack' ? tmsWebpack(project.options()) : tmsRspack(project.options())
  return {
    ...browserWebpackConfig(project.root, outDir, plugin, mode),
    devServer: {
      host: '127.0.0.1',
      port: 0,
      static: { directory: join(project.root, 'public'), watch: false },
      // No client (its error overlay would cover the page), no HMR: the page as the app shows it.
      client: false as const,
      hot: false,
      liveReload: false,
      webSocketServer: false as const,
      setupExitSignals: false,
    },
  }
}

interface Served {
  url: string
  page: Page
  /** Every body the page received, read as text. */
  bodies: Promise<ReceivedBody>[]
  stop(): Promise<void>
}

/** The fixture app in the bundler's dev server, open in Chromium. */
async function serve(bundler: Bundler): Promise<Served> {
  const config = webConfig(bundler, 'development', join(project.root, `dist-${bundler}-dev`))
  const server = await startWebpackDevServer(bundler, config)
  const { page, bodies } = await openOverlayPage(browser, server.url, TIMEOUT)
  return {
    url: server.url,
    page,
    bodies,
    async stop() {
      await page.close()
      await server.stop()
    },
  }
}

beforeAll(async () => {
  project = await setupOverlayProject()
  client = createClient({ baseUrl: project.emu.url, userIdentifier: 'demo-user', userSecret: SECRET })
  const html = readFileSync(join(project.root, 'index.html'), 'utf8')
  const script = '<script type="module" src="/src/main.js"></script>'
  expect(html).toContain(script)
  mkdirSync(join(project.root, 'public'))
  writeFileSync(
    join(project.root, 'public/index.html'),
    html.replace(script, '<script src="/main.js"></script>'),
  )
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await client?.close()
  await project?.close()
})

const panel = '#tms-overlay [data-tms=panel]'

/** `src/main.js:line:column` of a call in the fixture's main.js. */
function locationOf(call: string): string {
  const lines = readFileSync(join(project.root, 'src/main.js'), 'utf8').split('\n')
  const line = lines.findIndex((l) => l.includes(call))
  return `src/main.js:${line + 1}:${lines[line]!.indexOf(call) + 1}`
}

async function call(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/__tms/overlay/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id: 'anything' }),
  })
  await res.arrayBuffer()
  return res.status
}

/** What the overlay's names and marker characters are found in, file by file. */
function overlayTraces(outDir: string): string[] {
  const found: string[] = []
  for (const file of filesUnder(outDir)) {
    const text = readFileSync(file, 'utf8')
    if (MARKER_CHARACTER.test(text)) found.push(`${file}: a marker character`)
    for (const name of WEBPACK_OVERLAY_CODE) if (text.includes(name)) found.push(`${file}: ${name}`)
  }
  return found
}

for (const bundler of ['webpack', 'rspack'] as const) {
  describe(`${bundler}'s dev server`, () => {
    let served: Served

    beforeAll(async () => {
      served = await serve(bundler)
    }, 180_000)

    afterAll(async () => {
      await served?.stop()
    })

    test("Alt+click on a translated text opens its panel: hashcode, file:line:col, the dev server's editor link", async () => {
      const { page } = served
      await page.evaluate(() =>
        (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
      )
      await page.waitForFunction(
        () => document.querySelector('#welcome')?.textContent === 'Bienvenue dans la boutique',
        undefined,
        TIMEOUT,
      )
      await page.click('#greeting', { modifiers: ['Alt'] })
      await page.waitForSelector(`${panel} [data-tms=hashcode]`, TIMEOUT)
      expect(await page.textContent(`${panel} [data-tms=source]`)).toBe('Hello {name}!')
      expect(await page.textContent(`${panel} [data-tms=hashcode]`)).toBe(
        project.hashcodes.get('Hello {name}!'),
      )
      const location = locationOf("t('Hello {name}!'")
      expect(await page.$$eval(`${panel} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
        location,
      ])
      const [, line, column] = location.split(':')
      const file = encodeURIComponent(`${join(project.root, 'src/main.js')}:${line}:${column}`)
      expect(await page.getAttribute(`${panel} [data-tms=location]`, 'href')).toBe(
        `/${bundler}-dev-server/open-editor?fileName=${file}`,
      )
      expect(
        await page.$$eval(`${panel} [data-tms=locales] tr[data-locale]`, (rows) =>
          Object.fromEntries(rows.map((r) => [r.getAttribute('data-locale'), r.children[1]!.textContent])),
        ),
      ).toEqual({
        'fr-FR': 'published',
        'de-DE': 'rejected (published): it drops the placeholder {name}',
        'en-XA': 'pseudo',
      })
    })

    test('the form creates an issue on the string, with its hashcode, locale, type and subtype', async () => {
      const { page } = served
      const text = `Too long for the banner (${bundler})`
      await page.selectOption(`${panel} [data-tms=issue-type]`, 'TRANSLATION')
      await page.selectOption(`${panel} [data-tms=issue-subtype]`, 'DOES_NOT_FIT_SPACE')
      await page.fill(`${panel} [data-tms=issue-text-input]`, text)
      await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
      // Both servers' pages talk to one emulator, so the panel may already list the other bundler's issue.
      await page.locator(`${panel} li.issue[data-issue-uid]`, { hasText: text }).waitFor(TIMEOUT)
      const found = []
      for await (const issue of client.issues.find(PROJECT)) if (issue.issueText === text) found.push(issue)
      expect(found.map((i) => [i.string, i.issueTypeCode, i.issueSubTypeCode, i.issueStateCode])).toEqual([
        [
          { hashcode: project.hashcodes.get('Hello {name}!'), localeId: 'fr-FR' },
          'TRANSLATION',
          'DOES_NOT_FIT_SPACE',
          'OPENED',
        ],
      ])
      const listed = await page.$$eval(`${panel} li.issue`, (items) =>
        items.map((i) => i.getAttribute('data-issue-uid')),
      )
      expect(listed).toContain(found[0]!.issueUid)
      await page.keyboard.press('Escape')
      await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
    })

    test('the dev endpoints refuse another origin, a missing or wrong token, and a request without Origin', async () => {
      const { url } = served
      // The token the overlay's chunk holds, read as any same-origin script could.
      const chunks = (await Promise.all(served.bodies)).filter((r) => r.body.includes('"token":"'))
      expect(chunks.length).toBe(1)
      const token = /"token":"([^"]+)"/.exec(chunks[0]!.body)![1]!
      const self = new URL(url).origin
      // The control: the page's own origin with the token gets an answer (400: no such id).
      expect(await call(url, { origin: self, 'x-tms-overlay-token': token })).toBe(400)
      expect(await call(url, { origin: 'http://evil.example', 'x-tms-overlay-token': token })).toBe(403)
      const localhost = `http://localhost:${new URL(url).port}`
      expect(await call(url, { origin: localhost, 'x-tms-overlay-token': token })).toBe(403)
      expect(await call(url, { origin: self })).toBe(403)
      expect(await call(url, { origin: self, 'x-tms-overlay-token': `${token}x` })).toBe(403)
      expect(await call(url, { 'x-tms-overlay-token': token })).toBe(403)
      expect(
        await call(url, { origin: self, 'x-tms-overlay-token': token, 'sec-fetch-site': 'cross-site' }),
      ).toBe(403)
    })

    test('no credential and no access token reaches the page; the served code has the names the build checks look for', async () => {
      const received = await Promise.all(served.bodies)
      // The page did talk to the endpoints (the panel's message, the form's issue): the scan covers their answers.
      expect(
        received.filter((r) => r.url.includes('/__tms/overlay/')).map((r) => new URL(r.url).pathname),
      ).toEqual(['/__tms/overlay/message', '/__tms/overlay/issue'])
      expect(project.tokens.size).toBeGreaterThan(0)
      const leaks = received.filter(
        (r) => r.body.includes(SECRET) || [...project.tokens].some((t) => r.body.includes(t)),
      )
      expect(leaks.map((r) => r.url)).toEqual([])
      const code = received.map((r) => r.body).join('\n')
      expect(WEBPACK_OVERLAY_CODE.filter((name) => !code.includes(name))).toEqual([])
    })

    test('highlight mode outlines exactly the untranslated text of the page', async () => {
      const { page } = served
      await page.click('#tms-overlay [data-tms=highlight]')
      await page.waitForSelector(
        '#tms-overlay [data-tms=status][data-locale="fr-FR"][data-count="1"]',
        TIMEOUT,
      )
      expect(
        await page.$$eval('#tms-overlay [data-tms=layer] .outline', (boxes) =>
          boxes.map((b) => b.getAttribute('title')),
        ),
      ).toEqual(['Not translated yet'])
      await page.click('#tms-overlay [data-tms=highlight]')
      expect(await page.$$eval('#tms-overlay [data-tms=layer] .outline', (b) => b.length)).toBe(0)
    })

    test('a production build and a plain development build of the same app hold no overlay code and no marker', async () => {
      for (const mode of ['production', 'development'] as const) {
        const outDir = join(project.root, `dist-${bundler}-${mode}`)
        rmSync(outDir, { recursive: true, force: true })
        const config = webConfig(bundler, mode, outDir)
        if (bundler === 'webpack') await runWebpackLike((c) => webpack(c as never) as never, config)
        else await runWebpackLike((c) => rspack(c as never) as never, config)
        const js = filesUnder(outDir).filter((f) => f.endsWith('.js'))
        // The app and a catalog chunk per locale (fr-FR, de-DE, en-XA).
        expect(js.length).toBeGreaterThanOrEqual(4)
        expect(overlayTraces(outDir)).toEqual([])
        const code = js.map((f) => readFileSync(f, 'utf8')).join('\n')
        expect(code).toContain('Bienvenue dans la boutique')
        expect(code).toContain('Welcome to the shop')
      }
    }, 120_000)
  })
}

/** The devServer options the plugin leaves on a compiler of this configuration (never run). */
function devServerOf(bundler: Bundler, config: Record<string, unknown>): unknown {
  const options = {
    context: project.root,
    entry: './src/main.js',
    plugins: [bundler === 'webpack' ? tmsWebpack(project.options()) : tmsRspack(project.options())],
    infrastructureLogging: { level: 'none' },
    ...config,
  }
  const compiler = bundler === 'webpack' ? webpack(options as never) : rspack(options as never)
  return (compiler.options as { devServer?: unknown }).devServer
}

test.each(['webpack', 'rspack'] as const)(
  "%s: only a development compiler for the browser gets the hook; the user's own setupMiddlewares still runs",
  (bundler) => {
    expect(devServerOf(bundler, { mode: 'production', devServer: { port: 0 } })).toEqual({ port: 0 })
    // No mode: the default is production.
    expect(devServerOf(bundler, {})).toBeUndefined()
    expect(devServerOf(bundler, { mode: 'development', target: 'node' })).toBeUndefined()
    expect(devServerOf(bundler, { mode: 'development', devServer: false })).toBe(false)
    const middleware = bundler === 'webpack' ? 'webpack-dev-middleware' : '@rspack/dev-middleware'
    type Hooked = { setupMiddlewares(list: unknown[], server: object): { name?: string }[] }
    process.env.TMS_DEV_OVERLAY = '0'
    try {
      // No overlay: the page's channel of pulled translations (pull-channel.ts) is the one route.
      const pullsOnly = devServerOf(bundler, { mode: 'development' }) as Hooked
      expect(pullsOnly.setupMiddlewares([{ name: middleware }], {}).map((m) => m.name)).toEqual([
        'unplugin-tms-pulls',
        middleware,
      ])
    } finally {
      delete process.env.TMS_DEV_OVERLAY
    }
    const mine = (_req: unknown, _res: unknown, next: () => void) => next()
    const options = devServerOf(bundler, {
      mode: 'development',
      devServer: {
        port: 0,
        setupMiddlewares(this: { port: number }, list: unknown[]) {
          return [...list, { name: `mine-${this.port}`, middleware: mine }]
        },
      },
    }) as Hooked
    const list = options.setupMiddlewares(
      [{ name: 'host-header-check' }, { name: middleware }, { name: 'options-middleware' }],
      {},
    )
    expect(list.map((m) => m.name)).toEqual([
      'host-header-check',
      'unplugin-tms-overlay',
      'unplugin-tms-pulls',
      middleware,
      'options-middleware',
      'mine-0',
    ])
  },
)

test('webpack-dev-server applied as a plugin, as `webpack serve` runs it: its setupMiddlewares mounts the endpoints', async () => {
  let listening!: () => void
  const listened = new Promise<void>((resolve) => {
    listening = resolve
  })
  const { devServer, ...config } = webConfig('webpack', 'development', join(project.root, 'dist-plugin-mode'))
  const server = new WebpackDevServer({ ...devServer, onListening: () => listening() } as never)
  const compiler = webpack({ ...config, plugins: [...config.plugins, server] } as never)
  const watching = compiler.watch({}, () => {})!
  try {
    await listened
    const url = `http://127.0.0.1:${(server.server!.address() as AddressInfo).port}`
    // Mounted: the endpoint answers, and refuses a request without the token.
    expect(await call(url, { origin: url })).toBe(403)
    const bundle = await (await fetch(`${url}/main.js`)).text()
    expect(bundle).toContain('__tms_seen')
  } finally {
    await new Promise<void>((resolve) => watching.close(() => resolve()))
    await new Promise<void>((resolve) => compiler.close(() => resolve()))
  }
}, 120_000)
