import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Browser, Page } from 'playwright-core'
import { build, createServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import { launchChromium, outputFiles, serveStatic } from './bundlers'
import { type Project, setupProject } from './helpers'

/**
 * A React app (`t`, `<T>` with a value and elements, an ICU plural with a value) built by vite with
 * `sourceCatalog: true`, served from 127.0.0.1, in Chromium: the app awaits `setLocale('en-US')`
 * before its first render and shows the source text from the source catalog; a switch shows French;
 * the entry chunk holds none of the messages' texts, the catalog chunks hold them. Then the same app
 * in vite's dev server: a message added to a component while the page is open shows its source text
 * through React Fast Refresh and the catalogs' hot update, the component's state kept.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const APP = join(REPO, 'test/fixtures/react-source-catalog')
const TIMEOUT = { timeout: 60_000 }

const GREETING = 'Hello <b>{name}</b>, see <a>the docs</a>'
const BASKET = '{count, plural, one {# tulip in your basket} other {# tulips in your basket}}'
const FRENCH: Record<string, string> = {
  'Welcome to the flower shop': 'Bienvenue chez le fleuriste',
  // The translator moves the tags: the elements follow, props kept.
  [GREETING]: 'Voyez <a>la documentation</a>, <b>{name}</b>',
  [BASKET]: '{count, plural, one {# tulipe dans votre panier} other {# tulipes dans votre panier}}',
  'Add a tulip': 'Ajouter une tulipe',
}
/** The pieces of text of the messages, as a catalog holds them (a compiled message keeps its text pieces). */
const SOURCE_WORDS = [
  'Welcome to the flower shop',
  'Hello ',
  ', see ',
  'the docs',
  'tulip in your basket',
  'tulips in your basket',
  'Add a tulip',
]

let project: Project
let browser: Browser
let outDir: string
let server: { url: string; close(): Promise<void> }
let page: Page
const errors: string[] = []
/** The catalog chunks the page loaded, by locale, in order. */
const catalogs: string[] = []

beforeAll(async () => {
  // Under the repo, so the app resolves react and `unplugin-tms/react` (the built package) as an app
  // with them installed would.
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  project = await setupProject(FRENCH, APP, join(REPO, '.tmp'))
  outDir = join(project.root, 'dist')
  // vitest sets NODE_ENV=test, which vite keeps (React's development build and JSX): an app's
  // `vite build` runs with none, which vite makes production.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: project.root,
      configFile: false,
      logLevel: 'silent',
      plugins: [react(), tmsVite(project.options({ sourceCatalog: true }))],
      build: { outDir, emptyOutDir: true },
    })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  server = await serveStatic(outDir)
  browser = await launchChromium()
  page = await browser.newPage()
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('request', (r) => {
    const locale = /\/tms-([\w-]+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname)?.[1]
    if (locale) catalogs.push(locale)
  })
  // A chunk the page could not load (the browser's own favicon request aside).
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico')
      errors.push(`${r.status()} ${r.url()}`)
  })
  await page.goto(`${server.url}/`)
  // The first render, or the error that stopped it.
  await page
    .waitForFunction(() => document.querySelector('#title') !== null, undefined, TIMEOUT)
    .catch((e) => {
      throw new Error(`${e.message}\npage errors: ${errors.join('\n')}`)
    })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await project?.close()
})

/** What the reader sees on the first render in the source locale. */
const SOURCE_SHOWN = {
  lang: 'en-US',
  title: 'Welcome to the flower shop',
  greeting: 'Hello Ada, see the docs',
  bold: 'Ada',
  link: 'the docs',
  href: '/docs',
  basket: '1 tulip in your basket',
  add: 'Add a tulip',
}

/** What the reader sees of each message. */
function shown(on: Page = page): Promise<Record<string, string | null>> {
  return on.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent ?? null
    return {
      lang: document.querySelector('main')!.getAttribute('lang'),
      title: text('#title'),
      greeting: text('#greeting'),
      bold: text('#greeting b'),
      link: text('#greeting a'),
      href: document.querySelector('#greeting a')?.getAttribute('href') ?? null,
      basket: text('#basket'),
      add: text('#add'),
    }
  })
}

const waitFor = (selector: string, expected: string, on: Page = page): Promise<unknown> =>
  on.waitForFunction(
    ([s, text]) => document.querySelector(s!)?.textContent === text,
    [selector, expected],
    TIMEOUT,
  )

test('the first render, after the app awaited setLocale of the source locale, shows the source text', async () => {
  expect(await shown()).toEqual(SOURCE_SHOWN)
  expect(catalogs).toEqual(['en-US'])
  await page.click('#add')
  await waitFor('#basket', '2 tulips in your basket')
  expect(errors).toEqual([])
})

test('a switch to French puts every message in French; the plural follows its value, the tags their elements', async () => {
  await page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )
  await waitFor('#title', 'Bienvenue chez le fleuriste')
  expect(await shown()).toEqual({
    lang: 'fr-FR',
    title: 'Bienvenue chez le fleuriste',
    greeting: 'Voyez la documentation, Ada',
    bold: 'Ada',
    link: 'la documentation',
    href: '/docs',
    basket: '2 tulipes dans votre panier',
    add: 'Ajouter une tulipe',
  })
  expect(await page.$eval('#greeting', (p) => p.innerHTML)).toBe(
    'Voyez <a href="/docs">la documentation</a>, <b>Ada</b>',
  )
  expect(catalogs).toEqual(['en-US', 'fr-FR'])
  await page.click('#add')
  await waitFor('#basket', '3 tulipes dans votre panier')
  await page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('en-US'),
  )
  await waitFor('#basket', '3 tulips in your basket')
  expect(await page.textContent('#greeting')).toBe('Hello Ada, see the docs')
  expect(errors).toEqual([])
})

test('the entry chunk holds none of the source texts; the source and French catalog chunks hold them', () => {
  const files = outputFiles(outDir)
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const entryName = /<script type="module" crossorigin src="\/assets\/([^"]+)"/.exec(html)![1]!
  const entry = [...files].find(([file]) => basename(file) === entryName)![1]
  expect(SOURCE_WORDS.filter((w) => entry.includes(w))).toEqual([])
  const chunk = (locale: string): string => {
    const found = [...files].filter(([file]) => basename(file).startsWith(`tms-${locale}-`))
    expect(found).toHaveLength(1)
    return found[0]![1]
  }
  const source = chunk('en-US')
  expect(SOURCE_WORDS.filter((w) => !source.includes(w))).toEqual([])
  const french = chunk('fr-FR')
  expect(SOURCE_WORDS.filter((w) => french.includes(w))).toEqual([])
  for (const text of ['Bienvenue chez le fleuriste', 'la documentation', 'tulipes dans votre panier'])
    expect(french).toContain(text)
})

test('in the dev server, a message added to a component shows with no reload, its state kept (last: it edits App.jsx)', async () => {
  const dev = await createServer({
    root: project.root,
    // Its own dependency cache: every app under .tmp would share the repo's node_modules/.vite.
    cacheDir: join(project.root, '.vite'),
    configFile: false,
    logLevel: 'silent',
    plugins: [react(), tmsVite(project.options({ sourceCatalog: true }))],
    server: { host: '127.0.0.1', port: 0 },
  })
  const devPage = await browser.newPage()
  try {
    await onFreePort(() => dev.listen())
    await devPage.goto(dev.resolvedUrls!.local[0]!)
    await waitFor('#add', 'Add a tulip', devPage)
    await devPage.click('#add')
    await waitFor('#basket', '2 tulips in your basket', devPage)
    await devPage.evaluate(() => {
      ;(window as unknown as { before: boolean }).before = true
    })
    const file = join(project.root, 'src/App.jsx')
    writeFileSync(file, readFileSync(file, 'utf8').replace("t('Add a tulip')", "t('Add a rose')"))
    await waitFor('#add', 'Add a rose', devPage)
    expect(await shown(devPage)).toEqual({
      ...SOURCE_SHOWN,
      basket: '2 tulips in your basket',
      add: 'Add a rose',
    })
    expect(await devPage.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
    // The French catalog, loaded after the edit, has the new message: its source text.
    await devPage.evaluate(() =>
      (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
    )
    await waitFor('#title', 'Bienvenue chez le fleuriste', devPage)
    expect(await devPage.textContent('#add')).toBe('Add a rose')
    expect(await devPage.textContent('#basket')).toBe('2 tulipes dans votre panier')
  } finally {
    await devPage.close()
    await dev.close()
  }
}, 180_000)
