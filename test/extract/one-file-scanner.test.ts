/**
 * The one module a transform reads on the bundler's own thread (a dev server's edit) is parsed
 * without raw transfer under `scanner: 'auto'`: raw transfer's buffer is several GiB that V8 counts as
 * memory outside its heap, and V8 answers its allocation with a full collection of the bundler's heap,
 * which made the first edit on a dev server wait for it. A scanner named in the options is used as
 * named. The child process is a fresh Node (run from the TypeScript sources through the tsx loader):
 * no parse before this one has allocated the buffer yet.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { FEW_FILES, resolveExtractOptions } from '../../src/core/extract/index'
import { lazySupported } from '../../src/core/extract/oxc'

const repo = join(import.meta.dirname, '../..')

const MODULE = `import { t } from 'unplugin-tms/runtime'
export function Card({ name }: { name: string }) {
  return <section title={t('Card of {name}', { name })}><h2>{t('Welcome back')}</h2></section>
}
`

/** Runs `script` (an ES module) in a fresh Node from the sources; its printed JSON. */
function inFreshNode<T>(script: string, cwd = repo): T {
  const run = spawnSync(
    process.execPath,
    ['--import', join(repo, 'node_modules/tsx/dist/esm/index.mjs'), '--input-type=module', '-e', script],
    { cwd, encoding: 'utf8', timeout: 60_000 },
  )
  if (run.status !== 0) throw new Error(`the child failed (${run.status}):\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** In a fresh Node: the module's messages through extractFromCode, and how much ArrayBuffer memory that took. */
function extractInFreshNode(): { texts: string[]; arrayBuffersGrowth: number } {
  return inFreshNode(`
    const { extractFromCode, resolveExtractOptions } = await import('./src/core/extract/index.ts')
    const options = resolveExtractOptions({ cwd: process.cwd() })
    const before = process.memoryUsage().arrayBuffers
    const fx = extractFromCode(process.cwd() + '/src/Card.tsx', ${JSON.stringify(MODULE)}, options)
    const arrayBuffersGrowth = process.memoryUsage().arrayBuffers - before
    process.stdout.write(JSON.stringify({ texts: fx.messages.map((m) => m.text), arrayBuffersGrowth }))
  `)
}

test("a transform's one module is read without raw transfer's buffer under scanner: 'auto'", () => {
  const { texts, arrayBuffersGrowth } = extractInFreshNode()
  expect(texts).toEqual(['Card of {name}', 'Welcome back'])
  // Raw transfer's buffer would be GiBs; the JSON scanner's AST string is not an ArrayBuffer at all.
  expect(arrayBuffersGrowth).toBeLessThan(16 * 2 ** 20)
})

test('the one-module scanner is json under auto, and the named scanner when one is named', () => {
  expect(resolveExtractOptions({}).oneFileScanner).toBe('json')
  expect(resolveExtractOptions({ scanner: 'json-nodes' }).oneFileScanner).toBe('json-nodes')
  expect(resolveExtractOptions({ scanner: 'estree' }).oneFileScanner).toBe('estree')
})

let app: string | undefined
afterEach(() => {
  if (app) rmSync(app, { recursive: true, force: true })
  app = undefined
})

/** An app of `count` components, each with its own heading message. */
function writeApp(count: number): string {
  app = mkdtempSync(join(tmpdir(), 'tms-few-files-'))
  mkdirSync(join(app, 'src'))
  for (let i = 0; i < count; i++) writeFileSync(join(app, 'src', `C${i}.tsx`), component(i, `Heading ${i}`))
  return app
}

function component(i: number, heading: string): string {
  return `import { t } from 'unplugin-tms/runtime'\nexport const C${i} = () => <h2>{t(${JSON.stringify(heading)})}</h2>\n`
}

/** One extraction of `dir` in a fresh Node (cache in `dir/.cache`): its texts, parsed count, ArrayBuffer growth. */
function extractAppInFreshNode(dir: string): { texts: string[]; parsed: number; arrayBuffersGrowth: number } {
  return inFreshNode(
    `
    const { extractMessages, resolveExtractOptions } = await import(${JSON.stringify(join(repo, 'src/core/extract/index.ts'))})
    const options = resolveExtractOptions({ cwd: process.cwd(), include: ['src/**/*.tsx'], cacheDir: '.cache' })
    const before = process.memoryUsage().arrayBuffers
    const result = await extractMessages(options)
    const arrayBuffersGrowth = process.memoryUsage().arrayBuffers - before
    const texts = result.messages.map((m) => m.text).sort()
    process.stdout.write(JSON.stringify({ texts, parsed: result.stats.parsed, arrayBuffersGrowth }))
  `,
    dir,
  )
}

// Raw transfer's buffer is GiBs of ArrayBuffer memory; the JSON scanner's AST is a string.
const RAW_TRANSFER = 16 * 2 ** 20

test("a run that parses a few files (a build after an edit) reads them as a transform's one module is read", () => {
  const dir = writeApp(3)
  const cold = extractAppInFreshNode(dir)
  expect(cold.texts).toEqual(['Heading 0', 'Heading 1', 'Heading 2'])
  expect(cold.parsed).toBe(3)
  expect(cold.arrayBuffersGrowth).toBeLessThan(RAW_TRANSFER)
  // A file changed since the cached run: read, hashed against the cache and parsed alone.
  writeFileSync(join(dir, 'src', 'C1.tsx'), component(1, 'Heading one, edited'))
  const edited = extractAppInFreshNode(dir)
  expect(edited.texts).toEqual(['Heading 0', 'Heading 2', 'Heading one, edited'])
  expect(edited.parsed).toBe(1)
  expect(edited.arrayBuffersGrowth).toBeLessThan(RAW_TRANSFER)
})

test("a run that parses FEW_FILES files or more reads them with the options' scanner (lazy where it runs)", () => {
  const dir = writeApp(FEW_FILES)
  const run = extractAppInFreshNode(dir)
  expect(run.parsed).toBe(FEW_FILES)
  expect(run.texts).toHaveLength(FEW_FILES)
  expect(run.arrayBuffersGrowth >= RAW_TRANSFER).toBe(lazySupported())
})
