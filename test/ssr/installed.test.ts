import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, createServer } from 'vite'
import { expect, test, vi } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import tmsVite from '../../src/vite'
import { FRENCH_TEXT, PROJECT, SOURCE_TEXT, suiteProject } from '../plugin/helpers'

/**
 * An app whose unplugin-tms is installed in node_modules (vite's SSR leaves such packages to Node by
 * default): its server code still gets the plugin's runtime with the catalogs, in `ssrLoadModule` and
 * in a `build --ssr`, and renders two locales at once.
 */

const project = suiteProject(true)

const REPO = new URL('../../', import.meta.url)

/** The fixture app plus a server entry, and a copy of this package as an installed dependency. */
function installedApp(): string {
  const root = project.current.root
  const installed = join(root, 'node_modules/unplugin-tms')
  mkdirSync(installed, { recursive: true })
  cpSync(new URL('package.json', REPO), join(installed, 'package.json'))
  cpSync(new URL('dist', REPO), join(installed, 'dist'), { recursive: true })
  writeFileSync(
    join(root, 'src/server.js'),
    [
      "import { runWithLocale } from 'unplugin-tms/runtime'",
      "import { render } from './main.js'",
      'export const renderIn = (locale) =>',
      '  runWithLocale(locale, async () => {',
      '    await new Promise((resolve) => setTimeout(resolve, 5))',
      '    return render()',
      '  })',
      '',
    ].join('\n'),
  )
  return root
}

type ServerEntry = { renderIn(locale: string): Promise<string[]> }

const bothLocales = (entry: ServerEntry) => Promise.all([entry.renderIn('fr-FR'), entry.renderIn('en-US')])

test('ssrLoadModule renders with the catalogs', async () => {
  const root = installedApp()
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline' }))],
    server: { middlewareMode: true },
    appType: 'custom',
  })
  try {
    const entry = (await server.ssrLoadModule('/src/server.js')) as ServerEntry
    expect(await bothLocales(entry)).toEqual([FRENCH_TEXT, SOURCE_TEXT])
  } finally {
    await server.close()
  }
}, 120_000)

test('a build --ssr bundles the runtime with the catalogs', async () => {
  const root = installedApp()
  const outDir = join(root, 'dist-ssr')
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline' }))],
    build: { ssr: 'src/server.js', outDir },
  })
  const entry = (await import(pathToFileURL(join(outDir, 'server.js')).href)) as ServerEntry
  expect(await bothLocales(entry)).toEqual([FRENCH_TEXT, SOURCE_TEXT])
}, 120_000)

test('a change of the cache reaches the next server render in dev, as it reaches the page', async () => {
  const root = installedApp()
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline' }))],
    server: { middlewareMode: true },
    appType: 'custom',
  })
  try {
    const render = async () =>
      ((await server.ssrLoadModule('/src/server.js')) as ServerEntry).renderIn('fr-FR')
    expect(await render()).toEqual(FRENCH_TEXT)
    const cache = new DiskCache(project.current.cacheDir, PROJECT)
    const current = await cache.readLocale('fr-FR', 'published')
    if (!current.hit) throw new Error('the first pull did not fill the cache')
    const hashcode = project.current.hashcodes.get('Welcome to the shop')!
    await cache.writeLocale('fr-FR', 'published', {
      ...current.value.translations,
      [hashcode]: 'Bienvenue dans la nouvelle boutique',
    })
    const expected = ['Bienvenue dans la nouvelle boutique', ...FRENCH_TEXT.slice(1)]
    await vi.waitFor(async () => expect(await render()).toEqual(expected), { timeout: 20_000, interval: 100 })
  } finally {
    await server.close()
  }
}, 120_000)
