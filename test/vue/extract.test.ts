/**
 * Vue templates beyond the fixtures: read in worker threads (Vue's compiler loaded there, results
 * through the cache encoding, attribute sites and markup kept), and a project without Vue's compiler.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { clearExtractionMemory, extractMessages, resolveExtractOptions } from '../../src/core/extract/index'
import { extractInThreads } from '../../src/core/extract/pool'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

const COMPONENT = (i: number) => `<template>
  <p :title="t('Title {n}', { n: ${i} })">{{ t('Shared') }}</p>
  <T msg="Read the <link>terms ${i % 3}</link>" />
</template>

<script setup lang="ts">
import { T, t } from 'unplugin-tms/vue'
const label = t('Script ${i % 4}')
</script>
`

it('reads templates in worker threads: the same sites, attribute sites and markup as on one thread', async () => {
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  // Under the repo, where vue resolves as in an app.
  const dir = mkdtempSync(join(REPO, '.tmp', 'vue-workers-'))
  made.push(dir)
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'package.json'), '{"name":"vue-workers"}')
  const files = Array.from({ length: 120 }, (_, i) => join(dir, 'src', `C${i}.vue`))
  for (const [i, file] of files.entries()) writeFileSync(file, COMPONENT(i))
  const options = resolveExtractOptions({ cwd: dir })
  const local = await extractInThreads(files, options, 1)
  const remote = await extractInThreads(files, options, 3, false)
  expect(remote.workers).toBeGreaterThanOrEqual(1)
  const plain = (r: (typeof local.results)[number]) => [
    r.result.messages,
    r.result.calls,
    r.result.diagnostics,
  ]
  expect(remote.results.map(plain)).toEqual(local.results.map(plain))
  const first = remote.results[0]!.result
  expect(first.diagnostics).toEqual([])
  expect(first.calls.map((c) => [c.kind, c.markup, c.line, c.column])).toEqual([
    ['call', 'double', 2, 14],
    ['call', 'text', 2, 43],
    ['attribute', undefined, 3, 6],
    ['call', undefined, 8, 15],
  ])
})

it('a project without Vue: a warning naming the file and the package to install; its scripts still read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tms-no-vue-'))
  made.push(dir)
  writeFileSync(join(dir, 'package.json'), '{"name":"no-vue"}')
  writeFileSync(join(dir, 'App.vue'), COMPONENT(1))
  clearExtractionMemory()
  const result = await extractMessages({ cwd: dir, include: ['*.vue'], workers: 0 })
  expect(result.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)).toEqual([
    `warning vue-compiler-missing: App.vue: its <template> is not read: Vue's compiler is not installed in ${dir} (install vue, which ships vue/compiler-sfc); only its <script> blocks are extracted`,
  ])
  expect(result.messages.map((m) => m.text)).toEqual(['Script 1'])
})
