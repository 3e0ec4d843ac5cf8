import { utimesSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type webpack from 'webpack'
import { DiskCache } from '../../src/core/cache'
import tmsWebpack from '../../src/webpack'
import { browserWebpackConfig } from './bundlers'
import { type RunningDevServer, startWebpackDevServer } from './dev-page'
import { FRENCH, fillCache, PROJECT, type Project, setupProject } from './helpers'

/**
 * The dev server's channel of pulled translations (pull-channel.ts), read as a page's EventSource
 * reads it, in webpack-dev-server with no page: a `tms pull` is sent on `/__tms/pulls` with the
 * changed translations and the webpack ids of the modules that show them; the compiler no longer
 * watches the locale files, and the rebuild the channel starts reports the check's warnings once,
 * as a rebuild that checked the locale itself did (watch.test.ts).
 */

let project: Project
let server: RunningDevServer
/** Each compilation's warnings and the files its watch saw change (relative to the project), in turn. */
const compiled: { warnings: string[]; modified: string[] }[] = []
/** What the channel sent. */
const events: { locale: string; changed: Record<string, unknown>; removed: string[]; modules?: unknown[] }[] =
  []
let reading: AbortController

/** Waits until `ready()` holds (what the dev server does lands in its own time). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 20))
  }
}

/** Writes fr-FR translations (source text -> translation) into the cache, as `tms pull` does. */
async function pullFrench(translations: Record<string, string>): Promise<void> {
  const cache = new DiskCache(project.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('the first pull did not fill the cache')
  const pulled = { ...current.value.translations }
  for (const [source, text] of Object.entries(translations)) pulled[project.hashcodes.get(source)!] = text
  await cache.writeLocale('fr-FR', 'published', pulled)
}

/** The warning of a French translation whose placeholder the source does not have. */
function rejected(source: string, placeholder: string, at: string): string {
  return `[unplugin-tms] translation of ${project.hashcodes.get(source)} for fr-FR rejected: it has the placeholder ${placeholder}, which the source does not; the source text "${source}" (${at}) is used until the translation is corrected on the service`
}

beforeAll(async () => {
  project = await setupProject()
  await fillCache(project)
  const config = browserWebpackConfig(
    project.root,
    join(project.root, 'dist-channel'),
    tmsWebpack(project.options({ cache: 'offline' })),
    'development',
  )
  const done = {
    apply(compiler: webpack.Compiler) {
      compiler.hooks.done.tap('test', (stats) =>
        compiled.push({
          warnings: stats.compilation.warnings.map((w) => w.message),
          modified: [...(compiler.modifiedFiles ?? [])].map((f) => relative(project.root, f)),
        }),
      )
    },
  }
  const served = {
    ...config,
    plugins: [...config.plugins, done],
    devServer: { host: '127.0.0.1', port: 0, static: false, setupExitSignals: false },
  }
  server = await startWebpackDevServer('webpack', served)
  await until(() => compiled.length > 0, 'the first compilation')
  reading = new AbortController()
  const response = await fetch(`${server.url}/__tms/pulls`, { signal: reading.signal })
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  const body = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  void (async () => {
    let text = ''
    for (;;) {
      const { value, done: ended } = await body.read().catch(() => ({ value: undefined, done: true }))
      if (ended) return
      text += value
      for (let at = text.indexOf('\n\n'); at >= 0; at = text.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(text.slice(0, at))
        if (data) events.push(JSON.parse(data[1]!))
        text = text.slice(at + 2)
      }
    }
  })()
}, 120_000)

afterAll(async () => {
  reading?.abort()
  await server?.stop()
  await project?.close()
})

test('a pull is sent on the channel, then the rebuild it starts says the check warnings once', async () => {
  // A rebuild first: the first compilation ran before the channel watched the locale files (it starts
  // once the build synced), the next ones leave them to it.
  const now = new Date()
  utimesSync(join(project.root, 'src/cart.js'), now, now)
  await until(() => compiled.length > 1, 'the rebuild of an edit')
  const compilations = compiled.length
  await pullFrench({ Open: 'Ouvrir maintenant', 'Hello {name}!': 'Bonjour {nom} !' })
  await until(() => events.length > 0, "the channel's event")
  // The rejected translation is removed from the page's catalog: the source text shows.
  expect(
    events.map((e) => ({
      ...e,
      changed: Object.values(e.changed),
      removed: e.removed.length,
      modules: e.modules?.slice().sort(),
    })),
  ).toEqual([
    {
      locale: 'fr-FR',
      changed: ['Ouvrir maintenant'],
      removed: 1,
      modules: ['./src/cart.js', './src/greet.js'],
    },
  ])
  await until(() => compiled.length > compilations, 'the rebuild')
  // Started by the channel (the watch saw no file change), with the check's warning, once.
  expect(compiled.slice(compilations)).toEqual([
    { warnings: [rejected('Hello {name}!', '{nom}', 'src/greet.js:5:35')], modified: [] },
  ])
  await pullFrench({ 'Hello {name}!': FRENCH['Hello {name}!']! })
  await until(() => events.length > 1 && compiled.length > compilations + 1, 'the second pull')
  expect(compiled.slice(compilations + 1)).toEqual([{ warnings: [], modified: [] }])
}, 120_000)
