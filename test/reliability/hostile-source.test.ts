import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rollup } from 'rollup'
import { beforeAll, describe, expect, it } from 'vitest'
import { clearExtractionMemory, extractMessages } from '../../src/core/extract/index'
import { excessiveNesting, MAX_NESTING } from '../../src/core/extract/nesting'
import tmsRollup from '../../src/rollup'
import { quietRollupInfo } from '../plugin/bundlers'
import { makeApp, seeded, writeFiles } from './helpers'

/**
 * Source files no extractor should meet, under the include globs: a syntax error, brackets nested
 * 20,000 deep (oxc-parser dies with SIGSEGV on those, taking the build process with it), arrow
 * functions nested 5,000 deep (a worker thread's smaller stack dies even sooner), random bytes named
 * .js, and a 2 MB module. Each must end as a warning naming the file, or as its messages; never a
 * crash. A crash here kills the vitest worker, which fails the run.
 */

const HUGE_CALLS = 40_000

function hostileTree(): string {
  const root = makeApp({}, { locales: ['fr-FR'] })
  // Seeded "random" bytes: the parser's message depends on them, so they are the same every run.
  const random = seeded(64)
  const binary = Buffer.from(Array.from({ length: 64 * 1024 }, () => Math.floor(random() * 256)))
  binary.write("t('Hidden in binary')", 100)
  const huge = ["import { t } from 'unplugin-tms/runtime'"]
  for (let i = 0; i < HUGE_CALLS; i++) huge.push(`export const v${i} = t('Huge ${i % 100}')`)
  writeFiles(root, {
    'src/good.js': "import { t } from 'unplugin-tms/runtime'\nexport const ok = () => t('Still extracted')\n",
    'src/broken.js':
      "import { t } from 'unplugin-tms/runtime'\nexport const a = t('Before the error')\nexport const b = t('oops' +\n",
    'src/deep.js': `import { t } from 'unplugin-tms/runtime'\nexport const x = ${'['.repeat(20_000)}t('Deep')${']'.repeat(20_000)}\n`,
    'src/arrows.js': `import { t } from 'unplugin-tms/runtime'\nexport const y = ${'() => ('.repeat(5_000)}t('Arrows')${')'.repeat(5_000)}\n`,
    'src/binary.js': binary,
    'src/huge.js': `${huge.join('\n')}\n`,
    'src/main.js': "import { ok } from './good.js'\nexport const render = () => ok()\n",
  })
  return root
}

const EXPECTED_DIAGNOSTICS = [
  'warning parse-error: src/binary.js: does not parse (File appears to be binary.); its messages are not extracted',
  'warning parse-error: src/broken.js:4:1: does not parse (Unexpected token); its messages are not extracted',
  `warning too-deep: src/arrows.js:2:${18 + 7 * MAX_NESTING}: brackets nested more than ${MAX_NESTING} deep; the file is not parsed and its messages are not extracted`,
  `warning too-deep: src/deep.js:2:${18 + MAX_NESTING}: brackets nested more than ${MAX_NESTING} deep; the file is not parsed and its messages are not extracted`,
]

let root: string
beforeAll(() => {
  root = hostileTree()
})

describe('the extractor on hostile files', () => {
  it.each([
    ['on the calling thread', 1],
    ['in two worker threads', 2],
  ])('%s: warnings for the bad files, every message of the good ones', async (_name, workers) => {
    clearExtractionMemory()
    const result = await extractMessages({ cwd: root, workers })
    expect(result.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`).sort()).toEqual(
      [...EXPECTED_DIAGNOSTICS].sort(),
    )
    const texts = result.messages.map((m) => m.text).sort()
    expect(texts).toEqual([...Array.from({ length: 100 }, (_, i) => `Huge ${i}`), 'Still extracted'].sort())
    expect(result.messages.find((m) => m.text === 'Huge 7')!.locations).toHaveLength(HUGE_CALLS / 100)
  })

  it('a rollup build with those files under include: warnings through the bundler, the build succeeds', async () => {
    const warnings: string[] = []
    const bundle = await rollup({
      input: join(root, 'src/main.js'),
      plugins: [tmsRollup({ root, locales: ['fr-FR'], cache: 'offline', report: false })],
      // Rollup 4 names the module in the message, rollup 3 in `id` only.
      onwarn: (log) => {
        warnings.push(`${log.id ?? ''}: ${log.message}`)
      },
      ...quietRollupInfo,
    })
    const { output } = await bundle.generate({ format: 'es' })
    await bundle.close()
    // The good file's message ships, in the source locale's catalog (an asset once the plugin filled it).
    const catalog = output.find((file) => file.fileName.startsWith('tms-en-US'))
    expect(catalog && (catalog.type === 'asset' ? String(catalog.source) : catalog.code)).toContain(
      'Still extracted',
    )
    const about = (file: string) => warnings.filter((w) => w.includes(file))
    expect(about('src/deep.js')).toHaveLength(1)
    expect(about('src/deep.js')[0]).toContain(`brackets nested more than ${MAX_NESTING} deep`)
    expect(about('src/arrows.js')).toHaveLength(1)
    expect(about('src/binary.js')).toHaveLength(1)
    expect(about('src/broken.js')).toHaveLength(1)
    expect(about('src/huge.js')).toEqual([])
  })
})

describe('excessiveNesting', () => {
  it('finds the bracket that passes the limit', () => {
    expect(excessiveNesting(`x = ${'('.repeat(10)}1${')'.repeat(10)}`, 10)).toBe(-1)
    expect(excessiveNesting(`x = ${'('.repeat(11)}1${')'.repeat(11)}`, 10)).toBe(14)
    // Siblings do not add up: depth, not count.
    expect(excessiveNesting('f(a(b), c[d], {e: [f]});'.repeat(1000), 3)).toBe(-1)
    // Template substitutions nest like brackets (the offset is the sixth `$`), and their text is skipped.
    expect(excessiveNesting(`x = ${'`${'.repeat(6)}1${'}`'.repeat(6)}`, 5)).toBe(20)
    expect(excessiveNesting('x = `((((((${a}((((((`', 5)).toBe(-1)
  })

  it('does not count brackets in strings, comments or regular expressions', () => {
    const noise = [
      "const a = '(((((((((('",
      'const b = "[[[[[[[[[["',
      '// {{{{{{{{{{',
      '/* ((((((((((( */',
      'const r = /[(]{3}((((((/g',
      'const s = x.split(/\\(/)',
      "const jsx = <p>Don't (((((((((( stop</p>",
    ].join('\n')
    expect(excessiveNesting(`${noise}\n`.repeat(50), 5)).toBe(-1)
  })

  it('real code stays far below the limit: the TypeScript compiler (9 MB) and this project', () => {
    const tsc = readFileSync(
      fileURLToPath(new URL('../../node_modules/typescript/lib/typescript.js', import.meta.url)),
      'utf8',
    )
    expect(excessiveNesting(tsc, 100)).toBe(-1)
    const own = readFileSync(
      fileURLToPath(new URL('../../src/core/extract/scan.ts', import.meta.url)),
      'utf8',
    )
    expect(excessiveNesting(own, 30)).toBe(-1)
  })
})
