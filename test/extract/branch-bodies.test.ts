/**
 * Extraction reads an ICU message's placeholders from its structure under the app's spec: a one-word
 * branch body stays text in the parsed text, whichever reader found the message (a call in a script,
 * Vue's `<T msg>`, Svelte markup) and whether the calling thread or workers parsed the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  clearExtractionMemory,
  extractMessages,
  findSourceFiles,
  resolveExtractOptions,
} from '../../src/core/extract/index'
import { extractInThreads } from '../../src/core/extract/pool'

const PLURAL = '{count, plural, one {file} other {files}}'
const SELECT = '{gender, select, male {He} female {She} other {They}} should get reading!'
const NESTED = '{count, plural, one {{name} has a file} other {{name} has {count} files}}'

let dir: string

beforeAll(() => {
  // Inside the repository: Vue's and Svelte's compilers are found from the project's node_modules.
  dir = mkdtempSync(join(import.meta.dirname, '.tms-branch-bodies-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(
    join(dir, 'src/main.ts'),
    `import { t } from 'unplugin-tms/runtime'\nexport const a = (count: number) => t('${PLURAL}', { count })\nexport const b = (gender: string) => t('${SELECT}', { gender })\nexport const c = (count: number, name: string) => t('${NESTED}', { count, name })\nexport const d = (name: string) => t('Hello {name}!', { name })\n`,
  )
  writeFileSync(
    join(dir, 'src/Files.vue'),
    `<script setup>\nimport { T } from 'unplugin-tms/vue'\ndefineProps(['count'])\n</script>\n\n<template>\n  <T tag="p" msg="${PLURAL}" :values="{ count }" />\n</template>\n`,
  )
  writeFileSync(
    join(dir, 'src/Files.svelte'),
    `<script>\n  import { t } from 'unplugin-tms/runtime'\n  export let gender\n</script>\n\n<p>{t('${SELECT}', { gender })}</p>\n`,
  )
  // Enough files for three workers to take a batch each.
  for (let i = 0; i < 120; i++) {
    writeFileSync(
      join(dir, `src/part${i}.ts`),
      `import { t } from 'unplugin-tms/runtime'\nexport const v = (count: number) => t('${i % 2 ? PLURAL : SELECT}', { count })\n`,
    )
  }
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function picture(messages: { text: string; parsed: string; placeholders: string[] }[]): unknown {
  return messages.map((m) => ({ text: m.text, parsed: m.parsed, placeholders: m.placeholders }))
}

const EXPECTED = [
  { text: 'Hello {name}!', parsed: 'Hello {0}!', placeholders: ['{name}'] },
  { text: PLURAL, parsed: PLURAL, placeholders: [] },
  {
    text: NESTED,
    parsed: '{count, plural, one {{0} has a file} other {{1} has {2} files}}',
    placeholders: ['{name}', '{name}', '{count}'],
  },
  { text: SELECT, parsed: SELECT, placeholders: [] },
]

it('keeps one-word branch bodies in the parsed text, in scripts, Vue <T msg> and Svelte markup', async () => {
  clearExtractionMemory()
  const alone = await extractMessages({ cwd: dir, workers: 0 })
  expect(alone.diagnostics).toEqual([])
  expect(picture(alone.messages)).toEqual(EXPECTED)
  const files = (text: string) =>
    alone.messages
      .find((m) => m.text === text)!
      .locations.map((l) => l.file.slice(dir.length + 1))
      .filter((f) => !f.startsWith('src/part'))
  expect(files(PLURAL)).toEqual(['src/Files.vue', 'src/main.ts'])
  expect(files(SELECT)).toEqual(['src/Files.svelte', 'src/main.ts'])
})

it('gives the same messages in a worker thread as in the calling thread', async () => {
  clearExtractionMemory()
  const options = resolveExtractOptions({ cwd: dir })
  const files = await findSourceFiles(options)
  const local = await extractInThreads(files, options, 1)
  // The calling thread stays out: the workers parse every file.
  const remote = await extractInThreads(files, options, 3, false)
  expect(local.workers).toBe(0)
  expect(remote.workers).toBeGreaterThanOrEqual(1)
  const messages = (run: typeof local) =>
    run.results.map((r) => [r.result.file, r.result.messages, r.result.calls.map((c) => c.placeholders)])
  expect(messages(remote)).toEqual(messages(local))
  const plural = remote.results.find((r) => r.result.file.endsWith('part1.ts'))!.result.messages
  expect(picture(plural)).toEqual([{ text: PLURAL, parsed: PLURAL, placeholders: [] }])
})
