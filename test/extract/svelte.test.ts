/**
 * Svelte markup is read with the project's own svelte/compiler, loaded lazily: in worker threads as on
 * the calling thread, and with a warning that says what to install when the project has no Svelte.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import {
  clearExtractionMemory,
  type ExtractResult,
  extractMessages,
  findSourceFiles,
  resolveExtractOptions,
} from '../../src/core/extract/index'
import { extractInThreads } from '../../src/core/extract/pool'

const repo = fileURLToPath(new URL('../../', import.meta.url))
// Inside the repository, so that svelte/compiler resolves from the project directory.
const inRepo = join(repo, '.tmp')
mkdirSync(inRepo, { recursive: true })
const dirs: string[] = []

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function component(i: number): string {
  return `<script>\n  import { t } from 'unplugin-tms/runtime'\n  const a = t('Script ${i % 4}')\n</script>\n\n<h1 title={t('Title ${i % 3}')}>{t('Heading')}</h1>\n{#if a}<p>{t('Line {i}', { i: ${i} })}</p>{/if}\n`
}

function project(parent: string, files: number): string {
  const dir = mkdtempSync(join(parent, '.tms-svelte-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'src'))
  for (let i = 0; i < files; i++) writeFileSync(join(dir, 'src', `C${i}.svelte`), component(i))
  return dir
}

function picture(r: ExtractResult): unknown {
  return [...r.files.values()].map((f) => [f.file, f.messages, f.calls, f.diagnostics])
}

it('reads markup the same way in worker threads as on the calling thread', async () => {
  const dir = project(inRepo, 60)
  clearExtractionMemory()
  const alone = await extractMessages({ cwd: dir, workers: 0 })
  // Every batch through a worker: the calling thread stays out.
  const options = resolveExtractOptions({ cwd: dir })
  const remote = await extractInThreads(await findSourceFiles(options), options, 2, false)
  expect(remote.workers).toBeGreaterThanOrEqual(1)
  expect(
    remote.results.map((r) => [r.result.file, r.result.messages, r.result.calls, r.result.diagnostics]),
  ).toEqual(picture(alone))
  expect(alone.diagnostics).toEqual([])
  expect(alone.messages.map((m) => m.text).sort()).toEqual([
    'Heading',
    'Line {i}',
    'Script 0',
    'Script 1',
    'Script 2',
    'Script 3',
    'Title 0',
    'Title 1',
    'Title 2',
  ])
  const first = alone.files.get(join(dir, 'src', 'C0.svelte'))!
  expect(first.calls.map((c) => `${c.line}:${c.column}`)).toEqual(['3:13', '6:12', '6:27', '7:12'])
})

it('warns naming the file and the package to install when svelte is missing, and still reads the scripts', async () => {
  const dir = project(tmpdir(), 1)
  clearExtractionMemory()
  const result = await extractMessages({ cwd: dir, workers: 0 })
  expect(result.messages.map((m) => m.text)).toEqual(['Script 0'])
  expect(result.diagnostics).toHaveLength(1)
  expect(result.diagnostics[0]).toMatchObject({ severity: 'warning', code: 'svelte-missing' })
  expect(result.diagnostics[0]!.message).toMatch(
    /^src\/C0\.svelte: the markup is not read because svelte\/compiler cannot be loaded from .*; install Svelte 5 in the project \(npm install -D svelte\); only the <script> blocks are extracted$/,
  )
})

it('does not cache a result made without svelte: installing it takes effect on the next run', async () => {
  const dir = project(tmpdir(), 2)
  const cacheDir = join(dir, '.tms-cache', 'extract')
  clearExtractionMemory()
  const first = await extractMessages({ cwd: dir, workers: 0, cacheDir })
  expect(first.stats).toMatchObject({ files: 2, parsed: 2, cached: 0 })
  clearExtractionMemory()
  const second = await extractMessages({ cwd: dir, workers: 0, cacheDir })
  expect(second.stats).toMatchObject({ files: 2, parsed: 2, cached: 0 })
  expect(second.diagnostics.map((d) => d.code)).toEqual(['svelte-missing', 'svelte-missing'])
})

it('warns at the position Svelte reports when the markup does not parse', async () => {
  const dir = project(inRepo, 0)
  writeFileSync(
    join(dir, 'src', 'Bad.svelte'),
    `<script>\n  const a = t('Kept')\n</script>\n<p>{t('Lost')}</div>\n`,
  )
  clearExtractionMemory()
  const result = await extractMessages({ cwd: dir, workers: 0 })
  expect(result.messages.map((m) => m.text)).toEqual(['Kept'])
  expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message.replace(/^.*?: /, '')])).toEqual([
    [
      'svelte-parse-error',
      4,
      15,
      'Svelte cannot parse this component (`</div>` attempted to close an element that was not open); only its <script> blocks are extracted',
    ],
  ])
})
