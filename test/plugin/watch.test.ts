import { cpSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { watch as rollupWatch } from 'rollup'
import { expect, test, vi } from 'vitest'
import webpack from 'webpack'
import { DiskCache } from '../../src/core/cache'
import { Build as TmsBuild } from '../../src/plugin/build'
import { watchWithoutVirtualModules } from '../../src/plugin/webpack-like'
import tmsRollup from '../../src/rollup'
import tmsWebpack from '../../src/webpack'
import { FRENCH, FRENCH_TEXT, PROJECT, type Rendered, renderInNode, suiteProject } from './helpers'

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

/** A build's error, or where a copy of its output is (and webpack's warnings of that build). */
interface Build {
  error: string | null
  dir?: string
  warnings?: string[]
}

/** A webpack watch of the fixture app, built for Node into `<root>/<name>`: each build in turn. */
function webpackWatch(name: string): {
  compiler: webpack.Compiler
  builds: ReturnType<typeof queue<Build>>
  close(): Promise<void>
} {
  const outDir = join(suite.current.root, name)
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
  const builds = queue<Build>()
  let n = 0
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) =>
    builds.push(
      error
        ? { error: error.message }
        : stats!.hasErrors()
          ? { error: String(stats!.compilation.errors[0]) }
          : {
              error: null,
              dir: snapshot(outDir, n++),
              warnings: stats!.compilation.warnings.map((w) => w.message),
            },
    ),
  )
  return {
    compiler,
    builds,
    close: () => new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve())),
  }
}

/**
 * The next build whose rendering passes `done`: the watcher may still deliver a build it had started
 * before a change, the next ones have it.
 */
async function nextRendered(
  builds: ReturnType<typeof queue<Build>>,
  done: (r: Rendered) => boolean,
): Promise<Build & Rendered> {
  let last: (Build & Rendered) | undefined
  for (let i = 0; i < 3 && !(last && done(last)); i++) {
    const build = await builds.next()
    expect(build.error).toBeNull()
    last = { ...build, ...(await renderInNode(join(build.dir!, 'main.mjs'))) }
  }
  return last!
}

const CART = 'You have {count} items in your cart'
const SOURCE_CART = 'You have 3 items in your cart'

/** The warning of a French translation whose placeholder the source does not have. */
function rejected(source: string, placeholder: string, at: string): string {
  return `[unplugin-tms] translation of ${suite.current.hashcodes.get(source)} for fr-FR rejected: it has the placeholder ${placeholder}, which the source does not; the source text "${source}" (${at}) is used until the translation is corrected on the service`
}

async function requestCount(): Promise<number> {
  const res = await fetch(`${suite.current.emu.url}/_emulator/requests`)
  return ((await res.json()) as { response: { data: { total: number } } }).response.data.total
}

test('webpack watch rebuilds with the new cached text', async () => {
  const { compiler, builds, close } = webpackWatch('dist-webpack-watch')
  // What made each rebuild, as webpack's watcher reported it: the files it saw change or disappear.
  const causes: string[] = []
  let starts = 0
  compiler.hooks.watchRun.tap('test', (c) => {
    if (starts++ === 0) return
    causes.push(...(c.modifiedFiles ?? []), ...[...(c.removedFiles ?? [])].map((f) => `removed ${f}`))
  })
  try {
    const first = await builds.next()
    expect(first.error).toBeNull()
    expect((await renderInNode(join(first.dir!, 'main.mjs'))).fr).toEqual(FRENCH_TEXT)
    await pullNewText('Welcome to the shop', 'Bienvenue, version surveillée')
    const expected = ['Bienvenue, version surveillée', ...FRENCH_TEXT.slice(1)]
    expect((await nextRendered(builds, (r) => r.fr[0] === expected[0])).fr).toEqual(expected)
    // Only the cache made a rebuild: the virtual modules, which exist only in memory, are not watched
    // (their removal, as the watcher's first scan saw it, made a second build as the watch started).
    expect(causes.length).toBeGreaterThan(0)
    expect(causes.filter((f) => !f.startsWith(suite.current.cacheDir))).toEqual([])
  } finally {
    await close()
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

test('webpack watch: an edit keeps the build, a pull checks its locale again; each says its warnings once', async () => {
  // The cache as the emulator's translators left it (the tests above changed it), then a wrong placeholder.
  for (const source of ['Welcome to the shop', 'Open']) await pullNewText(source, FRENCH[source]!)
  await pullNewText('Hello {name}!', 'Bonjour {nom} !')
  // Written before the watch: a file whose time is within webpack's accuracy window of the watch's
  // start counts as changed since, and its rebuild could take in the edit below as a recheck.
  const before = new Date(Date.now() - 60_000)
  utimesSync(join(suite.current.cacheDir, 'locales', 'fr-FR.published.json'), before, before)
  const { builds, close } = webpackWatch('dist-webpack-keep')
  const file = join(suite.current.root, 'src/cart.js')
  const original = readFileSync(file, 'utf8')
  try {
    const first = await nextRendered(builds, () => true)
    // The translation with a placeholder of its own falls back to the source text, with a warning.
    expect(first.fr).toEqual([FRENCH_TEXT[0], 'Hello Ada!', ...FRENCH_TEXT.slice(2)])
    const hello = rejected('Hello {name}!', '{nom}', 'src/greet.js:5:35')
    expect(first.warnings).toEqual([hello])
    writeFileSync(file, original.replace("t('Open'", "t('Open it'"))
    const edited = await nextRendered(builds, (r) => r.fr[3] === 'Open it')
    // The new message shows its source text, the others what the kept build checked.
    expect(edited.fr).toEqual([FRENCH_TEXT[0], 'Hello Ada!', FRENCH_TEXT[2], 'Open it'])
    // Said by the build that checked it, not again by each edit's.
    expect(edited.warnings).toEqual([])
    await pullNewText(CART, 'Vous avez {total} articles')
    const pulled = await nextRendered(builds, (r) => r.fr[2] === SOURCE_CART)
    expect(pulled.fr).toEqual([FRENCH_TEXT[0], 'Hello Ada!', SOURCE_CART, 'Open it'])
    // The pulled locale checked again: all of its warnings, as a new build would say them.
    expect(pulled.warnings).toEqual([rejected(CART, '{total}', 'src/cart.js:4:36'), hello])
    // Corrected by the next pull: the translation the last one took away is back.
    await pullNewText(CART, 'Vous avez {count} articles')
    const mended = await nextRendered(builds, (r) => r.fr[2] !== SOURCE_CART)
    expect(mended.fr).toEqual([FRENCH_TEXT[0], 'Hello Ada!', 'Vous avez 3 articles', 'Open it'])
    expect(mended.warnings).toEqual([hello])
  } finally {
    writeFileSync(file, original)
    await close()
    await pullNewText('Hello {name}!', FRENCH['Hello {name}!']!)
    await pullNewText(CART, FRENCH[CART]!)
  }
  expect(await requestCount()).toBe(0)
}, 60_000)

test('webpack watch: an edit that brings in no translated message builds no virtual module again, the first edit included; a pull builds the catalogs', async () => {
  const { compiler, builds, close } = webpackWatch('dist-webpack-catalog-builds')
  // The virtual modules each compilation built (a catalog module once per locale, or twice: in make
  // and again in finishMake), in the order of the builds.
  const made: string[][] = []
  let built: string[] = []
  compiler.hooks.thisCompilation.tap('test', (compilation) => {
    built = []
    compilation.hooks.buildModule.tap('test', (m) => {
      const virtual = /_virtual_%00tms%2F(.+)$/.exec((m as webpack.NormalModule).resource ?? '')
      if (virtual) built.push(virtual[1]!)
    })
  })
  compiler.hooks.done.tap('test', () => {
    made.push(built.sort())
  })
  const builtBy = (build: Build): string[] => made[Number(/-(\d+)$/.exec(build.dir!)![1])]!
  const file = join(suite.current.root, 'src/cart.js')
  const original = readFileSync(file, 'utf8')
  try {
    const first = await nextRendered(builds, () => true)
    expect(builtBy(first)).toContain('tms-fr-FR.js')
    writeFileSync(file, original.replace("t('Open'", "t('Open it'"))
    const edited = await nextRendered(builds, (r) => r.fr[3] === 'Open it')
    expect(edited.fr).toEqual([...FRENCH_TEXT.slice(0, 3), 'Open it'])
    expect(builtBy(edited)).toEqual([])
    writeFileSync(file, original.replace("t('Open'", "t('Open now'"))
    const again = await nextRendered(builds, (r) => r.fr[3] === 'Open now')
    expect(builtBy(again)).toEqual([])
    await pullNewText('Welcome to the shop', 'Bienvenue, catalogue refait')
    const pulled = await nextRendered(builds, (r) => r.fr[0] === 'Bienvenue, catalogue refait')
    expect(pulled.fr).toEqual(['Bienvenue, catalogue refait', ...FRENCH_TEXT.slice(1, 3), 'Open now'])
    expect(builtBy(pulled)).toContain('tms-fr-FR.js')
  } finally {
    writeFileSync(file, original)
    await close()
    await pullNewText('Welcome to the shop', FRENCH['Welcome to the shop']!)
  }
  expect(await requestCount()).toBe(0)
}, 60_000)

test("a webpack watch readies its first edit once its first build is done: every locale's catalog input, before any edit", async () => {
  const inputs = vi.spyOn(TmsBuild.prototype, 'catalogInput')
  const { builds, close } = webpackWatch('dist-webpack-warm')
  try {
    expect((await builds.next()).error).toBeNull()
    // What the first build made is not the warm-up's: only what comes after it counts.
    inputs.mockClear()
    const locales = (): string[] => [...new Set(inputs.mock.calls.map(([locale]) => locale))].sort()
    // The build's locales: the options' and the pseudo-locale.
    const expected = ['en-XA', 'fr-FR']
    for (let i = 0; i < 250 && locales().length < expected.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(locales()).toEqual(expected)
    expect((inputs.mock.contexts[0] as TmsBuild).locales.toSorted()).toEqual(expected)
  } finally {
    inputs.mockRestore()
    await close()
  }
}, 60_000)
