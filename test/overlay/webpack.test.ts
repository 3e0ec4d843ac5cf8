import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import webpack from 'webpack'
import WebpackDevServer, { type Configuration } from 'webpack-dev-server'
import { createClient, type TmsClient } from '../../src/client/index'
import tmsWebpack from '../../src/webpack'
import { launchChromium, runWebpackLike } from '../plugin/bundlers'
import {
  filesUnder,
  MARKER_CHARACTER,
  OVERLAY_CODE,
  type OverlayProject,
  PROJECT,
  SECRET,
  setupOverlayProject,
} from './project'

/**
 * The review overlay in webpack-dev-server (webpack 5) in Chromium, on the overlay fixture app
 * against the emulator; and the same app built by `webpack` with no dev server, which holds none of it.
 */

const TIMEOUT = { timeout: 30_000 }
/** The overlay's names, with webpack-dev-server's editor link in place of vite's. */
const WEBPACK_OVERLAY_CODE = [
  ...OVERLAY_CODE.filter((n) => n !== '__open-in-editor'),
  'open-editor?fileName=',
]

let project: OverlayProject
let client: TmsClient
let browser: Browser
let server: WebpackDevServer
let page: Page
let url: string
/** Every body the page received, read as text. */
const bodies: Promise<{ url: string; body: string }>[] = []

/** The fixture app for the browser: its page loads webpack's bundle instead of vite's module. */
function webConfig(root: string, mode: 'development' | 'production', outDir: string) {
  return {
    mode,
    context: root,
    entry: './src/main.js',
    target: 'web',
    devtool: false as const,
    output: { path: outDir, filename: 'main.js', publicPath: '/', clean: true },
    plugins: [tmsWebpack(project.options())],
    infrastructureLogging: { level: 'none' as const },
    stats: 'none' as const,
    devServer: {
      host: '127.0.0.1',
      port: 0,
      static: { directory: join(root, 'public'), watch: false },
      // No client (its error overlay would cover the page), no HMR: the page as the app shows it.
      client: false as const,
      hot: false,
      liveReload: false,
      webSocketServer: false as const,
      setupExitSignals: false,
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
  const compiler = webpack(webConfig(project.root, 'development', join(project.root, 'dist-dev')) as never)
  // What `webpack serve` does: the server gets the compiler's devServer options, the plugin's hook in them.
  server = new WebpackDevServer(compiler.options.devServer as Configuration, compiler)
  await server.start()
  url = `http://127.0.0.1:${(server.server!.address() as AddressInfo).port}`
  page = await browser.newPage()
  page.on('response', (response) => {
    bodies.push(
      response.body().then(
        (b) => ({ url: response.url(), body: b.toString('utf8') }),
        () => ({ url: response.url(), body: '' }),
      ),
    )
  })
  await page.goto(`${url}/`)
  await page.waitForFunction(
    () => (window as unknown as { app?: unknown }).app !== undefined,
    undefined,
    TIMEOUT,
  )
  await page.waitForSelector('#tms-overlay [data-tms=pick]', TIMEOUT)
}, 180_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await server?.stop()
  await client?.close()
  await project?.close()
})

const panel = '#tms-overlay [data-tms=panel]'

async function setLocale(locale: string, welcome: string): Promise<void> {
  await page.evaluate(
    (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
    locale,
  )
  await page.waitForFunction(
    (text) => document.querySelector('#welcome')?.textContent === text,
    welcome,
    TIMEOUT,
  )
}

/** `src/main.js:line:column` of a call in the fixture's main.js. */
function locationOf(call: string): string {
  const lines = readFileSync(join(project.root, 'src/main.js'), 'utf8').split('\n')
  const line = lines.findIndex((l) => l.includes(call))
  return `src/main.js:${line + 1}:${lines[line]!.indexOf(call) + 1}`
}

test('Alt+click on a translated text opens its panel: hashcode, file:line:col, an editor link to webpack-dev-server', async () => {
  await setLocale('fr-FR', 'Bienvenue dans la boutique')
  await page.click('#greeting', { modifiers: ['Alt'] })
  await page.waitForSelector(`${panel} [data-tms=hashcode]`, TIMEOUT)
  expect(await page.textContent(`${panel} [data-tms=source]`)).toBe('Hello {name}!')
  expect(await page.textContent(`${panel} [data-tms=hashcode]`)).toBe(project.hashcodes.get('Hello {name}!'))
  const location = locationOf("t('Hello {name}!'")
  expect(await page.$$eval(`${panel} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    location,
  ])
  const [, line, column] = location.split(':')
  expect(await page.getAttribute(`${panel} [data-tms=location]`, 'href')).toBe(
    `/webpack-dev-server/open-editor?fileName=${encodeURIComponent(`${join(project.root, 'src/main.js')}:${line}:${column}`)}`,
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
  await page.selectOption(`${panel} [data-tms=issue-type]`, 'TRANSLATION')
  await page.selectOption(`${panel} [data-tms=issue-subtype]`, 'DOES_NOT_FIT_SPACE')
  await page.fill(`${panel} [data-tms=issue-text-input]`, 'Too long for the banner')
  await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
  await page.waitForSelector(`${panel} li.issue`, TIMEOUT)
  const found = []
  for await (const issue of client.issues.find(PROJECT)) found.push(issue)
  expect(
    found.map((i) => [i.string, i.issueTypeCode, i.issueSubTypeCode, i.issueText, i.issueStateCode]),
  ).toEqual([
    [
      { hashcode: project.hashcodes.get('Hello {name}!'), localeId: 'fr-FR' },
      'TRANSLATION',
      'DOES_NOT_FIT_SPACE',
      'Too long for the banner',
      'OPENED',
    ],
  ])
  expect(await page.getAttribute(`${panel} li.issue`, 'data-issue-uid')).toBe(found[0]!.issueUid)
  await page.keyboard.press('Escape')
  await page.waitForSelector(panel, { state: 'hidden', ...TIMEOUT })
})

async function call(headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/__tms/overlay/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id: 'anything' }),
  })
  await res.arrayBuffer()
  return res.status
}

test('the dev endpoints refuse another origin, a missing or wrong token, and a request without Origin', async () => {
  // The token the overlay's chunk holds, read as any same-origin script could.
  const chunks = (await Promise.all(bodies)).filter((r) => r.body.includes('"token":"'))
  expect(chunks.length).toBe(1)
  const token = /"token":"([^"]+)"/.exec(chunks[0]!.body)![1]!
  const self = new URL(url).origin
  // The control: the page's own origin with the token gets an answer (400: no such id).
  expect(await call({ origin: self, 'x-tms-overlay-token': token })).toBe(400)
  expect(await call({ origin: 'http://evil.example', 'x-tms-overlay-token': token })).toBe(403)
  expect(await call({ origin: `http://localhost:${new URL(url).port}`, 'x-tms-overlay-token': token })).toBe(
    403,
  )
  expect(await call({ origin: self })).toBe(403)
  expect(await call({ origin: self, 'x-tms-overlay-token': `${token}x` })).toBe(403)
  expect(await call({ 'x-tms-overlay-token': token })).toBe(403)
  expect(await call({ origin: self, 'x-tms-overlay-token': token, 'sec-fetch-site': 'cross-site' })).toBe(403)
})

test('no credential and no access token reaches the page', async () => {
  const received = await Promise.all(bodies)
  // The page did talk to the endpoints (the panel's message, the form's issue): the scan covers their answers.
  expect(
    received.filter((r) => r.url.includes('/__tms/overlay/')).map((r) => new URL(r.url).pathname),
  ).toEqual(['/__tms/overlay/message', '/__tms/overlay/issue'])
  expect(project.tokens.size).toBeGreaterThan(0)
  const leaks = received.filter(
    (r) => r.body.includes(SECRET) || [...project.tokens].some((t) => r.body.includes(t)),
  )
  expect(leaks.map((r) => r.url)).toEqual([])
})

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

test('the dev server did serve the names the build checks look for', async () => {
  const served = (await Promise.all(bodies)).map((r) => r.body).join('\n')
  expect(WEBPACK_OVERLAY_CODE.filter((name) => !served.includes(name))).toEqual([])
})

test('`webpack --mode production` and a plain development build of the same app hold no overlay code and no marker', async () => {
  for (const mode of ['production', 'development'] as const) {
    const outDir = join(project.root, `dist-${mode}`)
    rmSync(outDir, { recursive: true, force: true })
    await runWebpackLike((config) => webpack(config as never) as never, webConfig(project.root, mode, outDir))
    const js = filesUnder(outDir).filter((f) => f.endsWith('.js'))
    // The app and a catalog chunk per locale (fr-FR, de-DE, en-XA).
    expect(js.length).toBeGreaterThanOrEqual(4)
    expect(overlayTraces(outDir)).toEqual([])
    const code = js.map((f) => readFileSync(f, 'utf8')).join('\n')
    expect(code).toContain('Bienvenue dans la boutique')
    expect(code).toContain('Welcome to the shop')
  }
}, 120_000)

/** The devServer options the plugin leaves on a compiler of this configuration (never run). */
function devServerOf(config: Record<string, unknown>): unknown {
  const compiler = webpack({
    context: project.root,
    entry: './src/main.js',
    plugins: [tmsWebpack(project.options())],
    infrastructureLogging: { level: 'none' },
    ...config,
  } as never)
  return compiler.options.devServer
}

test("only a development compiler for the browser gets the hook; the user's own setupMiddlewares still runs", () => {
  expect(devServerOf({ mode: 'production', devServer: { port: 0 } })).toEqual({ port: 0 })
  // No mode: webpack's default is production.
  expect(devServerOf({})).toBeUndefined()
  expect(devServerOf({ mode: 'development', target: 'node' })).toBeUndefined()
  expect(devServerOf({ mode: 'development', devServer: false })).toBe(false)
  process.env.TMS_DEV_OVERLAY = '0'
  try {
    expect(devServerOf({ mode: 'development' })).toBeUndefined()
  } finally {
    delete process.env.TMS_DEV_OVERLAY
  }
  const mine = (_req: unknown, _res: unknown, next: () => void) => next()
  const options = devServerOf({
    mode: 'development',
    devServer: {
      port: 0,
      setupMiddlewares(this: { port: number }, list: unknown[]) {
        return [...list, { name: `mine-${this.port}`, middleware: mine }]
      },
    },
  }) as { setupMiddlewares(list: unknown[], server: object): { name?: string }[] }
  const list = options.setupMiddlewares(
    [{ name: 'host-header-check' }, { name: 'webpack-dev-middleware' }, { name: 'options-middleware' }],
    {},
  )
  expect(list.map((m) => m.name)).toEqual([
    'host-header-check',
    'unplugin-tms-overlay',
    'webpack-dev-middleware',
    'options-middleware',
    'mine-0',
  ])
})
