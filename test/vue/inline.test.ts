import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import vue from '@vitejs/plugin-vue'
import type { Browser } from 'playwright-core'
import tmsVite from 'unplugin-tms/vite'
import tmsWebpack from 'unplugin-tms/webpack'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { VueLoaderPlugin } from 'vue-loader'
import webpack from 'webpack'
import type { RunningEmulator } from '../../src/emulator/index'
import { startDemoEmulator } from '../helpers/example'
import { launchChromium, serveStatic } from '../plugin/bundlers'

/**
 * Vue templates in inline mode: one component (messages in an attribute, in interpolations with plain
 * and ICU values, a `<T msg>` whose tag is a slot, and one from the script) built by vite with
 * @vitejs/plugin-vue and by webpack with vue-loader, against the emulator (the demo memory translates
 * these texts). Each locale's copy, loaded in Chromium from its own directory, shows that locale's text
 * everywhere, the `<T>` sentence with its link as a real element; the build warns about nothing.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const LOCALES = ['fr-FR', 'de-DE']

const APP = `<template>
  <main>
    <h1 :title="t('Add an item')">{{ t('Welcome to the Vue store') }}</h1>
    <p id="count">{{ t('You have {count} items in your cart', { count }) }}</p>
    <p id="plural" v-text="t('{count, plural, one {# item in your cart} other {# items in your cart}}', { count })" />
    <T id="terms" tag="p" msg="Read the <link>terms of sale</link> before you buy.">
      <template #link="{ chunks }"><a id="terms-link" href="#terms">{{ chunks }}</a></template>
    </T>
    <p id="script">{{ checkout }}</p>
  </main>
</template>

<script setup>
import { T, t } from 'unplugin-tms/vue'

const count = 2
const checkout = t('Checkout')
</script>
`

/** What each copy shows: the demo memory's translations, the source text in the source locale's. */
const SHOWN: Record<string, Record<string, string>> = {
  'en-US': {
    h1: 'Welcome to the Vue store',
    title: 'Add an item',
    count: 'You have 2 items in your cart',
    plural: '2 items in your cart',
    terms: 'Read the <a id="terms-link" href="#terms">terms of sale</a> before you buy.',
    script: 'Checkout',
  },
  'fr-FR': {
    h1: 'Bienvenue dans la boutique Vue',
    title: 'Ajouter un article',
    count: 'Vous avez 2 articles dans votre panier',
    plural: '2 articles dans votre panier',
    terms: 'Lisez les <a id="terms-link" href="#terms">conditions de vente</a> avant d’acheter.',
    script: 'Payer',
  },
  'de-DE': {
    h1: 'Willkommen im Vue-Shop',
    title: 'Artikel hinzufügen',
    count: 'Sie haben 2 Artikel im Warenkorb',
    plural: '2 Artikel im Warenkorb',
    terms: 'Lesen Sie vor dem Kauf die <a id="terms-link" href="#terms">Verkaufsbedingungen</a>.',
    script: 'Zur Kasse',
  },
}

let emu: RunningEmulator
let root: string
let browser: Browser

beforeAll(async () => {
  emu = await startDemoEmulator()
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  root = mkdtempSync(join(REPO, '.tmp', 'vue-inline-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src/App.vue'), APP)
  writeFileSync(
    join(root, 'src/main.js'),
    "import { createApp } from 'vue'\nimport App from './App.vue'\n\ncreateApp(App).mount('#app')\n",
  )
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n',
  )
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

const options = (name: string) => ({
  root,
  locales: LOCALES,
  mode: 'inline' as const,
  job: { name: `vue inline ${name}`, authorize: true },
})

/** Each copy's page (`<locale>/index.html` under `dist`) as Chromium shows it. */
async function expectEachCopyTranslated(dist: string): Promise<void> {
  const server = await serveStatic(dist)
  try {
    for (const locale of ['en-US', ...LOCALES]) {
      const page = await browser.newPage()
      await page.goto(`${server.url}/${locale}/index.html`)
      await page.waitForSelector('#script', { timeout: 30_000 })
      const shown = await page.evaluate(() => ({
        h1: document.querySelector('h1')!.textContent,
        title: document.querySelector('h1')!.title,
        count: document.querySelector('#count')!.textContent,
        plural: document.querySelector('#plural')!.textContent,
        terms: document.querySelector('#terms')!.innerHTML,
        script: document.querySelector('#script')!.textContent,
      }))
      await page.close()
      expect({ locale, shown }).toEqual({ locale, shown: SHOWN[locale] })
    }
  } finally {
    await server.close()
  }
}

describe('Vue templates in inline mode: each copy in its own language, tags rendered', () => {
  test('vite and @vitejs/plugin-vue', async () => {
    const warnings: string[] = []
    const outDir = join(root, 'dist-vite')
    await viteBuild({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [vue(), tmsVite(options('vite'))],
      build: {
        outDir,
        emptyOutDir: true,
        rollupOptions: { onLog: (level, log) => void (level === 'warn' && warnings.push(log.message)) },
      },
    })
    expect(warnings).toEqual([])
    await expectEachCopyTranslated(outDir)
  }, 240_000)

  test('webpack and vue-loader', async () => {
    const outDir = join(root, 'dist-webpack')
    const compiler = webpack({
      mode: 'production',
      context: root,
      entry: './src/main.js',
      output: { path: outDir, publicPath: 'auto', clean: true },
      module: { rules: [{ test: /\.vue$/, loader: 'vue-loader' }] },
      plugins: [
        new VueLoaderPlugin(),
        new webpack.DefinePlugin({
          __VUE_OPTIONS_API__: 'true',
          __VUE_PROD_DEVTOOLS__: 'false',
          __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
        }),
        tmsWebpack(options('webpack')),
      ],
      performance: { hints: false },
      infrastructureLogging: { level: 'none' },
    })
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      compiler.run((error, result) => (error || !result ? reject(error) : resolve(result))),
    )
    await new Promise<void>((resolve) => compiler.close(() => resolve()))
    if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }))
    expect(stats.toJson({ all: false, warnings: true }).warnings).toEqual([])
    for (const locale of ['en-US', ...LOCALES]) {
      writeFileSync(
        join(outDir, locale, 'index.html'),
        '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="app"></div><script src="main.js"></script></body></html>\n',
      )
    }
    await expectEachCopyTranslated(outDir)
  }, 240_000)
})
