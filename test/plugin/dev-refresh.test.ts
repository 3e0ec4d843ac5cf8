import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Browser, Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import { gotoViteDev, launchChromium } from './bundlers'
import { fillCache, type Project, setupProject } from './helpers'
import {
  APP,
  FRENCH,
  loadedOnce as loadedOnceOf,
  openInFrench,
  pull as pullInto,
  REPO,
  type Renders,
  renders as rendersOf,
  TIMEOUT,
  waitFor as waitForIn,
} from './react-pull'

/**
 * A React app in vite's dev server, open in Chromium, and a `tms pull` (the cache's French replaced):
 * the component showing the changed translation re-renders by Fast Refresh of its module, and nothing
 * else does (the root's `useLocale()` is not told); a translation shown through a plain module, which
 * is no Fast Refresh boundary, is announced to the runtime as before and the app re-renders from its
 * root. Neither reloads the page; the component's state is kept. Each assertion fails when the pull
 * takes the other path (the pushed update's `quiet`, the render counts). The server starts warm (a
 * first server's catalog memos answer it, the cache files' digests recorded), and a message edited
 * before its first pull makes that pull's refresh decode the translations the server started from.
 */

let project: Project
let server: ViteDevServer
let browser: Browser
let page: Page
const errors: string[] = []
/** The plugin's catalog updates the page received, in order. */
const pushed: { locale: string; changed: Record<string, unknown>; removed: string[]; quiet?: true }[] = []

const renders = (): Promise<Renders> => rendersOf(page)

/** The last pushed update, its changed translations by text (their ids are the build's). */
function lastUpdate(): Omit<(typeof pushed)[number], 'changed'> & { changed: unknown[] } {
  const update = pushed.at(-1)!
  return { ...update, changed: Object.values(update.changed) }
}

const loadedOnce = (): Promise<boolean | undefined> => loadedOnceOf(page)
const waitFor = (selector: string, expected: string): Promise<unknown> => waitForIn(page, selector, expected)
const pull = (source: string, translation: string): Promise<void> => pullInto(project, source, translation)

beforeAll(async () => {
  // Under the repo, so the app resolves react and unplugin-tms's bindings as an installed app would.
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  project = await setupProject(FRENCH, APP, join(REPO, '.tmp'))
  await fillCache(project)
  const serve = () =>
    createServer({
      root: project.root,
      // Its own dependency cache: every app under .tmp would share the repo's node_modules/.vite.
      cacheDir: join(project.root, '.vite'),
      configFile: false,
      logLevel: 'silent',
      plugins: [react(), tmsVite(project.options({ cache: 'offline' }))],
      server: { host: '127.0.0.1', port: 0 },
    })
  browser = await launchChromium()
  // The server under test starts as a warm one does: a first server, over cache files old enough for
  // their digests to be recorded (catalogs/digests.json), served the page its French catalog and kept
  // it in its memo. The second's start then takes the catalog from the memo and not the translations
  // from the file, and a pull's refresh compares against the translations the catalog was made of.
  await new Promise((done) => setTimeout(done, 2_500))
  const first = await serve()
  await onFreePort(() => first.listen())
  const firstPage = await browser.newPage()
  await gotoViteDev(firstPage, first.resolvedUrls!.local[0]!)
  await firstPage.waitForFunction(
    () => document.querySelector('#add')?.textContent === 'Add a tulip',
    TIMEOUT,
  )
  await firstPage.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )
  const catalogs = join(project.cacheDir, 'catalogs')
  // A memo is written to a temporary file, then renamed: only the renamed files are read.
  const kept = (): string[] =>
    (existsSync(catalogs) ? readdirSync(catalogs).sort() : []).filter(
      (f) =>
        f === 'digests.json' ||
        (!f.endsWith('.tmp') &&
          readFileSync(join(catalogs, f), 'utf8').includes('Bienvenue chez le fleuriste')),
    )
  const until = Date.now() + 30_000
  while (kept().length < 2 && Date.now() < until) await new Promise((done) => setTimeout(done, 50))
  expect(kept()).toEqual(['digests.json', expect.stringMatching(/^fr-FR\.published\.\w+\.memo$/)])
  await firstPage.close()
  await first.close()
  server = await serve()
  await onFreePort(() => server.listen())
  page = await browser.newPage()
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { event?: string; data?: (typeof pushed)[number] }
      if (message.event === 'tms:catalog' && message.data) pushed.push(message.data)
    }),
  )
  await gotoViteDev(page, server.resolvedUrls!.local[0]!)
  await openInFrench(page)
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await project?.close()
})

// First: a refresh after this server's first pull compares against the translations it started from.
test('a message edited, then a pull: the page shows the edit, then the pulled translation', async () => {
  const title = join(project.root, 'src', 'Title.jsx')
  writeFileSync(
    title,
    readFileSync(title, 'utf8').replace('Welcome to the flower shop', 'Welcome to our flower shop'),
  )
  await waitFor('#title', 'Welcome to our flower shop')
  // The refresh compares against the catalog the page has: its translations are the ones the server
  // started from, which the pull has just replaced on the disk.
  await pull('Add a tulip', 'Ajoute une tulipe')
  await waitFor('#add', 'Ajoute une tulipe')
  expect(await page.textContent('#title')).toBe('Welcome to our flower shop')
  // The edit undone: the title's message and its translation are back for the tests below.
  writeFileSync(
    title,
    readFileSync(title, 'utf8').replace('Welcome to our flower shop', 'Welcome to the flower shop'),
  )
  await waitFor('#title', 'Bienvenue chez le fleuriste')
  expect(errors).toEqual([])
})

test('a pulled translation of a component re-renders that component alone, by Fast Refresh of its module', async () => {
  const before = await renders()
  await pull('Welcome to the flower shop', 'Bienvenue chez la fleuriste')
  await waitFor('#title', 'Bienvenue chez la fleuriste')
  const after = await renders()
  expect({ App: after.App - before.App, Basket: after.Basket - before.Basket }).toEqual({ App: 0, Basket: 0 })
  expect(after.Title).toBeGreaterThan(before.Title)
  expect(lastUpdate()).toEqual({
    locale: 'fr-FR',
    changed: ['Bienvenue chez la fleuriste'],
    removed: [],
    quiet: true,
  })
  expect(await page.textContent('#basket')).toBe('2 tulipes dans votre panier')
  expect(await loadedOnce()).toBe(true)
  expect(errors).toEqual([])
})

test('a pulled translation shown through a plain module is announced: the app re-renders from its root, no reload', async () => {
  const before = await renders()
  await pull('Open the basket', 'Voir le panier')
  await waitFor('#open', 'Voir le panier')
  const after = await renders()
  expect(after.App).toBeGreaterThan(before.App)
  expect(lastUpdate()).toEqual({
    locale: 'fr-FR',
    changed: ['Voir le panier'],
    removed: [],
  })
  expect(await page.textContent('#title')).toBe('Bienvenue chez la fleuriste')
  expect(await page.textContent('#basket')).toBe('2 tulipes dans votre panier')
  expect(await loadedOnce()).toBe(true)
  expect(errors).toEqual([])
})

test('a later switch away and back shows the pulled translations (the loaded catalog holds them)', async () => {
  await page.evaluate(async () => {
    const app = (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app
    await app.setLocale('en-US')
    await app.setLocale('fr-FR')
  })
  await waitFor('#title', 'Bienvenue chez la fleuriste')
  expect(await page.textContent('#open')).toBe('Voir le panier')
})
