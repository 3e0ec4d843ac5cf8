import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Browser, Page } from 'playwright-core'
import { build, createServer, type PreviewServer, preview, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import type { RunningEmulator } from '../../src/emulator/index'
import tms from '../../src/vite'
import { copyExample, startDemoEmulator } from '../helpers/example'
import { onFreePort } from '../helpers/listen'
import { gotoViteDev, launchChromium, serveStatic } from '../plugin/bundlers'

/**
 * examples/vite-react as its README runs it (its own vite.config.ts, the built package), built against
 * the emulator, whose translators publish the demo's translation memory at once. A copy under the
 * repo's .tmp/ resolves react and unplugin-tms as the example does. In headless Chromium: the source
 * text first; a switch puts every visible message (t, tagged t, plural, <T>, rich text through a tag
 * function, the lazy route) in the new locale with no reload, keeping the old locale while the new
 * catalog loads; the link inside a <T> sentence is a real link; the dev server's catalog hot update
 * re-renders <T> and useLocale's components; inline mode's French copy shows the same French.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(REPO, 'examples/vite-react')
const TIMEOUT = { timeout: 60_000 }

let emu: RunningEmulator
let root: string
let browser: Browser

beforeAll(async () => {
  emu = await startDemoEmulator()
  root = copyExample(EXAMPLE, 'react-example-')
  // The build pushes the messages, gets them translated, pulls them and fills the cache.
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent' })
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

/** What the reader sees of each message, by element. */
async function shown(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent ?? null
    return Object.fromEntries(
      Object.entries({
        title: 'h1',
        greeting: '#greeting',
        signedIn: '#signed-in',
        language: 'label',
        helpLink: '#help-link',
        cart: '#cart h2',
        count: '#cart-count',
        checkout: '#cart button:nth-of-type(1)',
        cancel: '#cart button:nth-of-type(2)',
        contact: '#contact',
        help: '#help h2',
        shipping: '#shipping',
      })
        .map(([key, selector]) => [key, text(selector)])
        .filter(([, value]) => value !== null),
    )
  })
}

const languageLabel = (label: string) => `${label} en-USfr-FRde-DEja-JPen-XAar-XB`

const SOURCE = {
  title: 'Welcome to the demo store',
  greeting: 'Hello Ada!',
  signedIn: 'Signed in as Ada',
  language: languageLabel('Language'),
  helpLink: 'Read our help pages before you check out.',
  cart: 'Your cart',
  count: '1 item in your cart',
  checkout: 'Checkout',
  cancel: 'Cancel',
  contact: 'Questions? Write to us.',
}

const FRENCH = {
  title: 'Bienvenue dans la boutique de démonstration',
  greeting: 'Bonjour Ada !',
  signedIn: 'Connecté en tant que Ada',
  language: languageLabel('Langue'),
  helpLink: 'Lisez nos pages d’aide avant de payer.',
  cart: 'Votre panier',
  count: '1 article dans votre panier',
  checkout: 'Payer',
  cancel: 'Annuler',
  contact: 'Des questions ? Écrivez-nous.',
}

const GERMAN = {
  title: 'Willkommen im Demo-Shop',
  greeting: 'Hallo Ada!',
  signedIn: 'Angemeldet als Ada',
  language: languageLabel('Sprache'),
  helpLink: 'Lesen Sie unsere Hilfeseiten, bevor Sie bezahlen.',
  cart: 'Ihr Warenkorb',
  count: '1 Artikel im Warenkorb',
  checkout: 'Zur Kasse',
  cancel: 'Abbrechen',
  contact: 'Fragen? Schreiben Sie uns.',
}

/** A request the test answers when it wants to: the catalog or chunk stays "on the network" until then. */
function hold(page: Page, pattern: string): { release(): void; requested: Promise<void> } {
  let release!: () => void
  let requested!: () => void
  const released = new Promise<void>((r) => {
    release = r
  })
  const seen = new Promise<void>((r) => {
    requested = r
  })
  void page.route(pattern, async (route) => {
    requested()
    await released
    await route.continue()
  })
  return { release, requested: seen }
}

describe('the production build', () => {
  let server: PreviewServer
  let page: Page

  beforeAll(async () => {
    server = await onFreePort(() =>
      preview({
        root,
        configFile: join(root, 'vite.config.ts'),
        logLevel: 'silent',
        preview: { host: '127.0.0.1', port: 0 },
      }),
    )
    page = await browser.newPage()
    await page.goto(server.resolvedUrls!.local[0]!)
    await page.waitForSelector('#greeting', TIMEOUT)
  }, 120_000)

  afterAll(async () => {
    await page?.close()
    await new Promise<void>((resolve) => server?.httpServer.close(() => resolve()))
  })

  test('source text first; a switch puts every visible message in French, with no reload', async () => {
    expect(await shown(page)).toEqual(SOURCE)
    await page.evaluate(() => {
      ;(window as unknown as { sameWindow: boolean }).sameWindow = true
    })
    await page.selectOption('#locale', 'fr-FR')
    await page.waitForFunction(
      () => document.querySelector('#greeting')?.textContent === 'Bonjour Ada !',
      TIMEOUT,
    )
    expect(await shown(page)).toEqual(FRENCH)
    expect(await page.getAttribute('main', 'lang')).toBe('fr-FR')
    // The tags of the <T> sentence and of the tag function are the app's own elements, props kept.
    expect(await page.$eval('#help-link a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      '#/help',
      'pages d’aide',
    ])
    expect(await page.$eval('#contact a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      'mailto:shop@example.com',
      'Écrivez-nous',
    ])
    expect(await page.evaluate(() => (window as unknown as { sameWindow?: boolean }).sameWindow)).toBe(true)
  })

  test('while the German catalog loads, the page stays French and the switch is pending; then all German at once', async () => {
    const catalog = hold(page, '**/assets/tms-de-DE-*.js')
    await page.selectOption('#locale', 'de-DE')
    await catalog.requested
    await page.waitForSelector('#locale[aria-busy="true"]', TIMEOUT)
    expect(await shown(page)).toEqual(FRENCH)
    catalog.release()
    await page.waitForFunction(
      () => document.querySelector('#greeting')?.textContent === 'Hallo Ada!',
      TIMEOUT,
    )
    expect(await shown(page)).toEqual(GERMAN)
    await page.waitForSelector('#locale[aria-busy="false"]', TIMEOUT)
    expect(await page.$eval('#locale', (s) => (s as HTMLSelectElement).value)).toBe('de-DE')
  })

  test('the link inside the <T> sentence opens the lazy route, in German from its first paint', async () => {
    const chunk = hold(page, '**/assets/Help-*.js')
    await page.click('#help-link a')
    await chunk.requested
    // The route's chunk is on its way: Suspense's fallback, itself a message.
    await page.waitForSelector('#loading', TIMEOUT)
    expect(await page.textContent('#loading')).toBe('Wird geladen…')
    chunk.release()
    await page.waitForSelector('#help', TIMEOUT)
    expect(await page.evaluate(() => window.location.hash)).toBe('#/help')
    const {
      helpLink: _link,
      cart: _cart,
      count: _count,
      checkout: _c,
      cancel: _x,
      contact: _m,
      ...kept
    } = GERMAN
    expect(await shown(page)).toEqual({
      ...kept,
      help: 'Hilfe',
      shipping: 'Bestellungen werden innerhalb von zwei Tagen versandt. Zurück zum Shop',
    })
    expect(await page.$eval('#shipping b', (b) => b.textContent)).toBe('zwei Tagen')
    await page.selectOption('#locale', 'ja-JP')
    await page.waitForFunction(() => document.querySelector('#help h2')?.textContent === 'ヘルプ', TIMEOUT)
    expect(await page.textContent('#shipping')).toBe('ご注文は2日以内に発送されます。ストアに戻る')
    await page.click('#shipping a')
    await page.waitForSelector('#help-link', TIMEOUT)
    expect(await page.textContent('#help-link')).toBe('お支払いの前にヘルプページをお読みください。')
    expect(await page.textContent('#cart-count')).toBe('カートに1個の商品があります')
  })

  test('the pseudo-locale: every message pseudo-localized, screenshot saved', async () => {
    await page.selectOption('#locale', 'en-XA')
    const greeting = pseudoLocalize('Hello {name}!', 'en-XA').replace('{name}', 'Ada')
    await page.waitForFunction(
      (expected) => document.querySelector('#greeting')?.textContent === expected,
      greeting,
      TIMEOUT,
    )
    const link = pseudoLocalize('Read our <a>help pages</a> before you check out.', 'en-XA')
    expect(await page.textContent('#help-link')).toBe(link.replace(/<\/?a>/g, ''))
    expect(await page.textContent('h1')).toBe(pseudoLocalize('Welcome to the demo store', 'en-XA'))
    mkdirSync(join(REPO, 'test-results'), { recursive: true })
    await page.screenshot({ path: join(REPO, 'test-results/react-pseudo.png'), fullPage: true })
  })
})

test('inline mode: the French copy renders <T>, the plural and the rich text in French, with no catalog', async () => {
  const outDir = join(root, 'dist-inline')
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    // The example's tms.config.mjs (which the plugin reads from the root) adds pseudo-locales: not here.
    plugins: [
      react(),
      tms({ locales: ['fr-FR', 'de-DE', 'ja-JP'], pseudo: false, mode: 'inline', cache: 'offline' }),
    ],
    // The example's top-level await, as its vite.config.ts says.
    build: { outDir, target: 'es2022' },
  })
  const server = await serveStatic(outDir)
  const page = await browser.newPage()
  try {
    const requests: string[] = []
    page.on('request', (r) => requests.push(new URL(r.url()).pathname))
    await page.goto(`${server.url}/fr-FR/index.html`)
    await page.waitForSelector('#greeting', TIMEOUT)
    expect(await shown(page)).toEqual({ ...FRENCH, language: 'Langue fr-FRen-USde-DEja-JP' })
    expect(await page.$eval('#help-link a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      '#/help',
      'pages d’aide',
    ])
    expect(requests.filter((r) => /tms-/.test(r))).toEqual([])
  } finally {
    await page.close()
    await server.close()
  }
}, 180_000)

test('in the dev server, a catalog hot update re-renders <T> and useLocale components, with no reload (last: it changes the cache)', async () => {
  const server: ViteDevServer = await createServer({
    root,
    // Its own dependency cache: every example under .tmp would share the repo's node_modules/.vite. In
    // the copy's own node_modules, as vite's default is: a pre-bundled dependency outside node_modules
    // goes through the plugins' transforms (plugin-react 4 runs Babel on all of react-dom, slow on vite 5).
    cacheDir: join(root, 'node_modules/.vite'),
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
  })
  const page = await browser.newPage()
  try {
    await onFreePort(() => server.listen())
    await gotoViteDev(page, `${server.resolvedUrls!.local[0]!}?lang=fr-FR`)
    await page.waitForFunction(
      () => document.querySelector('#greeting')?.textContent === 'Bonjour Ada !',
      TIMEOUT,
    )
    expect(await shown(page)).toEqual(FRENCH)
    await page.evaluate(() => {
      ;(window as unknown as { sameWindow: boolean }).sameWindow = true
    })
    const cache = new DiskCache(join(root, '.tms-cache'), 'demo-project')
    const [manifest, current] = await Promise.all([
      cache.readManifest(),
      cache.readLocale('fr-FR', 'published'),
    ])
    if (!manifest.hit || !current.hit) throw new Error('the build filled no cache')
    const hashcode = (parsed: string) =>
      Object.values(manifest.value.entries).find((e) => e.parsed === parsed)!.hashcode
    await cache.writeLocale('fr-FR', 'published', {
      ...current.value.translations,
      [hashcode('Read our {0}help pages{1} before you check out.')]: 'Consultez l’{0}aide{1} avant de payer.',
      [hashcode('Your cart')]: 'Votre chariot',
    })
    // <T> re-renders by itself; Cart has no hook of its own and re-renders with App (useLocale).
    await page.waitForFunction(
      () => document.querySelector('#help-link')?.textContent === 'Consultez l’aide avant de payer.',
      TIMEOUT,
    )
    await page.waitForFunction(
      () => document.querySelector('#cart h2')?.textContent === 'Votre chariot',
      TIMEOUT,
    )
    expect(await page.$eval('#help-link a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      '#/help',
      'aide',
    ])
    expect(await page.evaluate(() => (window as unknown as { sameWindow?: boolean }).sameWindow)).toBe(true)
  } finally {
    await page.close()
    await server.close()
  }
}, 180_000)
