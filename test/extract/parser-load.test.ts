/**
 * oxc-parser is loaded when a program is first parsed (src/core/extract/oxc.ts): a warm run, whose
 * every file the extraction cache answers, never loads the parser's native binding. Each run is a
 * fresh Node (the TypeScript sources through tsx's loader), which records every native addon it opens.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'

const repo = join(import.meta.dirname, '../..')

let app: string | undefined
afterEach(() => {
  if (app) rmSync(app, { recursive: true, force: true })
  app = undefined
})

/** One extraction of `dir` (cache in `dir/.cache`) in a fresh Node: its texts, parsed count and the addons it opened. */
function extractInFreshNode(dir: string): { texts: string[]; parsed: number; addons: string[] } {
  const script = `
    const addons = []
    const dlopen = process.dlopen
    process.dlopen = (module, file, ...rest) => { addons.push(file); return dlopen(module, file, ...rest) }
    const { extractMessages, resolveExtractOptions } = await import(${JSON.stringify(join(repo, 'src/core/extract/index.ts'))})
    const result = await extractMessages(resolveExtractOptions({ cwd: process.cwd(), include: ['src/**/*.tsx'], cacheDir: '.cache' }))
    const texts = result.messages.map((m) => m.text).sort()
    process.stdout.write(JSON.stringify({ texts, parsed: result.stats.parsed, addons }))
  `
  const run = spawnSync(
    process.execPath,
    ['--import', join(repo, 'node_modules/tsx/dist/esm/index.mjs'), '--input-type=module', '-e', script],
    { cwd: dir, encoding: 'utf8', timeout: 60_000 },
  )
  if (run.status !== 0) throw new Error(`the child failed (${run.status}):\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

const parserAddons = (addons: string[]): string[] => addons.filter((file) => /oxc-parser/.test(file))

test('a run that parses loads the parser; a warm run, every file from the cache, does not', () => {
  app = mkdtempSync(join(tmpdir(), 'tms-parser-load-'))
  mkdirSync(join(app, 'src'))
  for (const i of [0, 1]) {
    writeFileSync(
      join(app, 'src', `C${i}.tsx`),
      `import { t } from 'unplugin-tms/runtime'\nexport const C${i} = () => <h2>{t('Heading ${i}')}</h2>\n`,
    )
  }
  const cold = extractInFreshNode(app)
  expect(cold.texts).toEqual(['Heading 0', 'Heading 1'])
  expect(cold.parsed).toBe(2)
  expect(parserAddons(cold.addons)).toHaveLength(1)

  const warm = extractInFreshNode(app)
  expect(warm.texts).toEqual(['Heading 0', 'Heading 1'])
  expect(warm.parsed).toBe(0)
  expect(parserAddons(warm.addons)).toEqual([])
})
