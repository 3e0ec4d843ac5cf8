import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, createBuilder } from 'vite'
import { expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { FRENCH_TEXT, SOURCE_TEXT, suiteProject } from '../plugin/helpers'

/**
 * Vite's environment API (`vite build --app`, what frameworks on Vite use): one build of the client
 * and the ssr environments with one plugin. The server environment gets the server runtime, the
 * client the browser runtime, both their catalogs.
 */

const project = suiteProject(true)

test('buildApp of a client and an ssr environment: each with its runtime and catalogs', async () => {
  const root = project.current.root
  writeFileSync(
    join(root, 'src/server.js'),
    [
      "import { runWithLocale } from 'unplugin-tms/runtime'",
      "import { render } from './main.js'",
      'export const renderIn = (locale) => runWithLocale(locale, () => render())',
      '',
    ].join('\n'),
  )
  const out = join(root, 'out')
  const builder = await createBuilder({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline' }))],
    environments: {
      client: { build: { outDir: join(out, 'client') } },
      ssr: { build: { outDir: join(out, 'server'), rollupOptions: { input: join(root, 'src/server.js') } } },
    },
    builder: {},
  })
  await builder.buildApp()
  const entry = (await import(pathToFileURL(join(out, 'server/server.js')).href)) as {
    renderIn(locale: string): Promise<string[]>
  }
  expect(await Promise.all([entry.renderIn('fr-FR'), entry.renderIn('en-US')])).toEqual([
    FRENCH_TEXT,
    SOURCE_TEXT,
  ])
  const assets = join(out, 'client/assets')
  const client = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
  expect(client.some((code) => code.includes(FRENCH_TEXT[0]!))).toBe(true)
  for (const code of client) expect(code).not.toMatch(/AsyncLocalStorage|node:/)
}, 120_000)

test('a browser build that imports runWithLocale fails, naming it', async () => {
  const root = project.current.root
  writeFileSync(
    join(root, 'src/main.js'),
    "import { runWithLocale } from 'unplugin-tms/runtime'\nrunWithLocale('fr-FR', () => 1)\n",
  )
  await expect(
    build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [tmsVite(project.current.options({ cache: 'offline' }))],
      build: { outDir: join(root, 'out-browser') },
    }),
  ).rejects.toThrow(/"runWithLocale" is not exported/)
}, 120_000)
