import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH, FRENCH_TEXT, PROJECT, SOURCE_TEXT } from './helpers'

/**
 * webpack-dev-server and @rspack/dev-server with the defaults (each call site keeps its source text),
 * in Chromium: the source text with no catalog, French after a switch, and a translation pulled while
 * the page is open (the cache changes) swapped in by the catalog module's own hot update, with no
 * reload, that update holding the changed translation only. An edit that uses a message no module used
 * before gets its translation into the catalog module, and one no module uses any more leaves it.
 * (`sourceCatalog: true` in the same servers: source-catalog-servers.test.ts.)
 */

describe.each(['webpack', 'rspack'] as const)("%s's dev server", (bundler) => {
  let dev: DevPage

  beforeAll(async () => {
    dev = await openDevPage(undefined, bundler)
  }, 180_000)

  afterAll(() => dev?.close())

  test('an edit that swaps a message for one no module used gets its translation shipped, and the old one dropped', async () => {
    const { page, project } = dev
    const file = join(project.root, 'src/greet.js')
    const original = readFileSync(file, 'utf8')
    const unused = 'This text is never shipped'
    writeFileSync(file, original.replace("t('Welcome to the shop')", `t('${unused}')`))
    try {
      // greet.js accepts no hot update: the dev server's client reloads the page, in the source locale.
      await dev.waitForText([unused, ...SOURCE_TEXT.slice(1)].join('\n'))
      await page.evaluate(() =>
        (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
      )
      expect(await dev.shown()).toBe([FRENCH[unused], ...FRENCH_TEXT.slice(1)].join('\n'))
      // The catalog module: its base and what differs from it, the new translation and the id gone.
      const catalog = await page.evaluate(async () => {
        const chunk = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .find((url) => /tms-fr-FR[^/]*\.js$/.test(url))
        return chunk ? (await fetch(chunk)).text() : 'no catalog chunk was loaded'
      })
      const made = /__tms_drop\(Object\.assign\(\{\}, [^,]+, (\{[^}]*\})\), (\[[^\]]*\])\)/.exec(catalog)
      expect(made, catalog).not.toBeNull()
      const changed = JSON.parse(made![1]!) as Record<string, string>
      const removed = JSON.parse(made![2]!) as string[]
      expect(Object.values(changed)).toEqual([FRENCH[unused]])
      expect(removed).toHaveLength(1)
      expect(Object.keys(changed)).not.toContain(removed[0])
    } finally {
      writeFileSync(file, original)
    }
    await dev.waitForText(SOURCE_TEXT.join('\n'))
  }, 120_000)

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
