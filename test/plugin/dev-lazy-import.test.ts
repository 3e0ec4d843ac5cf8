import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { keepHotUpdatesUnderLazyCompilation } from '../../src/plugin/webpack-like'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, PROJECT, type Project } from './helpers'

/**
 * @rspack/dev-server with lazy compilation (as `rspack dev` serves a browser build), in Chromium: the
 * app's own lazy imports, two at once as an app loads a route's parts, each have rspack compile their
 * module, two compilations in a row. The page keeps its state through them (no reload), and a
 * translation pulled afterwards still reaches it by hot update.
 */

/** The fixture app with two lazily imported modules of its own (one with messages), loaded together. */
function addLazyModules(project: Project): void {
  writeFileSync(
    join(project.root, 'src/later.js'),
    "import { t } from 'unplugin-tms/runtime'\n\nexport const later = () => t('Welcome to the shop')\n",
  )
  writeFileSync(join(project.root, 'src/plain.js'), 'export const total = (a, b) => a + b\n')
  const main = join(project.root, 'src/main.js')
  const app = 'window.app = { render, setLocale, getLocale }'
  const code = readFileSync(main, 'utf8')
  if (!code.includes(app)) throw new Error(`the fixture's main.js has no ${app}`)
  writeFileSync(
    main,
    code.replace(
      app,
      `window.app = {
    render,
    setLocale,
    getLocale,
    loadLater: () =>
      Promise.all([import('./later.js'), import('./plain.js')]).then(([m, p]) => [m.later(), p.total(2, 3)]),
  }`,
    ),
  )
}

let dev: DevPage

beforeAll(async () => {
  dev = await openDevPage(undefined, 'rspack-lazy', addLazyModules)
}, 180_000)

afterAll(() => dev?.close())

test("two lazy imports at once under rspack's lazy compilation: no reload, the page keeps its state", async () => {
  const { page } = dev
  const navigations: string[] = []
  page.on('framenavigated', (frame) => navigations.push(frame.url()))
  await page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )
  expect(await dev.shown()).toBe(FRENCH_TEXT.join('\n'))
  await page.evaluate(() => {
    ;(window as unknown as { before: boolean }).before = true
  })
  const loaded = await page.evaluate(() =>
    (window as unknown as { app: { loadLater(): Promise<unknown> } }).app.loadLater(),
  )
  expect(loaded).toEqual([FRENCH_TEXT[0], 5])
  // A translation pulled now reaches the page by hot update after both compilations; a page that
  // reloaded meanwhile would show the source text and lack the mark.
  const cache = new DiskCache(dev.project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the first pull did not fill the cache')
  await cache.writeLocale('fr-FR', 'published', {
    ...current.value.translations,
    [dev.project.hashcodes.get('Welcome to the shop')!]: 'Bienvenue dans la nouvelle boutique',
  })
  await dev.waitForText(['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)].join('\n'))
  expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true)
  expect(navigations).toEqual([])
}, 120_000)

test("the user's own output.clean.keep still decides for every other file", () => {
  const options = { lazyCompilation: {}, output: { clean: { keep: /^assets\// } } }
  keepHotUpdatesUnderLazyCompilation(options)
  const keep = (options.output.clean as unknown as { keep(path: string): boolean }).keep
  expect(
    ['main.0a4f2b1c.hot-update.json', 'src_a_js.0a4f2b1c.hot-update.js', 'assets/x.png', 'main.js'].map(keep),
  ).toEqual([true, true, true, false])
  const unchanged = { output: { clean: true } }
  keepHotUpdatesUnderLazyCompilation(unchanged)
  expect(unchanged.output.clean).toBe(true)
})
