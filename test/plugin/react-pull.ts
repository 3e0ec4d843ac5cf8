import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { DiskCache } from '../../src/core/cache'
import { PROJECT, type Project } from './helpers'

/**
 * The React app of test/fixtures/react-pull in a dev server (dev-refresh.test.ts: vite's;
 * dev-refresh-webpack.test.ts: webpack-dev-server's), a `tms pull` written while its page is open, and
 * what the page shows and renders.
 */

export const REPO = fileURLToPath(new URL('../../', import.meta.url))
export const APP = join(REPO, 'test/fixtures/react-pull')
export const TIMEOUT = { timeout: 60_000 }
const BASKET = '{count, plural, one {# tulip in your basket} other {# tulips in your basket}}'
export const FRENCH: Record<string, string> = {
  'Welcome to the flower shop': 'Bienvenue chez le fleuriste',
  [BASKET]: '{count, plural, one {# tulipe dans votre panier} other {# tulipes dans votre panier}}',
  'Add a tulip': 'Ajouter une tulipe',
  'Open the basket': 'Ouvrir le panier',
}

/** How many times each component rendered. */
export type Renders = { App: number; Title: number; Basket: number }

export const renders = (page: Page): Promise<Renders> =>
  page.evaluate(() => ({ ...(window as unknown as { renders: Renders }).renders }))

/** The flag {@link openInFrench} sets once the page loaded: a reload drops it. */
export const loadedOnce = (page: Page): Promise<boolean | undefined> =>
  page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)

export const waitFor = (page: Page, selector: string, expected: string): Promise<unknown> =>
  page.waitForFunction(
    ([s, text]) => document.querySelector(s!)?.textContent === text,
    [selector, expected],
    TIMEOUT,
  )

export const setFrench = (page: Page): Promise<void> =>
  page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )

/**
 * The loaded page switched to French, with state it must keep (a second tulip) and a flag a reload
 * would drop. `beforeFrench` runs once the page rendered, before the switch.
 */
export async function openInFrench(page: Page, beforeFrench?: () => Promise<void>): Promise<void> {
  await waitFor(page, '#add', 'Add a tulip')
  await beforeFrench?.()
  await setFrench(page)
  await waitFor(page, '#title', 'Bienvenue chez le fleuriste')
  await page.click('#add')
  await waitFor(page, '#basket', '2 tulipes dans votre panier')
  await page.evaluate(() => {
    ;(window as unknown as { loadedOnce: boolean }).loadedOnce = true
  })
}

/** What `tms pull` does to the cache: the French file replaced with `source`'s translation changed. */
export async function pull(project: Project, source: string, translation: string): Promise<void> {
  const cache = new DiskCache(project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the cache has no French')
  const hashcode = project.hashcodes.get(source)
  if (!hashcode) throw new Error(`no hashcode for ${source}`)
  await cache.writeLocale('fr-FR', 'published', { ...current.value.translations, [hashcode]: translation })
}
