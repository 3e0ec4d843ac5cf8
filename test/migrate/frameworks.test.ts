import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { sourceTextsOf } from '../../src/core/migrate/catalog'
import { migrateSource } from '../../src/core/migrate/index'

/**
 * A .vue and a .svelte file migrated: their scripts and the expressions of their markup, read with
 * Vue's and Svelte's own parsers (from this repo's node_modules, as from an app's), edited in place.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const texts = sourceTextsOf(
  [
    {
      file: 'locales/en.json',
      namespace: 'translation',
      text: JSON.stringify({
        title: 'Shop',
        greeting: 'Hello {{name}}!',
        items_one: 'One item',
        items_other: '{{count}} items',
      }),
    },
  ],
  'en',
)

function migrate(file: string, code: string): { code: string; left: string[] } {
  const once = migrateSource(file, code, { from: 'i18next', sourceTexts: texts }, REPO)
  expect(migrateSource(file, once.code, { from: 'i18next', sourceTexts: texts }, REPO).code).toBe(once.code)
  return { code: once.code, left: once.left.map((l) => `${l.line}:${l.column} ${l.reason}`) }
}

test('.vue: i18next-vue $t in the template and useTranslation in <script setup> become t from unplugin-tms/vue', () => {
  const result = migrate(
    'src/App.vue',
    `<template>
  <h1 :title="$t('title')">{{ $t('greeting', { name }) }}</h1>
  <p>{{ t('items', { count }) }}</p>
  <p>{{ $t('gone') }}</p>
</template>

<script setup lang="ts">
import { useTranslation } from 'i18next-vue'
const { t } = useTranslation()
const name = 'Ada'
const count = 2
const title = t('title')
</script>
`,
  )
  expect(result.code).toBe(`<template>
  <h1 :title="t('Shop')">{{ t('Hello {name}!', { name }) }}</h1>
  <p>{{ t('{count, plural, one {One item} other {{count} items}}', { count }) }}</p>
  <!-- TODO(tms): the key gone has no text in the source locale's catalog -->
  <p>{{ $t('gone') }}</p>
</template>

<script setup lang="ts">
import { t, useLocale } from 'unplugin-tms/vue'
useLocale()
const name = 'Ada'
const count = 2
const title = t('Shop')
</script>
`)
  expect(result.left).toEqual(["4:9 the key gone has no text in the source locale's catalog"])
})

test('.svelte: the i18next instance in the markup and the script becomes t from unplugin-tms/svelte', () => {
  const result = migrate(
    'src/Cart.svelte',
    `<script>
  import i18next from 'i18next'
  let { count } = $props()
  const heading = i18next.t('title')
</script>

<h1 title={heading}>{i18next.t('title')}</h1>
{#if count > 0}
  <p>{i18next.t('items', { count })}</p>
{/if}
`,
  )
  expect(result.code).toBe(`<script>
  import { t } from 'unplugin-tms/svelte'
  let { count } = $props()
  const heading = t('Shop')
</script>

<h1 title={heading}>{t('Shop')}</h1>
{#if count > 0}
  <p>{t('{count, plural, one {One item} other {{count} items}}', { count })}</p>
{/if}
`)
  expect(result.left).toEqual([])
})
