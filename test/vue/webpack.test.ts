import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import tms from 'unplugin-tms/webpack'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { VueLoaderPlugin } from 'vue-loader'
import webpack from 'webpack'
import type { RunningEmulator } from '../../src/emulator/index'
import { startDemoEmulator } from '../helpers/example'
import { launchChromium, serveStatic } from '../plugin/bundlers'

/**
 * The same Vue components built by webpack with vue-loader: the plugin's loader runs before
 * vue-loader on every request of a .vue file, so templates, `<T>` and scripts are rewritten as with
 * vite. Built against the emulator (the demo memory translates these texts), then switched in Chromium.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const TIMEOUT = { timeout: 30_000 }

const APP = `<template>
  <main>
    <select id="locale" v-model="locale">
      <option v-for="l in getLocales()" :key="l" :value="l">{{ l }}</option>
    </select>
    <h1 :title="t('Add an item')">{{ t('Welcome to the Vue store') }}</h1>
    <p id="cart-count">{{ cartLine }}</p>
    <T id="terms" tag="p" msg="Read the <link>terms of sale</link> before you buy.">
      <template #link="{ chunks }"><a id="terms-link" href="#terms">{{ chunks }}</a></template>
    </T>
  </main>
</template>

<script setup>
import { getLocales, T, t, useLocale } from 'unplugin-tms/vue'
import { computed } from 'vue'

const locale = useLocale()
const cartLine = computed(() =>
  t('{count, plural, one {# item in your cart} other {# items in your cart}}', { count: 2 }),
)
</script>
`

let emu: RunningEmulator
let root: string
let browser: Browser
let server: { url: string; close(): Promise<void> }

beforeAll(async () => {
  emu = await startDemoEmulator()
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  root = mkdtempSync(join(REPO, '.tmp', 'webpack-vue-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src/App.vue'), APP)
  writeFileSync(
    join(root, 'src/main.js'),
    "import { createApp } from 'vue'\nimport App from './App.vue'\n\ncreateApp(App).mount('#app')\n",
  )
  const compiler = webpack({
    mode: 'production',
    context: root,
    entry: './src/main.js',
    output: { path: join(root, 'dist'), publicPath: '/', clean: true },
    module: { rules: [{ test: /\.vue$/, loader: 'vue-loader' }] },
    plugins: [
      new VueLoaderPlugin(),
      new webpack.DefinePlugin({
        __VUE_OPTIONS_API__: 'true',
        __VUE_PROD_DEVTOOLS__: 'false',
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      }),
      tms({ locales: ['fr-FR', 'de-DE', 'ja-JP'], job: { name: 'webpack vue', authorize: true } }),
    ],
    performance: { hints: false },
    infrastructureLogging: { level: 'none' },
  })
  const stats = await new Promise<webpack.Stats>((resolve, reject) =>
    compiler.run((error, result) => (error || !result ? reject(error) : resolve(result))),
  )
  await new Promise<void>((resolve) => compiler.close(() => resolve()))
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }))
  writeFileSync(
    join(root, 'dist/index.html'),
    '<!doctype html><html><body><div id="app"></div><script src="/main.js"></script></body></html>',
  )
  server = await serveStatic(join(root, 'dist'))
  browser = await launchChromium()
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

test('webpack and vue-loader: the template, <T> and a computed switch to French in place', async () => {
  const page = await browser.newPage()
  await page.goto(server.url)
  await page.waitForSelector('h1', TIMEOUT)
  const shown = async () => [
    await page.textContent('h1'),
    await page.getAttribute('h1', 'title'),
    await page.textContent('#cart-count'),
    await page.textContent('#terms'),
  ]
  expect(await shown()).toEqual([
    'Welcome to the Vue store',
    'Add an item',
    '2 items in your cart',
    'Read the terms of sale before you buy.',
  ])
  await page.selectOption('#locale', 'fr-FR')
  await page.waitForFunction(
    () => document.querySelector('h1')?.textContent === 'Bienvenue dans la boutique Vue',
    undefined,
    TIMEOUT,
  )
  expect(await shown()).toEqual([
    'Bienvenue dans la boutique Vue',
    'Ajouter un article',
    '2 articles dans votre panier',
    'Lisez les conditions de vente avant d’acheter.',
  ])
  expect(await page.$eval('#terms-link', (a) => a.tagName)).toBe('A')
  await page.close()
})
