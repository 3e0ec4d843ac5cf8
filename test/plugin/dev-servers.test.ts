import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, PROJECT, SOURCE_TEXT } from './helpers'

/**
 * webpack-dev-server and @rspack/dev-server with the defaults (each call site keeps its source text),
 * in Chromium: the source text with no catalog, French after a switch, and a translation pulled while
 * the page is open (the cache changes) swapped in by the catalog module's own hot update, with no
 * reload, that update holding the changed translation only. (`sourceCatalog: true` in the same servers: source-catalog-servers.test.ts.)
 */

describe.each(['webpack', 'rspack'] as const)("%s's dev server", (bundler) => {
  let dev: DevPage

  beforeAll(async () => {
    dev = await openDevPage(undefined, bundler)
  }, 180_000)

  afterAll(() => dev?.close())

  test('a pulled translation reaches the open page with no reload, and stays after a switch away and back', async () => {
    const { page } = dev
    const setLocale = (locale: string) =>
      page.evaluate(
        (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
        locale,
      )
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(FRENCH_TEXT.join('\n'))
    await page.evaluate(() => {
      ;(window as unknown as { before: boolean }).before = true
    })
    const updates: Promise<string>[] = []
    page.on('response', (response) => {
      if (/\.hot-update\.js$/.test(response.url())) updates.push(response.text())
    })
    const cache = new DiskCache(dev.project.cacheDir, PROJECT)
    const current = await cache.readLocale('fr-FR', 'published')
    if (!current.hit) throw new Error('the first pull did not fill the cache')
    await cache.writeLocale('fr-FR', 'published', {
      ...current.value.translations,
      [dev.project.hashcodes.get('Welcome to the shop')!]: 'Bienvenue dans la nouvelle boutique',
    })
    const expected = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)].join('\n')
    await dev.waitForText(expected)
    // The catalog's hot update holds the changed translation, not the catalog again (hot-catalog.ts).
    const shipped = await Promise.all(updates)
    expect(shipped.filter((code) => code.includes('Bienvenue dans la nouvelle boutique'))).toHaveLength(1)
    expect(shipped.filter((code) => /Bonjour|articles dans votre panier/.test(code))).toEqual([])
    await setLocale('en-US')
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(expected)
    expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
  }, 120_000)
})
