import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH, FRENCH_TEXT, PROJECT, SOURCE_TEXT } from './helpers'

/**
 * webpack-dev-server and @rspack/dev-server with the defaults (each call site keeps its source text),
 * in Chromium: the source text with no catalog, French after a switch, and a translation pulled while
 * the page is open (the cache changes) swapped in with no reload (by the dev server's channel, then the
 * catalog module's own hot update, which holds the changed translation only). An edit that uses a message no module used
 * before gets its translation into the catalog module; one that uses a message with no translation
 * leaves every catalog chunk as it was, after a pull too (the ids no module uses any more stay in the
 * catalogs); a message a pull left out while no module used it comes back with its translation. A
 * catalog base the page failed to fetch is fetched again at the next switch; a hot update whose base
 * fails to load warns in the console, with no unhandled rejection.
 * (`sourceCatalog: true` in the same servers: source-catalog-servers.test.ts.)
 */

describe.each(['webpack', 'rspack'] as const)("%s's dev server", (bundler) => {
  let dev: DevPage

  beforeAll(async () => {
    dev = await openDevPage(undefined, bundler)
  }, 180_000)

  afterAll(() => dev?.close())

  /** The app's own locale switch, in the open page. */
  const setLocale = (locale: string): Promise<void> =>
    dev.page.evaluate(
      (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
      locale,
    )

  /**
   * Swaps greet.js's first message for `text` (greet.js accepts no hot update: the dev server's client
   * reloads the page, in the source locale); the returned function undoes it.
   */
  function editGreeting(text: string): () => void {
    const file = join(dev.project.root, 'src/greet.js')
    const original = readFileSync(file, 'utf8')
    writeFileSync(file, original.replace("t('Welcome to the shop')", `t('${text}')`))
    return () => writeFileSync(file, original)
  }

  /**
   * Writes fr-FR translations (source text -> translation) into the cache, as `tms pull` does, and
   * resolves once the page received the rebuild's hot update that holds one of them. The dev server's
   * channel shows a pull before that update: a test that edits a module then would have the two
   * rebuilds overlap, and with `output.clean` the second removes the first's hot-update files while
   * the page still fetches them.
   */
  async function pullFrench(translations: Record<string, string>): Promise<void> {
    const cache = new DiskCache(dev.project.cacheDir, PROJECT)
    const current = await cache.readLocale('fr-FR', 'published')
    if (!current.hit) throw new Error('the first pull did not fill the cache')
    const pulled = { ...current.value.translations }
    for (const [source, text] of Object.entries(translations))
      pulled[dev.project.hashcodes.get(source)!] = text
    const texts = Object.values(translations)
    const landed = new Promise<void>((resolve) => {
      const onResponse = (response: { url(): string; text(): Promise<string> }): void => {
        if (!/\.hot-update\.js$/.test(response.url())) return
        response.text().then(
          (code) => {
            if (!texts.some((text) => code.includes(text))) return
            dev.page.off('response', onResponse)
            resolve()
          },
          () => {},
        )
      }
      dev.page.on('response', onResponse)
    })
    await cache.writeLocale('fr-FR', 'published', pulled)
    await landed
  }

  test('a catalog base that failed to load is fetched again at the next switch', async () => {
    const { page } = dev
    const base = /\/tms-base-fr-FR\.[0-9a-f]{12}\.json$/
    let refused = 0
    await page.route(base, (route) => {
      refused++
      return route.fulfill({ status: 503, body: 'restarting' })
    })
    const failed = await page.evaluate(() =>
      (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR').then(
        () => 'switched',
        (error: Error) => error.message,
      ),
    )
    await page.unroute(base)
    expect(refused).toBe(1)
    expect(failed).toMatch(
      /^\[unplugin-tms\] could not load the catalog of fr-FR from \S*\/tms-base-fr-FR\.[0-9a-f]{12}\.json: HTTP 503$/,
    )
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(FRENCH_TEXT.join('\n'))
    await setLocale('en-US')
  }, 120_000)

  test('an edit that swaps a message for one no module used gets its translation shipped, the old one kept', async () => {
    const { page } = dev
    const unused = 'This text is never shipped'
    const undo = editGreeting(unused)
    try {
      await dev.waitForText([unused, ...SOURCE_TEXT.slice(1)].join('\n'))
      await setLocale('fr-FR')
      expect(await dev.shown()).toBe([FRENCH[unused], ...FRENCH_TEXT.slice(1)].join('\n'))
      // The catalog module: what differs from its base, the new translation alone; the page fetched
      // the base, the catalog as the first build made it, as a file of its own.
      const [catalog, base] = await page.evaluate(async () => {
        const loaded = performance.getEntriesByType('resource').map((entry) => entry.name)
        const text = async (url: string | undefined): Promise<string> =>
          url ? (await fetch(url)).text() : `nothing loaded of ${loaded.join(' ')}`
        return Promise.all([
          text(loaded.find((url) => /tms-fr-FR[^/]*\.js$/.test(url))),
          text(loaded.find((url) => /\/tms-base-fr-FR\.[0-9a-f]{12}\.json$/.test(url))),
        ])
      })
      const made = /Object\.assign\(\{\}, base, (\{[^}]*\})\)/.exec(catalog)
      expect(made, catalog).not.toBeNull()
      expect(Object.values(JSON.parse(made![1]!) as Record<string, string>)).toEqual([FRENCH[unused]])
      expect(catalog).not.toMatch(/Bonjour|articles dans votre panier/)
      expect(Object.values(JSON.parse(base) as Record<string, unknown>)).toContain(FRENCH.Open)
    } finally {
      undo()
    }
    await dev.waitForText(SOURCE_TEXT.join('\n'))
  }, 120_000)

  /**
   * The catalog chunks in the hot update of an edit of greet.js that swaps its first message for
   * `text`, which has no translation (the page reloads in the source locale); the edit is undone after.
   */
  async function catalogChunksUpdatedBy(text: string): Promise<string[]> {
    const { page } = dev
    // Each rebuild's hot-update manifest names the chunks whose modules changed (`c`). Read from the
    // server once the page shows the edit: the page's reload may drop the body it had.
    const manifests: string[] = []
    const onResponse = (response: { url(): string }): void => {
      if (/\.hot-update\.json$/.test(response.url())) manifests.push(response.url())
    }
    page.on('response', onResponse)
    const undo = editGreeting(text)
    try {
      await dev.waitForText([text, ...SOURCE_TEXT.slice(1)].join('\n'))
      const updated = await Promise.all(
        manifests.map(async (url) => ((await (await fetch(url)).json()) as { c: string[] }).c),
      )
      expect(updated.length).toBeGreaterThan(0)
      return updated.flat().filter((chunk) => /tms/.test(String(chunk)))
    } finally {
      page.off('response', onResponse)
      undo()
    }
  }

  test('an edit to a message with no translation leaves every catalog chunk out of the hot update', async () => {
    expect(await catalogChunksUpdatedBy('A text nobody translated yet')).toEqual([])
    await dev.waitForText(SOURCE_TEXT.join('\n'))
  }, 120_000)

  test('a pulled translation reaches the open page with no reload, and stays after a switch away and back', async () => {
    const { page } = dev
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(FRENCH_TEXT.join('\n'))
    await page.evaluate(() => {
      ;(window as unknown as { before: boolean }).before = true
    })
    const updates: Promise<string>[] = []
    const onResponse = (response: { url(): string; text(): Promise<string> }): void => {
      if (/\.hot-update\.js$/.test(response.url())) updates.push(response.text())
    }
    page.on('response', onResponse)
    await pullFrench({ 'Welcome to the shop': 'Bienvenue dans la nouvelle boutique' })
    const expected = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)].join('\n')
    await dev.waitForText(expected)
    // The page shows it from the dev server's channel (pull-channel.ts); the rebuild's hot update of
    // the catalog follows, and holds the changed translation, not the catalog again (hot-catalog.ts).
    const shipped = async (): Promise<string[]> => Promise.all(updates)
    await expect
      .poll(
        async () => (await shipped()).filter((code) => code.includes('Bienvenue dans la nouvelle boutique')),
        {
          timeout: 30_000,
        },
      )
      .toHaveLength(1)
    page.off('response', onResponse)
    expect(await dev.shown()).toBe(expected)
    expect((await shipped()).filter((code) => /Bonjour|articles dans votre panier/.test(code))).toEqual([])
    await setLocale('en-US')
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(expected)
    expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
  }, 120_000)

  test('after a pull, an edit to a message with no translation still leaves every catalog chunk out of the hot update', async () => {
    // The pull above changed fr-FR's translations: the catalog modules hold changes of their own since.
    expect(await catalogChunksUpdatedBy('Another text nobody translated')).toEqual([])
    await dev.waitForText(SOURCE_TEXT.join('\n'))
  }, 120_000)

  test('a message a pull dropped while no module used it comes back with its translation', async () => {
    const untranslated = 'A text nobody translated yet'
    const undo = editGreeting(untranslated)
    try {
      await dev.waitForText([untranslated, ...SOURCE_TEXT.slice(1)].join('\n'))
      await setLocale('fr-FR')
      expect(await dev.shown()).toBe([untranslated, ...FRENCH_TEXT.slice(1)].join('\n'))
      // A pull while no module uses "Welcome to the shop": its catalogs leave that message out.
      await pullFrench({ 'Welcome to the shop': 'Bienvenue une fois de plus', Open: 'Ouvrir maintenant' })
      await dev.waitForText([untranslated, ...FRENCH_TEXT.slice(1, 3), 'Ouvrir maintenant'].join('\n'))
    } finally {
      undo()
    }
    await dev.waitForText(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(
      ['Bienvenue une fois de plus', ...FRENCH_TEXT.slice(1, 3), 'Ouvrir maintenant'].join('\n'),
    )
  }, 120_000)

  test('a hot update of a catalog whose base fails to load warns in the console, and the next switch loads it', async () => {
    const { page } = dev
    await page.reload()
    await dev.waitForText(SOURCE_TEXT.join('\n'))
    const base = /\/tms-base-fr-FR\.[0-9a-f]{12}\.json$/
    await page.route(base, (route) => route.fulfill({ status: 503, body: 'restarting' }))
    const errors: string[] = []
    const onError = (error: Error): void => {
      errors.push(error.message)
    }
    page.on('pageerror', onError)
    try {
      // The switch fails: fr-FR's catalog module is in the page, with no base.
      await expect(setLocale('fr-FR')).rejects.toThrow(/could not load the catalog of fr-FR/)
      // A pull updates that module, whose new instance fetches the base again, and fails again.
      const warned = page.waitForEvent('console', (message) => message.type() === 'warning')
      await pullFrench({ Open: 'Ouvrir tout de suite' })
      expect((await warned).text()).toMatch(
        /^\[unplugin-tms\] could not load the catalog of fr-FR from \S*\/tms-base-fr-FR\.[0-9a-f]{12}\.json: HTTP 503 \(a hot update of the catalog: the page keeps the catalog it has, and loads it again at its next switch to the locale or a reload\)$/,
      )
    } finally {
      await page.unroute(base)
      page.off('pageerror', onError)
    }
    expect(errors).toEqual([])
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
    await setLocale('fr-FR')
    expect(await dev.shown()).toBe(
      ['Bienvenue une fois de plus', ...FRENCH_TEXT.slice(1, 3), 'Ouvrir tout de suite'].join('\n'),
    )
  }, 120_000)
})
