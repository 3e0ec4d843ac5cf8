import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { extractMessages } from '../../src/core/extract/index'
import { extractOptionsOf } from '../../src/core/pipeline'
import { resolveOptions } from '../../src/options'
import { messageId } from '../../src/plugin/ids'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, SOURCE_TEXT } from './helpers'

/**
 * `sourceCatalog: true` in webpack-dev-server and @rspack/dev-server, as an app runs them (hot updates
 * and live reload on), in Chromium: the page shows ids until the app awaits `setLocale` of the source
 * locale, then the source text, then French; a message typed while the page is open reaches the
 * rebuilt catalogs, and the page, reloaded by the dev server's client, shows its source text.
 */

const SHIPPED = ['Welcome to the shop', 'Hello {name}!', 'You have {count} items in your cart', 'Open']
const ADDED = 'Welcome back, dear customer'

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

describe.each(['webpack', 'rspack'] as const)("%s's dev server, sourceCatalog: true", (bundler) => {
  let dev: DevPage
  /** The fixture's shipped message texts -> their catalog ids. */
  let ids: Map<string, string>

  beforeAll(async () => {
    dev = await openDevPage({ sourceCatalog: true }, bundler)
    const options = resolveOptions(dev.project.options(), { command: 'build' })
    const { messages } = await extractMessages(extractOptionsOf(options))
    ids = new Map(messages.map((m) => [m.text, messageId(m.key)]))
  }, 180_000)

  afterAll(() => dev?.close())

  test('ids before setLocale, the source text once the source catalog is loaded, then French', async () => {
    expect(await dev.shown()).toBe(SHIPPED.map((s) => ids.get(s)).join('\n'))
    await setLocale(dev.page, 'en-US')
    expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
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
      // greet.js accepts no hot update: the client reloads the page, which has no catalog until setLocale.
      await page.waitForFunction(
        () => {
          const w = window as unknown as { app?: unknown; before?: boolean }
          return w.before === undefined && w.app !== undefined
        },
        undefined,
        { timeout: 60_000 },
      )
      await setLocale(page, 'en-US')
      await dev.waitForText([ADDED, ...SOURCE_TEXT.slice(1)].join('\n'))
      await setLocale(page, 'fr-FR')
      // No French for the new message: the French catalog holds its source text.
      await dev.waitForText([ADDED, ...FRENCH_TEXT.slice(1)].join('\n'))
    } finally {
      writeFileSync(file, original)
    }
  }, 120_000)
})
