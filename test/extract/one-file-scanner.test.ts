/**
 * The one module a transform reads on the bundler's own thread (a dev server's edit) is parsed
 * without raw transfer under `scanner: 'auto'`: raw transfer's buffer is several GiB that V8 counts as
 * memory outside its heap, and V8 answers its allocation with a full collection of the bundler's heap,
 * which made the first edit on a dev server wait for it. A scanner named in the options is used as
 * named. The child process is a fresh Node (run from the TypeScript sources through the tsx loader):
 * no parse before this one has allocated the buffer yet.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { resolveExtractOptions } from '../../src/core/extract/index'

const repo = join(import.meta.dirname, '../..')

const MODULE = `import { t } from 'unplugin-tms/runtime'
export function Card({ name }: { name: string }) {
  return <section title={t('Card of {name}', { name })}><h2>{t('Welcome back')}</h2></section>
}
`

/** In a fresh Node: the module's messages through extractFromCode, and how much ArrayBuffer memory that took. */
function extractInFreshNode(): { texts: string[]; arrayBuffersGrowth: number } {
  const script = `
    const { extractFromCode, resolveExtractOptions } = await import('./src/core/extract/index.ts')
    const options = resolveExtractOptions({ cwd: process.cwd() })
    const before = process.memoryUsage().arrayBuffers
    const fx = extractFromCode(process.cwd() + '/src/Card.tsx', ${JSON.stringify(MODULE)}, options)
    const arrayBuffersGrowth = process.memoryUsage().arrayBuffers - before
    process.stdout.write(JSON.stringify({ texts: fx.messages.map((m) => m.text), arrayBuffersGrowth }))
  `
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (run.status !== 0) throw new Error(`the child failed (${run.status}):\n${run.stderr}`)
  return JSON.parse(run.stdout)
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
