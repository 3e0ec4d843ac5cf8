import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { findSourceFiles, resolveExtractOptions, sourceFileTest } from '../../src/core/extract/index'

/** The test of one file says of every file what the glob of the whole tree says. */

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

const FILES = [
  'src/a.ts',
  'src/deep/b.tsx',
  'src/c.vue',
  'src/d.css',
  'src/e.test.ts',
  'src/__tests__/f.ts',
  'src/.hidden/g.ts',
  'src/node_modules/pkg/h.js',
  'lib/i.ts',
  'pages/j.jsx',
]

it.each([
  ['the default globs', {}],
  ['globs of its own', { include: ['src/**/*.ts', './pages/**'], exclude: ['src/deep/**'] }],
  ['a negated include', { include: ['src/**', 'lib/**', '!src/deep/**'] }],
])('agrees with the glob over a tree, with %s', async (_, globs) => {
  dir = mkdtempSync(join(tmpdir(), 'tms-source-test-'))
  for (const file of FILES) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), "t('x')\n")
  }
  const options = resolveExtractOptions({ cwd: dir, ...globs })
  const found = new Set(await findSourceFiles(options))
  const test = sourceFileTest(options)
  const said = FILES.map((f) => join(dir!, f)).filter((f) => test(f))
  expect(said).toEqual(FILES.map((f) => join(dir!, f)).filter((f) => found.has(f)))
  expect(said.length).toBeGreaterThan(0)
})
