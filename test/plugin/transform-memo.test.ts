import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { createServer } from 'vite'
import { afterEach, expect, test } from 'vitest'
import webpack from 'webpack'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import type { Options } from '../../src/options'
import tmsRollup from '../../src/rollup'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import { type LikeCompiler, runWebpackLike, webpackConfig } from './bundlers'
import { idsApp, renderInNode } from './helpers'

/**
 * The transform memo (`.tms-cache/transform/`): a production build, or a dev server's start, takes the
 * transform of each module whose content and ids did not change from the last build, and ships what a
 * build without it ships. Each build is a new plugin instance, as a new `vite build` process is.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/**
 * The plugin's options for the app in `dir`: offline, French and the pseudo-locale, the texts at the
 * call sites (so that a memo's code shows the text it was made from).
 */
const appOptions = (dir: string): Options => ({
  root: dir,
  locales: ['fr-FR'],
  pseudo: true,
  cache: 'offline',
  push: false,
  sourceCatalog: false,
})

/** A production rollup build into `out`: file name -> content of every file written. */
async function build(dir: string, out: string): Promise<Map<string, string>> {
  const plugins = [tmsRollup(appOptions(dir))]
  const bundle = await rollup({ input: join(dir, 'src/main.js'), plugins, onLog() {} })
  await bundle.write({ dir: join(dir, out), format: 'es' })
  await bundle.close()
  const files = readdirSync(join(dir, out)).sort()
  return new Map(files.map((f) => [f, readFileSync(join(dir, out, f), 'utf8')]))
}

/** A memo file's index line (its second), as the file's format has it. */
interface MemoIndex {
  stamps: string[]
  /** Five values a module: id, content hash, stamp index, entry length, code length (bytes, -1: none). */
  records: (string | number)[]
}

/** A memo file's text split at its index line: the header line, the index, the records' bytes after it. */
function memoParts(memo: string): { header: string; index: MemoIndex; rest: string } {
  const [header, index] = memo.split('\n', 2) as [string, string]
  return { header, index: JSON.parse(index) as MemoIndex, rest: memo.slice(header.length + index.length + 2) }
}

function joinMemo({ header, index, rest }: ReturnType<typeof memoParts>): string {
  return `${header}\n${JSON.stringify(index)}\n${rest}`
}

/** The ids of the modules a memo file holds a record of. */
function memoIds(memo: string): string[] {
  return memoParts(memo).index.records.filter((_, i) => i % 5 === 0) as string[]
}

/** Each record's entry (JSON), where its index's lengths (bytes) place it: its code and a line break follow it. */
function memoEntries(memo: string): string[] {
  const { index, rest } = memoParts(memo)
  const bytes = Buffer.from(rest)
  const entries: string[] = []
  for (let i = 0, at = 0; i < index.records.length; i += 5) {
    const entry = index.records[i + 3] as number
    entries.push(bytes.toString('utf8', at, at + entry))
    at += entry + Math.max(index.records[i + 4] as number, 0) + 1
  }
  return entries
}

/** The one memo file of the app's build settings. */
function memoFile(dir: string): string {
  const files = readdirSync(join(dir, '.tms-cache', 'transform')).filter((f) => f.endsWith('.cache'))
  expect(files).toHaveLength(1)
  return join(dir, '.tms-cache', 'transform', files[0]!)
}

test("a warm build takes an unchanged module's transform from the memo, and ships what the cold one shipped", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door ✓'])
  const cold = await build(root, 'dist-cold')
  const warm = await build(root, 'dist-warm')
  expect(warm).toEqual(cold)
  // The memo is what the warm build read: an entry changed on disk (its content hash kept) is shipped,
  // its code's length counted in bytes (the text is not ASCII).
  const memo = readFileSync(memoFile(root), 'utf8')
  expect(memoIds(memo).filter((id) => id.endsWith('m1.js'))).toHaveLength(1)
  expect(memo).toContain("'Open the door ✓'")
  writeFileSync(memoFile(root), memo.replace("'Open the door ✓'", "'Open the memo ✓'"))
  const marked = await build(root, 'dist-marked')
  expect(marked.get('main.js')).toBe(cold.get('main.js')!.replace("'Open the door ✓'", "'Open the memo ✓'"))
  // A changed module is transformed again.
  writeFileSync(
    join(root, 'src/m1.js'),
    readFileSync(join(root, 'src/m1.js'), 'utf8').replace('door', 'gate'),
  )
  const changed = await build(root, 'dist-changed')
  expect((await renderInNode(join(root, 'dist-changed', 'main.js'))).source).toEqual([
    'Save 144024',
    'Open the gate ✓',
  ])
  expect(changed.get('main.js')).toContain("'Open the gate ✓'")
})

test('a memo all of ASCII is read as one string: each hit ships its own slice of it', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await build(root, 'dist-cold')
  expect(await build(root, 'dist-warm')).toEqual(cold)
  const memo = readFileSync(memoFile(root), 'utf8')
  expect(Buffer.byteLength(memo)).toBe(memo.length)
  writeFileSync(memoFile(root), memo.replace("'Open the door'", "'Open the memo'"))
  const marked = await build(root, 'dist-marked')
  expect(marked.get('main.js')).toBe(cold.get('main.js')!.replace("'Open the door'", "'Open the memo'"))
  expect((await renderInNode(join(root, 'dist-marked', 'main.js'))).source).toEqual([
    'Save 144024',
    'Open the memo',
  ])
})

test("a message added elsewhere that takes a module's short id makes that module's memo a miss", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024'])
  const first = await build(root, 'dist-1')
  expect(first.get('main.js')!.match(/F3OWHU\w*/g)).toEqual(['F3OWHU'])
  // m0.js is unchanged, but its message now shares 6 characters with m1's: both take 8.
  idsApp(root, ['Save 144024', 'Save 322135'])
  const warm = await build(root, 'dist-2')
  rmSync(join(root, '.tms-cache', 'transform'), { recursive: true })
  const cold = await build(root, 'dist-3')
  expect(warm).toEqual(cold)
  expect(warm.get('main.js')!.match(/F3OWHU\w*/g)).toEqual(['F3OWHUeY', 'F3OWHUHO'])
  expect((await renderInNode(join(root, 'dist-2', 'main.js'))).pseudo).toEqual([
    pseudoLocalize('Save 144024', 'en-XA'),
    pseudoLocalize('Save 322135', 'en-XA'),
  ])
})

test("an entry stamped by a build with the same messages and ids is taken as it is; any other's ids are checked", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await build(root, 'dist-cold')
  const memo = readFileSync(memoFile(root), 'utf8')
  // m1's record: its stamp in the index, and its entry, which names its ids.
  const { index } = memoParts(memo)
  const m1 = memoIds(memo).findIndex((id) => id.endsWith('m1.js'))
  const stamp = index.stamps[index.records[m1 * 5 + 2] as number]!
  expect(stamp).toMatch(/^[0-9a-f]{64}:[0-9a-f]{64}$/)
  const [open] = (JSON.parse(memoEntries(memo)[m1]!) as { ids: string[] }).ids
  expect(cold.get('main.js')).toContain(`_l("${open}", 'Open the door')`)
  // m1's id rewritten on the disk, the stamp kept: taken without a lookup, and its message, which no
  // catalog then holds, shows its source text (nothing fails).
  // The id is in m1's record only (its code and its ids).
  const rewritten = memo.replaceAll(open!, 'ZZZZZZ')
  writeFileSync(memoFile(root), rewritten)
  const stamped = await build(root, 'dist-stamped')
  expect(stamped.get('main.js')).toContain('"ZZZZZZ"')
  const rendered = await renderInNode(join(root, 'dist-stamped', 'main.js'))
  expect(rendered.pseudo).toEqual([pseudoLocalize('Save 144024', 'en-XA'), 'Open the door'])
  // The same entry stamped by other messages: its id is looked up, and the module transformed again.
  const other = memoParts(rewritten)
  other.index.records[m1 * 5 + 2] = other.index.stamps.push(`${'0'.repeat(64)}:${'0'.repeat(64)}`) - 1
  writeFileSync(memoFile(root), joinMemo(other))
  expect(await build(root, 'dist-checked')).toEqual(cold)
})

test('a memo file cut short or with a record out of shape is read up to it: the rest are misses, the output the same', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await build(root, 'dist-cold')
  const memo = readFileSync(memoFile(root), 'utf8')
  /** The memo with the first record's field `field` (see `MemoIndex`) changed by `change`. */
  const first = (field: number, change: (value: string | number) => string | number): string => {
    const parts = memoParts(memo)
    parts.index.records[field] = change(parts.index.records[field]!)
    return joinMemo(parts)
  }
  expect(memoIds(memo)).toHaveLength(3)
  const cuts = [
    memo.slice(0, memo.length - 20),
    memo.slice(0, memo.indexOf('\n') + 5),
    first(3, (n) => Number(n) + 3),
    first(4, () => 'many'),
    first(2, () => 7),
  ]
  for (const [i, cut] of cuts.entries()) {
    writeFileSync(memoFile(root), cut)
    expect(await build(root, `dist-${i}`)).toEqual(cold)
  }
})

test("a build with source maps ships the cold build's maps from the memo, which leaves their sources' content out", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  // webpack, whose maps take each source's content from the transform's map (rollup and vite read the file).
  const mapOf = async (out: string) => {
    const config = {
      ...webpackConfig(root!, join(root!, out), tmsWebpack(appOptions(root!)), 'production'),
      devtool: 'source-map',
    }
    await runWebpackLike((c) => webpack(c as webpack.Configuration) as unknown as LikeCompiler, config)
    return JSON.parse(readFileSync(join(root!, out, 'main.mjs.map'), 'utf8')) as {
      sources: string[]
      sourcesContent: string[]
    }
  }
  const cold = await mapOf('dist-cold')
  const warm = await mapOf('dist-warm')
  expect(warm).toEqual(cold)
  const m1 = warm.sources.findIndex((s) => s.endsWith('m1.js'))
  expect(warm.sourcesContent[m1]).toBe(readFileSync(join(root, 'src/m1.js'), 'utf8'))
  const memo = readFileSync(memoFile(root), 'utf8')
  expect(memo).toContain('"mappings"')
  expect(memo).not.toContain('sourcesContent')
})

test("webpack makes the transform's maps only when it reads them: devtool false and eval do not, a source map plugin does", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const memoAfter = async (out: string, extra: object) => {
    rmSync(join(root!, '.tms-cache', 'transform'), { recursive: true, force: true })
    const config = {
      ...webpackConfig(root!, join(root!, out), tmsWebpack(appOptions(root!)), 'production'),
      ...extra,
    }
    await runWebpackLike((c) => webpack(c as webpack.Configuration) as unknown as LikeCompiler, config)
    return readFileSync(memoFile(root!), 'utf8')
  }
  for (const devtool of [false, 'eval']) {
    const memo = await memoAfter(`dist-${devtool}`, { devtool })
    expect(memo).toContain('__tms_l(')
    expect(memo).not.toContain('"mappings"')
  }
  // A source map plugin of the config with devtool false (its own options) reads them as devtool would.
  const plugin = new webpack.SourceMapDevToolPlugin({ filename: '[file].map' })
  const memo = await memoAfter('dist-plugin', {
    devtool: false,
    plugins: [tmsWebpack(appOptions(root)), plugin],
  })
  expect(memo).toContain('"mappings"')
  const map = JSON.parse(readFileSync(join(root, 'dist-plugin', 'main.mjs.map'), 'utf8')) as {
    sources: string[]
    sourcesContent: string[]
  }
  const m1 = map.sources.findIndex((s) => s.endsWith('m1.js'))
  expect(map.sourcesContent[m1]).toBe(readFileSync(join(root, 'src/m1.js'), 'utf8'))
})

/** A vite dev server of the app (no listening socket): each module as its transform served it. */
async function serve(dir: string, modules: string[], close = true) {
  const server = await createServer({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(appOptions(dir))],
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  })
  const served = new Map<string, { code: string; map: unknown }>()
  for (const m of modules) {
    const result = (await server.transformRequest(m))!
    served.set(m, { code: result.code, map: result.map })
  }
  if (close) await server.close()
  return { served, server }
}

test('a dev server serves its unchanged modules from the memo its last start wrote, code and map alike', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const modules = ['/src/m0.js', '/src/m1.js']
  const cold = await serve(root, modules)
  expect(cold.served.get('/src/m1.js')!.code).toContain('__tms_l(')
  const warm = await serve(root, modules)
  expect(warm.served).toEqual(cold.served)
  // What the warm start served is the memo's: an entry changed on disk (its content hash kept) is served.
  const memo = readFileSync(memoFile(root), 'utf8')
  writeFileSync(memoFile(root), memo.replace("'Open the door'", "'Open the memo'"))
  const marked = await serve(root, modules)
  expect(marked.served.get('/src/m1.js')!.code).toBe(
    cold.served.get('/src/m1.js')!.code.replace("'Open the door'", "'Open the memo'"),
  )
  expect(marked.served.get('/src/m0.js')).toEqual(cold.served.get('/src/m0.js'))
})

test('a dev server writes the memo once its transforms pause, before it closes', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const dir = join(root, '.tms-cache', 'transform')
  const { server } = await serve(root, ['/src/m0.js', '/src/m1.js'], false)
  try {
    // Written about a second after the last transform; waited for, never timed.
    const written = () => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.cache'))
    for (let i = 0; i < 300 && !written(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const memo = readFileSync(memoFile(root), 'utf8')
    expect(memoIds(memo).filter((id) => /m[01]\.js$/.test(id))).toHaveLength(2)
  } finally {
    await server.close()
  }
})
