import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { watch as rollupWatch } from 'rollup'
import { expect, test } from 'vitest'
import webpack from 'webpack'
import { DiskCache } from '../../src/core/cache'
import { watchWithoutVirtualModules } from '../../src/plugin/webpack-like'
import tmsRollup from '../../src/rollup'
import tmsWebpack from '../../src/webpack'
import { FRENCH_TEXT, PROJECT, renderInNode, suiteProject } from './helpers'

/**
 * Watch mode (webpack watch, rollup watch): catalogs come from the cache, and a change of the cache
 * (`tms pull` in another terminal) rebuilds with the new text. Nothing is pushed or pulled.
 */

const suite = suiteProject(true)

/** Writes a new French text for one message into the cache, as `tms pull` would. */
async function pullNewText(source: string, text: string): Promise<void> {
  const cache = new DiskCache(suite.current.cacheDir, PROJECT)
  const current = await cache.readLocale('fr-FR', 'published')
  if (!current.hit) throw new Error('no cached French')
  await cache.writeLocale('fr-FR', 'published', {
    ...current.value.translations,
    [suite.current.hashcodes.get(source)!]: text,
  })
}

/**
 * Copies a finished build's output aside, from the watcher's callback: the watcher starts no other
 * build before that callback returns, and a later build may rewrite the output while a test reads it.
 */
function snapshot(outDir: string, n: number): string {
  const copy = `${outDir}-${n}`
  cpSync(outDir, copy, { recursive: true })
  return copy
}

/** Resolves with each build's outcome in turn. */
function queue<T>(): { push(value: T): void; next(): Promise<T> } {
  const values: T[] = []
  const waiting: ((value: T) => void)[] = []
  return {
    push(value) {
      const wake = waiting.shift()
      if (wake) wake(value)
      else values.push(value)
    },
    next() {
      const value = values.shift()
      return value !== undefined ? Promise.resolve(value) : new Promise((resolve) => waiting.push(resolve))
    },
  }
}

/** A build's error, or where a copy of its output is. */
interface Build {
  error: string | null
  dir?: string
}

async function requestCount(): Promise<number> {
  const res = await fetch(`${suite.current.emu.url}/_emulator/requests`)
  return ((await res.json()) as { response: { data: { total: number } } }).response.data.total
}

test('webpack watch rebuilds with the new cached text', async () => {
  const outDir = join(suite.current.root, 'dist-webpack-watch')
  const compiler = webpack({
    mode: 'development',
    context: suite.current.root,
    entry: './src/main.js',
    target: 'node',
    devtool: false,
    output: {
      path: outDir,
      filename: 'main.mjs',
      module: true,
      chunkFormat: 'module',
      library: { type: 'module' },
    },
    experiments: { outputModule: true },
    plugins: [tmsWebpack(suite.current.options())],
    infrastructureLogging: { level: 'none' },
  })
  // What made each rebuild, as webpack's watcher reported it: the files it saw change or disappear.
  const causes: string[] = []
  let starts = 0
  compiler.hooks.watchRun.tap('test', (c) => {
    if (starts++ === 0) return
    causes.push(...(c.modifiedFiles ?? []), ...[...(c.removedFiles ?? [])].map((f) => `removed ${f}`))
  })
  const builds = queue<Build>()
  let n = 0
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) =>
    builds.push(
      error
        ? { error: error.message }
        : stats!.hasErrors()
          ? { error: String(stats!.compilation.errors[0]) }
          : { error: null, dir: snapshot(outDir, n++) },
    ),
  )
  try {
    const first = await builds.next()
    expect(first.error).toBeNull()
    expect((await renderInNode(join(first.dir!, 'main.mjs'))).fr).toEqual(FRENCH_TEXT)
    await pullNewText('Welcome to the shop', 'Bienvenue, version surveillée')
    const expected = ['Bienvenue, version surveillée', ...FRENCH_TEXT.slice(1)]
    // The watcher may still deliver a rebuild it had started before the change; the next ones have it.
    let fr: string[] = []
    for (let i = 0; i < 3 && fr[0] !== expected[0]; i++) {
      const build = await builds.next()
      expect(build.error).toBeNull()
      fr = (await renderInNode(join(build.dir!, 'main.mjs'))).fr
    }
    expect(fr).toEqual(expected)
    // Only the cache made a rebuild: the virtual modules, which exist only in memory, are not watched
    // (their removal, as the watcher's first scan saw it, made a second build as the watch started).
    expect(causes.length).toBeGreaterThan(0)
    expect(causes.filter((f) => !f.startsWith(suite.current.cacheDir))).toEqual([])
  } finally {
    await new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve()))
  }
  expect(await requestCount()).toBe(0)
}, 60_000)

test('rollup watch rebuilds with the new cached text', async () => {
  const outDir = join(suite.current.root, 'dist-rollup-watch')
  const watcher = rollupWatch({
    input: join(suite.current.root, 'src/main.js'),
    plugins: [tmsRollup(suite.current.options())],
    output: { dir: outDir, format: 'es' },
    watch: { buildDelay: 50 },
  })
  const builds = queue<Build>()
  let n = 0
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END') void event.result.close()
    if (event.code === 'END') builds.push({ error: null, dir: snapshot(outDir, n++) })
    if (event.code === 'ERROR') builds.push({ error: event.error.message })
  })
  try {
    expect((await builds.next()).error).toBeNull()
    await pullNewText('Open', 'Ouvrir (surveillé)')
    let fr: string[] = []
    for (let i = 0; i < 3 && fr[3] !== 'Ouvrir (surveillé)'; i++) {
      const build = await builds.next()
      expect(build.error).toBeNull()
      fr = (await renderInNode(join(build.dir!, 'main.js'))).fr
    }
    // The first test's change is in the cache too.
    expect(fr).toEqual(['Bienvenue, version surveillée', ...FRENCH_TEXT.slice(1, 3), 'Ouvrir (surveillé)'])
  } finally {
    await watcher.close()
  }
  expect(await requestCount()).toBe(0)
}, 60_000)

test("webpack's watcher gets every path but unplugin's virtual modules, a user's _virtual_ directory included", () => {
  const seen: string[][] = []
  const compiler = {
    options: { context: '/app' },
    watchFileSystem: {
      watch(files: Iterable<string>, directories: Iterable<string>, missing: Iterable<string>): void {
        seen.push([...files], [...directories], [...missing])
      },
    },
  }
  watchWithoutVirtualModules(compiler)
  compiler.watchFileSystem.watch(
    ['/app/src/main.js', '/app/_virtual_%00tms%2Fruntime.js', '/app/_virtual_assets/logo.js'],
    ['/app/src'],
    ['/app/_virtual_%00tms%2Ftms-fr-FR.js', '/app/node_modules/x'],
  )
  expect(seen).toEqual([
    ['/app/src/main.js', '/app/_virtual_assets/logo.js'],
    ['/app/src'],
    ['/app/node_modules/x'],
  ])
})
