import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import type { RunningEmulator } from '../../src/emulator/index'
import { copyExample, startDemoEmulator } from '../helpers/example'
import { onFreePort } from '../helpers/listen'
import { gotoViteDev, launchChromium, serveStatic } from '../plugin/bundlers'

/**
 * examples/vite-vue as its README runs it (its own vite.config.ts with @vitejs/plugin-vue, the built
 * package), built against the emulator, whose translators publish the demo memory's translations (the
 * example's strings are in it), then served and driven in Chromium: source text first, a switch through
 * the example's own switcher (useLocale's ref), every visible text in French with no reload, the link
 * inside the rich-text sentence clicked, and the pseudo-locale's screenshot.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(REPO, 'examples/vite-vue')
const TIMEOUT = { timeout: 30_000 }

let emu: RunningEmulator
let root: string
let browser: Browser
let server: { url: string; close(): Promise<void> }
let page: Page

beforeAll(async () => {
  emu = await startDemoEmulator()
  root = copyExample(EXAMPLE, 'vite-vue-')
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent' })
  server = await serveStatic(join(root, 'dist'))
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(server.url)
  await page.waitForSelector('#greeting', TIMEOUT)
}, 240_000)

let dev: ViteDevServer | undefined

afterAll(async () => {
  await dev?.close()
  await page?.close()
  await browser?.close()
  await server?.close()
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Every text the test reads, by selector. */
const TEXTS = {
  label: '#language',
  h1: 'h1',
  greeting: '#greeting',
  cart: '#cart-count',
  add: '#add',
  terms: '#terms',
  link: '#terms-link',
  delivery: '#delivery h2',
  returns: '#returns',
}

async function texts(): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [name, selector] of Object.entries(TEXTS)) {
    out[name] = ((await page.textContent(selector)) ?? '').trim()
  }
  out.title = (await page.getAttribute('#add', 'title')) ?? ''
  return out
}

const SOURCE = {
  label: 'Language',
  h1: 'Welcome to the Vue store',
  greeting: 'Hello Ada!',
  cart: '2 items in your cart',
  add: 'Add an item',
  terms: 'Read the terms of sale before you buy.',
  link: 'terms of sale',
  delivery: 'Delivery and returns',
  returns: 'Free returns within 30 days',
  title: 'Adds one more item to your cart',
}

const FRENCH = {
  label: 'Langue',
  h1: 'Bienvenue dans la boutique Vue',
  greeting: 'Bonjour Ada !',
  cart: '2 articles dans votre panier',
  add: 'Ajouter un article',
  terms: 'Lisez les conditions de vente avant d’acheter.',
  link: 'conditions de vente',
  delivery: 'Livraison et retours',
  returns: 'Retours gratuits sous 30 jours',
  title: 'Ajoute un article à votre panier',
}

test('source text, then French after a switch: template, script, plural, lazy component and rich text, no reload', async () => {
  expect(await page.textContent('#cart-count')).toBe('1 item in your cart')
  await page.click('#add')
  await page.waitForFunction(
    () => document.querySelector('#cart-count')?.textContent === '2 items in your cart',
  )
  // The lazy component: its own chunk, loaded on the click.
  await page.click('#show-delivery')
  await page.waitForSelector('#delivery', TIMEOUT)
  expect(await texts()).toEqual(SOURCE)
  expect(await page.$$eval('#locale option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
    'en-US',
    'fr-FR',
    'de-DE',
    'ja-JP',
    'en-XA',
    'ar-XB',
  ])

  await page.evaluate(() => Object.assign(window, { stayed: true }))
  await page.selectOption('#locale', 'fr-FR')
  await page.waitForFunction(
    () => document.querySelector('#greeting')?.textContent === 'Bonjour Ada !',
    undefined,
    TIMEOUT,
  )
  expect(await texts()).toEqual(FRENCH)
  expect(await page.getAttribute('main', 'lang')).toBe('fr-FR')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)

  // The plural follows later changes in the new locale.
  await page.click('#add')
  await page.waitForFunction(
    () => document.querySelector('#cart-count')?.textContent === '3 articles dans votre panier',
  )
})

test('the link inside the translated sentence is a real element that navigates', async () => {
  expect(await page.$eval('#terms-link', (a) => [a.tagName, a.parentElement?.id])).toEqual(['A', 'terms'])
  await page.click('#terms-link')
  await page.waitForFunction(() => location.hash === '#terms')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
})

test('the pseudo-locale: every text pseudo-localized, a screenshot saved', async () => {
  await page.selectOption('#locale', 'en-XA')
  const h1 = pseudoLocalize('Welcome to the Vue store', 'en-XA')
  await page.waitForFunction((text) => document.querySelector('h1')?.textContent === text, h1, TIMEOUT)
  expect(await page.textContent('#greeting')).toBe(
    pseudoLocalize('Hello {name}!', 'en-XA').replace('{name}', 'Ada'),
  )
  expect(await page.textContent('#terms-link')).not.toBe('terms of sale')
  mkdirSync(join(REPO, 'test-results'), { recursive: true })
  await page.screenshot({ path: join(REPO, 'test-results', 'vue-pseudo.png'), fullPage: true })
})

test('one runtime in the bundle: the binding and the lookups share the app runtime module', () => {
  const dir = join(root, 'dist', 'assets')
  const js = readdirSync(dir).filter((f) => f.endsWith('.js'))
  const holders = js.filter((f) =>
    readFileSync(join(dir, f), 'utf8').includes('[unplugin-tms] unknown locale'),
  )
  expect(holders).toHaveLength(1)
  expect(js.filter((f) => f.startsWith('tms-')).sort()).toEqual(
    ['ar-XB', 'de-DE', 'en-US', 'en-XA', 'fr-FR', 'ja-JP'].map((l) =>
      expect.stringMatching(new RegExp(`^tms-${l}-`)),
    ),
  )
})

test('the dev server: a catalog hot update re-renders the template and <T> in place, with no reload', async () => {
  // The build above filled the cache; the dev server reads it.
  const server = await createServer({
    root,
    // Its own dependency cache: every example under .tmp would share the repo's node_modules/.vite.
    cacheDir: join(root, '.vite'),
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
  })
  dev = server
  await onFreePort(() => server.listen())
  await gotoViteDev(page, dev.resolvedUrls!.local[0]!)
  await page.waitForSelector('#greeting', TIMEOUT)
  expect(await page.textContent('h1')).toBe('Welcome to the Vue store')
  await page.selectOption('#locale', 'fr-FR')
  await page.waitForFunction(
    () => document.querySelector('h1')?.textContent === 'Bienvenue dans la boutique Vue',
    undefined,
    TIMEOUT,
  )
  await page.evaluate(() => Object.assign(window, { stayed: true }))

  const cache = new DiskCache(join(root, '.tms-cache'), 'demo-project')
  const manifest = await cache.readManifest()
  const current = await cache.readLocale('fr-FR', 'published')
  if (!manifest.hit || !current.hit) throw new Error('the build did not fill the cache')
  const hashcodeOf = (parsed: string) =>
    Object.values(manifest.value.entries).find((e) => e.parsed === parsed)!.hashcode
  const h1 = hashcodeOf('Welcome to the Vue store')
  const terms = hashcodeOf('Read the {0}terms of sale{1} before you buy.')
  await cache.writeLocale('fr-FR', 'published', {
    ...current.value.translations,
    [h1]: 'Bienvenue dans la nouvelle boutique Vue',
    [terms]: current.value.translations[terms]!.replace('Lisez les', 'Lisez d’abord les'),
  })
  await page.waitForFunction(
    () => document.querySelector('h1')?.textContent === 'Bienvenue dans la nouvelle boutique Vue',
    undefined,
    TIMEOUT,
  )
  await page.waitForFunction(
    () =>
      document.querySelector('#terms')?.textContent ===
      'Lisez d’abord les conditions de vente avant d’acheter.',
    undefined,
    TIMEOUT,
  )
  expect(await page.textContent('#terms-link')).toBe('conditions de vente')
  expect(await page.getAttribute('main', 'lang')).toBe('fr-FR')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
})
