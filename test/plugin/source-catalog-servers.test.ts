import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { buildVirtualModulesEagerly } from '../../src/plugin/webpack-like'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, PROJECT, type Project, SOURCE_TEXT } from './helpers'

/**
 * `sourceCatalog: true` in webpack-dev-server and @rspack/dev-server, as an app runs them (hot updates
 * and live reload on; rspack also with lazy compilation of dynamic imports, `rspack dev`'s default for
 * the browser, which the plugin's own modules are kept out of), in Chromium: the app awaits `setLocale`
 * of the source locale before its first paint, which shows the source text, then French. A message typed while the page is open reaches the
 * rebuilt catalogs: in a module that accepts no hot update (greet.js) the dev server's client reloads
 * the page; in one whose update is accepted (cart.js, as React Fast Refresh accepts a component's) the
 * page stays and the catalog modules' own hot update puts the new text in. A translation pulled
 * meanwhile (the cache changes) reaches the page the same way, with no reload.
 */

const ADDED = 'Welcome back, dear customer'
const ADDED_HOT = 'Open the basket'

/** The fixture's main.js, accepting cart.js's hot updates by painting again. */
function acceptCartUpdates(project: Project): void {
  const file = join(project.root, 'src/main.js')
  const code = readFileSync(file, 'utf8')
  const at = '  onLocaleChange(paint)\n'
  if (!code.includes(at)) throw new Error(`the fixture's main.js has no ${JSON.stringify(at)}`)
  writeFileSync(
    file,
    code.replace(
      at,
      `${at}  if (import.meta.webpackHot) import.meta.webpackHot.accept('./cart.js', paint)\n`,
    ),
  )
}

/** Resolves once the page is a new one (a reload) with the app loaded. */
const reloaded = (page: Page): Promise<unknown> =>
  page.waitForFunction(
    () => {
      const w = window as unknown as { app?: unknown; before?: boolean }
      return w.before === undefined && w.app !== undefined
    },
    undefined,
    { timeout: 60_000 },
  )

const setLocale = (page: Page, locale: string): Promise<void> =>
  page.evaluate(
    (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
    locale,
  )

/** Marks the window, so a reload (a new window object) can be told from a hot update. */
const mark = (page: Page): Promise<void> =>
  page.evaluate(() => {
    ;(window as unknown as { before: boolean }).before = true
  })

describe.each(['webpack', 'rspack', 'rspack-lazy'] as const)(
  "%s's dev server, sourceCatalog: true",
  (bundler) => {
    let dev: DevPage
    /** The page's requests that had rspack compile a lazily compiled import. */
    const lazyBuilds: string[] = []

    beforeAll(async () => {
      dev = await openDevPage({ sourceCatalog: true }, bundler, acceptCartUpdates)
      dev.page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/_rspack/lazy/trigger')) lazyBuilds.push(r.url())
      })
    }, 180_000)

    afterAll(() => dev?.close())

    test('the source text once the first setLocale loaded the source catalog, then French', async () => {
      await dev.waitForText(SOURCE_TEXT.join('\n'))
      await setLocale(dev.page, 'en-US')
      expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
      // Lazy compilation leaves the plugin's modules out: the page never waits on rspack to build a
      // catalog (or the overlay) it imports.
      expect(lazyBuilds).toEqual([])
      await setLocale(dev.page, 'fr-FR')
      expect(await dev.shown()).toBe(FRENCH_TEXT.join('\n'))
    })

    test('a message typed while the page is open: the dev server reloads the page, whose catalogs hold it', async () => {
      const { page } = dev
      await setLocale(page, 'en-US')
      await mark(page)
      const file = join(dev.project.root, 'src/greet.js')
      const original = readFileSync(file, 'utf8')
      writeFileSync(file, original.replace("t('Welcome to the shop')", `t('${ADDED}')`))
      try {
        // Nothing accepts greet.js's update: the client reloads the page, which loads its catalog again.
        await reloaded(page)
        await setLocale(page, 'en-US')
        await dev.waitForText([ADDED, ...SOURCE_TEXT.slice(1)].join('\n'))
        await setLocale(page, 'fr-FR')
        // No French for the new message: the French catalog holds its source text.
        await dev.waitForText([ADDED, ...FRENCH_TEXT.slice(1)].join('\n'))
      } finally {
        await mark(page)
        writeFileSync(file, original)
      }
      // The restored file reloads the page once more: the next test starts on that page.
      await reloaded(page)
    }, 120_000)

    test('a message typed in a module whose hot update is accepted: the page stays, and shows it in every locale', async () => {
      const { page } = dev
      await setLocale(page, 'en-US')
      await setLocale(page, 'fr-FR')
      await mark(page)
      const file = join(dev.project.root, 'src/cart.js')
      const original = readFileSync(file, 'utf8')
      writeFileSync(file, original.replace("t('Open', undefined, { variant: 'verb' })", `t('${ADDED_HOT}')`))
      try {
        // The French catalog, loaded before the edit, has the new message (its source text) after it.
        await dev.waitForText([...FRENCH_TEXT.slice(0, 3), ADDED_HOT].join('\n'))
        await setLocale(page, 'en-US')
        await dev.waitForText([...SOURCE_TEXT.slice(0, 3), ADDED_HOT].join('\n'))
        expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
      } finally {
        writeFileSync(file, original)
      }
      // The restored module comes back the same way: the text it had, with no reload.
      await dev.waitForText(SOURCE_TEXT.join('\n'))
      expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
    }, 120_000)

    test('a translation pulled while the page is open reaches it with no reload, and stays after a switch away and back', async () => {
      const { page } = dev
      await setLocale(page, 'fr-FR')
      await dev.waitForText(FRENCH_TEXT.join('\n'))
      await mark(page)
      const cache = new DiskCache(dev.project.cacheDir, PROJECT)
      const current = await cache.readLocale('fr-FR', 'published')
      if (!current.hit) throw new Error('the first pull did not fill the cache')
      const hashcode = dev.project.hashcodes.get('Welcome to the shop')!
      await cache.writeLocale('fr-FR', 'published', {
        ...current.value.translations,
        [hashcode]: 'Bienvenue dans la nouvelle boutique',
      })
      const expected = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)].join('\n')
      await dev.waitForText(expected)
      await setLocale(page, 'en-US')
      await setLocale(page, 'fr-FR')
      expect(await dev.shown()).toBe(expected)
      expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
    }, 120_000)
  },
)

test("lazy compilation: the plugin's virtual modules are built eagerly; the user's test decides for the others", () => {
  const virtual = { resource: '/app/node_modules/.virtual/%00tms%2Ftms-fr-FR.js' }
  const mine = { nameForCondition: () => '/app/src/routes/admin.js' }
  const other = { nameForCondition: () => '/app/src/routes/help.js' }
  const decide = (lazyCompilation: unknown) => {
    const options = { lazyCompilation }
    buildVirtualModulesEagerly(options)
    const { test: lazy, ...rest } = options.lazyCompilation as { test(m: object): boolean }
    return { rest, decisions: [virtual, mine, other].map((m) => lazy(m)) }
  }
  expect(decide(true)).toEqual({ rest: {}, decisions: [false, true, true] })
  expect(decide({ entries: false, imports: true })).toEqual({
    rest: { entries: false, imports: true },
    decisions: [false, true, true],
  })
  expect(decide({ imports: true, test: /admin/ }).decisions).toEqual([false, true, false])
  expect(decide({ test: (m: typeof other) => m.nameForCondition().endsWith('help.js') }).decisions).toEqual([
    false,
    false,
    true,
  ])
  const off = { lazyCompilation: false }
  buildVirtualModulesEagerly(off)
  expect(off).toEqual({ lazyCompilation: false })
  // rspack 1's place for it.
  const experiments = { experiments: { lazyCompilation: { imports: true } as unknown } }
  buildVirtualModulesEagerly(experiments)
  const { test: lazy, ...rest } = experiments.experiments.lazyCompilation as { test(m: object): boolean }
  expect({ rest, decisions: [virtual, mine, other].map((m) => lazy(m)) }).toEqual({
    rest: { imports: true },
    decisions: [false, true, true],
  })
})
