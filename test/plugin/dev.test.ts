import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { reloadViteDev } from './bundlers'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, PROJECT, type Project, SOURCE_TEXT } from './helpers'

/**
 * The vite dev server: catalogs come from the disk cache; a change of the cache (what `tms pull` in
 * another terminal does) reaches the open page over HMR with no reload; a new message shows its source
 * text at once; nothing is pushed.
 */

let dev: DevPage
let project: Project
let page: Page

async function requests(): Promise<Record<string, number>> {
  const res = await fetch(`${project.emu.url}/_emulator/requests`)
  return ((await res.json()) as { response: { data: { byRoute: Record<string, number> } } }).response.data
    .byRoute
}

beforeAll(async () => {
  dev = await openDevPage()
  ;({ project, page } = dev)
}, 60_000)

afterAll(() => dev?.close())

const shown = (): Promise<string> => dev.shown()
const waitForText = (expected: string): Promise<void> => dev.waitForText(expected)

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

test('a pull pushes only what changed, merged into a loaded locale the page shows later; a removed translation shows its source text', async () => {
  const setLocale = (locale: string) =>
    page.evaluate(
      (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
      locale,
    )
  // The HMR socket of a page loaded from here on: what the server pushes is read off its frames.
  const pushed: unknown[] = []
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { event?: string; data?: unknown }
      if (message.event === 'tms:catalog') pushed.push(message.data)
    }),
  )
  // Connected, and its report of French loaded taken in, before the pull: else the push reaches no
  // page, or the report of the catalog before the pull has the whole catalog sent after the push.
  await reloadViteDev(page)
  await waitForText(SOURCE_TEXT.join('\n'))
  const reported = dev.reported('fr-FR')
  await setLocale('fr-FR')
  await reported
  await setLocale('en-US')
  const cache = new DiskCache(project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the first pull did not fill the cache')
  const translations = { ...current.value.translations }
  delete translations[project.hashcodes.get('Welcome to the shop')!]
  translations[project.hashcodes.get('Open')!] = 'Ouvrir tout'
  await cache.writeLocale('fr-FR', 'published', translations)
  let restored = false
  try {
    await expect.poll(() => pushed.length, { timeout: 20_000 }).toBe(1)
    const [update] = pushed as { locale: string; changed: Record<string, string>; removed: string[] }[]
    expect(update!.locale).toBe('fr-FR')
    expect(Object.values(update!.changed)).toEqual(['Ouvrir tout'])
    expect(update!.removed).toHaveLength(1)
    expect(await shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await shown()).toBe(['Welcome to the shop', ...FRENCH_TEXT.slice(1, 3), 'Ouvrir tout'].join('\n'))
    // The cache as the other tests know it: the change and the removal pushed back.
    restored = true
    await cache.writeLocale('fr-FR', 'published', current.value.translations)
    await waitForText(['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)].join('\n'))
    expect(pushed).toHaveLength(2)
  } finally {
    // A failure above leaves the cache as the other tests know it, so that they fail for their own reasons.
    if (!restored) await cache.writeLocale('fr-FR', 'published', current.value.translations)
  }
})

test('a page whose HMR socket connects after a pull was pushed gets the pulled translation once connected', async () => {
  const setLocale = (on: Page, locale: string) =>
    on.evaluate(
      (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
      locale,
    )
  // The late page's socket reaches the server only once released: a push made before goes to the
  // connected pages alone, as on a loaded machine whose page connects seconds after it ran.
  let release = (): void => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const late = await page.context().browser()!.newPage()
  let connected = false
  late.on('console', (m) => {
    if (m.text() === '[vite] connected.') connected = true
  })
  await late.routeWebSocket(/./, async (ws) => {
    await released
    ws.connectToServer()
  })
  const lateShown = () => late.evaluate(() => document.querySelector('#out')!.textContent!)
  const cache = new DiskCache(project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the first pull did not fill the cache')
  const before = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)]
  try {
    await late.goto(page.url())
    await late.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined)
    await setLocale(late, 'fr-FR')
    await setLocale(page, 'fr-FR')
    expect(await lateShown()).toBe(before.join('\n'))
    await cache.writeLocale('fr-FR', 'published', {
      ...current.value.translations,
      [project.hashcodes.get('Open')!]: 'Ouvrir maintenant',
    })
    const after = [...before.slice(0, 3), 'Ouvrir maintenant']
    // The connected page shows the pull: the push has gone out, and the late page missed it.
    await waitForText(after.join('\n'))
    expect(connected).toBe(false)
    expect(await lateShown()).toBe(before.join('\n'))
    release()
    await late.waitForFunction(
      (text) => document.querySelector('#out')!.textContent === text,
      after.join('\n'),
      {
        timeout: 30_000,
      },
    )
    expect(connected).toBe(true)
  } finally {
    release()
    await late.close()
    // The cache as the other tests know it.
    await cache.writeLocale('fr-FR', 'published', current.value.translations)
  }
  await waitForText(before.join('\n'))
})

test('the runtime and the catalogs are served with no source map, an app module with its own', async () => {
  const served = await page.evaluate(
    (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).text())),
    ['/@id/__x00__tms/runtime.js', '/@id/__x00__tms/tms-fr-FR.js', '/src/greet.js'],
  )
  const [runtime, catalog, greet] = served as [string, string, string]
  expect(catalog).toMatch(
    /^export default JSON\.parse\('\{"[^\n]*"Bonjour \{name\} !"[^\n]*\}'\);\nexport const digest = "[0-9a-f]{12}";\n$/,
  )
  // Generated code: vite would map each to itself, character by character, inlined in the response.
  expect(runtime).not.toContain('sourceMappingURL')
  expect(catalog).not.toContain('sourceMappingURL')
  const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(greet)
  const map = JSON.parse(Buffer.from(inline![1]!, 'base64').toString()) as { sourcesContent: string[] }
  expect(map.sourcesContent).toEqual([readFileSync(join(project.root, 'src/greet.js'), 'utf8')])
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
