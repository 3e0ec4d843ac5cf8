import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import tmsVite from '../../src/vite'
import { launchChromium } from './bundlers'
import { FRENCH_TEXT, fillCache, PROJECT, type Project, SOURCE_TEXT, setupProject } from './helpers'

/**
 * The vite dev server: catalogs come from the disk cache; a change of the cache (what `tms pull` in
 * another terminal does) reaches the open page over HMR with no reload; a new message shows its source
 * text at once; nothing is pushed.
 */

let project: Project
let browser: Browser
let server: ViteDevServer
let page: Page

async function requests(): Promise<Record<string, number>> {
  const res = await fetch(`${project.emu.url}/_emulator/requests`)
  return ((await res.json()) as { response: { data: { byRoute: Record<string, number> } } }).response.data
    .byRoute
}

beforeAll(async () => {
  project = await setupProject()
  await fillCache(project)
  browser = await launchChromium()
  server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    server: { host: '127.0.0.1', port: 0 },
  })
  await server.listen()
  page = await browser.newPage()
  await page.goto(server.resolvedUrls!.local[0]!)
  await page.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined)
}, 60_000)

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await server?.close()
  await project?.close()
})

const shown = (): Promise<string> => page.evaluate(() => document.querySelector('#out')!.textContent!)

async function waitForText(expected: string): Promise<void> {
  await page.waitForFunction((text) => document.querySelector('#out')!.textContent === text, expected, {
    timeout: 10_000,
  })
}

test('the page shows the source text, then the cached French after setLocale', async () => {
  expect(await shown()).toBe(SOURCE_TEXT.join('\n'))
  await page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )
  expect(await shown()).toBe(FRENCH_TEXT.join('\n'))
})

test('a change of the cached French reaches the page without a reload', async () => {
  await page.evaluate(() => {
    ;(window as unknown as { loadedOnce: boolean }).loadedOnce = true
  })
  const cache = new DiskCache(project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the first pull did not fill the cache')
  const hashcode = project.hashcodes.get('Welcome to the shop')!
  await cache.writeLocale('fr-FR', 'published', {
    ...current.value.translations,
    [hashcode]: 'Bienvenue dans la nouvelle boutique',
  })
  const expected = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)]
  await waitForText(expected.join('\n'))
  // The same window: a reload would have dropped this flag.
  expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true)
  // A later switch away and back gets the new catalog, not the chunk imported first.
  await page.evaluate(async () => {
    const app = (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app
    await app.setLocale('en-US')
    await app.setLocale('fr-FR')
  })
  expect(await shown()).toBe(expected.join('\n'))
})

test('a new message shows its source text at once, and nothing is pushed', async () => {
  const file = join(project.root, 'src/greet.js')
  const original = readFileSync(file, 'utf8')
  writeFileSync(file, original.replace("t('Welcome to the shop')", "t('Welcome back, dear customer')"))
  try {
    // greet.js accepts no hot update: vite reloads the page, which starts in the source locale.
    await waitForText(['Welcome back, dear customer', ...SOURCE_TEXT.slice(1)].join('\n'))
    await page.evaluate(() =>
      (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
    )
    expect(await shown()).toBe(['Welcome back, dear customer', ...FRENCH_TEXT.slice(1)].join('\n'))
  } finally {
    writeFileSync(file, original)
  }
  // The dev server read the cache only: no string created, no translation fetched.
  expect(await requests()).toEqual({})
})
