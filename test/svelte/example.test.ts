import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, createServer, type PreviewServer, preview, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import { DEMO_SEED, type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { onFreePort } from '../helpers/listen'
import { gotoViteDev, launchChromium } from '../plugin/bundlers'

/**
 * examples/vite-svelte as its README runs it (its own vite.config.ts with Svelte's vite plugin, the
 * built package), against the emulator whose translators know the French of its messages: a Svelte 5
 * page in headless Chromium, source text first, then French in every message (markup, attribute,
 * script `$derived`, lazy route, plural, rich text) after the switcher, without a reload. The copy
 * lives under the repo's .tmp/ so that it resolves svelte and unplugin-tms as the example does.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(REPO, 'examples/vite-svelte')
const TIMEOUT = { timeout: 30_000 }

/** The example's messages in French, as the translators' memory holds them (parsed text). */
const FRENCH: [string, string][] = [
  ['Welcome to the Svelte store', 'Bienvenue dans la boutique Svelte'],
  ['Open your cart', 'Ouvrir votre panier'],
  ['Your cart', 'Votre panier'],
  ['Language', 'Langue'],
  [
    'Read the {0}terms of {1}sale{2}{3} before you order.',
    'Lisez les {0}conditions de {1}vente{2}{3} avant de commander.',
  ],
  [
    '{count, plural, one {# item in your cart} other {# items in your cart}}',
    '{count, plural, one {# article dans votre panier} other {# articles dans votre panier}}',
  ],
  ['Checkout', 'Commander'],
  ['Terms of sale', 'Conditions de vente'],
]

let emu: RunningEmulator
let root: string
let browser: Browser
let server: PreviewServer
let page: Page

beforeAll(async () => {
  const memory = FRENCH.map(([source, target]) => ({ localeId: 'fr-FR', source, target }))
  emu = await startEmulator({
    port: 0,
    seed: { ...DEMO_SEED, translationMemory: [...DEMO_SEED.translationMemory!, ...memory] },
    autoTranslate: { mode: 'memory', publishDelayMs: 0 },
  })
  Object.assign(process.env, {
    TMS_BASE_URL: emu.url,
    TMS_PROJECT_ID: 'demo-project',
    TMS_USER_IDENTIFIER: 'demo-user',
    TMS_USER_SECRET: 'demo-secret',
  })
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  root = mkdtempSync(join(REPO, '.tmp', 'example-vite-svelte-'))
  cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !/[\\/](?:dist|\.tms-cache)$/.test(src) })
  const configFile = join(root, 'vite.config.ts')
  await build({ root, configFile, logLevel: 'silent' })
  server = await onFreePort(() =>
    preview({ root, configFile, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0 } }),
  )
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(server.resolvedUrls!.local[0]!)
  await page.waitForSelector('#greeting', TIMEOUT)
}, 180_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  // Vite 5.0's preview server has no close(): its HTTP server does.
  if (server?.close) await server.close()
  else server?.httpServer.close()
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Every message the page shows, each as it reads. */
async function visible(): Promise<Record<string, string | null>> {
  return page.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null
    return {
      title: text('h1'),
      greeting: text('#greeting'),
      language: document.querySelector('label')!.firstChild!.textContent!.trim(),
      cartLink: text('#cart-link'),
      cartLinkTitle: document.querySelector('#cart-link')!.getAttribute('title'),
      terms: text('#terms'),
      termsLink: text('#terms-link'),
      termsBold: text('#terms-link > strong'),
      cart: text('#cart h2'),
      count: text('#cart-count'),
      checkout: text('#cart button'),
    }
  })
}

const waitForText = (selector: string, text: string) =>
  page.waitForFunction(
    ([s, t]) => document.querySelector(s!)?.textContent?.trim() === t,
    [selector, text],
    TIMEOUT,
  )

test('source text first; every message in French after the switcher, with no reload; the rich-text link is a real link', async () => {
  await page.click('#cart-link')
  await page.waitForSelector('#cart-count', TIMEOUT)
  expect(await visible()).toEqual({
    title: 'Welcome to the Svelte store',
    greeting: 'Hello Ada!',
    language: 'Language',
    cartLink: 'Your cart',
    cartLinkTitle: 'Open your cart',
    terms: 'Read the terms of sale before you order.',
    termsLink: 'terms of sale',
    termsBold: 'sale',
    cart: 'Your cart',
    count: '3 items in your cart',
    checkout: 'Checkout',
  })
  await page.evaluate(() => {
    ;(window as unknown as { stayed: boolean }).stayed = true
  })

  await page.selectOption('#locale', 'fr-FR')
  await waitForText('#greeting', 'Bonjour Ada !')
  expect(await visible()).toEqual({
    title: 'Bienvenue dans la boutique Svelte',
    greeting: 'Bonjour Ada !',
    language: 'Langue',
    cartLink: 'Votre panier',
    cartLinkTitle: 'Ouvrir votre panier',
    terms: 'Lisez les conditions de vente avant de commander.',
    termsLink: 'conditions de vente',
    termsBold: 'vente',
    cart: 'Votre panier',
    count: '3 articles dans votre panier',
    checkout: 'Commander',
  })
  expect(await page.getAttribute('main', 'lang')).toBe('fr-FR')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)

  // The link inside the translated sentence is the snippet's <a>: a click follows it.
  expect(await page.$eval('#terms-link', (a) => a.tagName)).toBe('A')
  await page.click('#terms-link')
  await waitForText('#terms-page h2', 'Conditions de vente')
  expect(await page.evaluate(() => location.hash)).toBe('#/terms')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)

  await page.selectOption('#locale', 'en-XA')
  const pseudo = pseudoLocalize('Hello {name}!', 'en-XA').replace('{name}', 'Ada')
  await waitForText('#greeting', pseudo)
  expect(await page.textContent('#terms-page h2')).toBe(pseudoLocalize('Terms of sale', 'en-XA'))
  // Back to the cart for the screenshot: the lazy route's plural in the pseudo-locale too.
  await page.click('#cart-link')
  await waitForText('#cart h2', pseudoLocalize('Your cart', 'en-XA'))
  expect(await page.textContent('#cart-count')).toMatch(/^\[.*3.*\]$/)
  expect(await page.textContent('#cart-count')).not.toContain('items in your cart')
  mkdirSync(join(REPO, 'test-results'), { recursive: true })
  await page.screenshot({ path: join(REPO, 'test-results', 'svelte-pseudo.png'), fullPage: true })
})

test('the app, the lookups and the binding share one runtime; each route is a chunk of its own', () => {
  const files = readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name))
  const withRuntime = files.filter((f) => readFileSync(f, 'utf8').includes('[unplugin-tms] unknown locale'))
  expect(withRuntime).toHaveLength(1)
  const routes = files
    .filter((f) => /[\\/](?:Cart|Terms)-[\w-]+\.js$/.test(f))
    .map((f) => f.replace(/.*[\\/]/, ''))
  expect(routes.map((f) => f.replace(/-[\w-]+\.js$/, '')).sort()).toEqual(['Cart', 'Terms'])
})

test('the dev server: a change of the cached French re-renders the markup with no reload', async () => {
  const configFile = join(root, 'vite.config.ts')
  const dev: ViteDevServer = await createServer({
    root,
    // Its own dependency cache: every example under .tmp would share the repo's node_modules/.vite.
    cacheDir: join(root, '.vite'),
    configFile,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
  })
  const tab = await browser.newPage()
  try {
    await onFreePort(() => dev.listen())
    await gotoViteDev(tab, dev.resolvedUrls!.local[0]!)
    await tab.waitForSelector('#cart-link', TIMEOUT)
    await tab.selectOption('#locale', 'fr-FR')
    const link = (text: string) =>
      tab.waitForFunction((t) => document.querySelector('#cart-link')?.textContent === t, text, TIMEOUT)
    await link('Votre panier')
    await tab.evaluate(() => {
      ;(window as unknown as { stayed: boolean }).stayed = true
    })
    // What `tms pull` in another terminal does: the cache's French changes.
    const cache = new DiskCache(join(root, '.tms-cache'), 'demo-project')
    const manifest = await cache.readManifest()
    const french = await cache.readLocale('fr-FR', 'published')
    if (!manifest.hit || !french.hit) throw new Error('the build filled no cache')
    const hashcode = Object.values(manifest.value.entries).find((e) => e.parsed === 'Your cart')!.hashcode
    await cache.writeLocale('fr-FR', 'published', { ...french.value.translations, [hashcode]: 'Mon panier' })
    await link('Mon panier')
    expect(await tab.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
    expect(await tab.textContent('#greeting')).toBe('Bonjour Ada !')
  } finally {
    await tab.close()
    await dev.close()
  }
})
