import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const fixtures = 'test/fixtures/types-vue'

/**
 * vue-tsc over test/fixtures/types-vue, whose components import `unplugin-tms/vue` as an app does (the
 * built typings in dist/): Valid.vue must compile, each wrong call of Invalid.vue, in its template and
 * in its `<script setup lang="ts">`, must give exactly its error at its place in the .vue file.
 */
test('t in Vue templates and <script setup lang="ts"> reads its values from the literal text', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/vue-tsc/bin/vue-tsc.js', '-p', fixtures, '--pretty', 'false'],
    { cwd: repo, encoding: 'utf8' },
  )
  expect(run.stdout.trimEnd().split('\n')).toEqual([
    "test/fixtures/types-vue/Invalid.vue(2,29): error TS2345: Argument of type '{}' is not assignable to parameter of type '{ name: Printable; }'.",
    "  Property 'name' is missing in type '{}' but required in type '{ name: Printable; }'.",
    "test/fixtures/types-vue/Invalid.vue(3,67): error TS2322: Type 'string' is not assignable to type 'number'.",
    "test/fixtures/types-vue/Invalid.vue(4,43): error TS2322: Type 'string' is not assignable to type 'DateValue'.",
    "test/fixtures/types-vue/Invalid.vue(5,26): error TS2322: Type 'string' is not assignable to type 'Record<string, unknown>'.",
    'test/fixtures/types-vue/Invalid.vue(11,18): error TS2554: Expected 2-3 arguments, but got 1.',
    "test/fixtures/types-vue/Invalid.vue(12,43): error TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type '{ name: Printable; }'.",
  ])
  expect(run.status).toBe(2)
}, 180_000)
