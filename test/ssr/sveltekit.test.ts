import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium } from '../plugin/bundlers'
import {
  childEnv,
  homePagesInTheirLocales,
  hydratesInTokyo,
  LOCALES,
  type Locale,
  pullIntoCache,
  type RunningServer,
  redirectsOfRoot,
  runNode,
  startServer,
  switchesLocale,
} from './framework'

/**
 * examples/sveltekit, built by SvelteKit (adapter-node) from the cache a `tms pull` left, its production
 * server run with TZ=UTC: 500 concurrent requests in 4 locales each wholly in its locale; the page
 * hydrates in Chromium with no change, in a browser in Tokyo too; a switch after hydration works; the
 * prerendered pages of every locale are whole.
 */

const ROOT = fileURLToPath(new URL('../../examples/sveltekit/', import.meta.url))

let server: RunningServer | undefined
let browser: Browser | undefined

beforeAll(async () => {
  rmSync(`${ROOT}build`, { recursive: true, force: true })
  rmSync(`${ROOT}.svelte-kit`, { recursive: true, force: true })
  // `npm install` of the example links unplugin-tms (`file:../..`); the repository has it at its root.
  mkdirSync(`${ROOT}node_modules`, { recursive: true })
  rmSync(`${ROOT}node_modules/unplugin-tms`, { force: true })
  symlinkSync('../../..', `${ROOT}node_modules/unplugin-tms`)
  await pullIntoCache(ROOT)
  await runNode(
    ROOT,
    [fileURLToPath(new URL('../../node_modules/vite/bin/vite.js', import.meta.url)), 'build'],
    childEnv({}),
  )
  server = await startServer(ROOT, ['build'], childEnv({ TZ: 'UTC', HOST: '127.0.0.1', PORT: '0' }))
  browser = await launchChromium()
}, 400_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

test('500 concurrent requests in 4 locales: every message of every page in its locale, lang and dir right', async () => {
  expect(await homePagesInTheirLocales(server!.url)).toEqual({ wrong: [], checked: 500 })
}, 120_000)

test('/ goes to the locale of the lang cookie, else of Accept-Language by q-value; a pseudo-locale only by name', async () => {
  const cases: [string, string][] = [
    ['fr;q=0.5, de;q=0.9', ''],
    ['ar', ''],
    ['ar-XB', ''],
    ['en;q=0, *', ''],
    ['fr', 'lang=ja-JP'],
    ['fr', 'lang=ar'],
  ]
  const answers = await redirectsOfRoot(server!.url, cases)
  expect(answers).toEqual([
    ['fr;q=0.5, de;q=0.9', '', 302, '/de-DE'],
    ['ar', '', 302, '/en-US'],
    ['ar-XB', '', 302, '/ar-XB'],
    ['en;q=0, *', '', 302, '/fr-FR'],
    ['fr', 'lang=ja-JP', 302, '/ja-JP'],
    ['fr', 'lang=ar', 302, '/fr-FR'],
  ])
})

describe('in Chromium', () => {
  test('hydrates with no warning and no change, in a browser in Tokyo too; the next page renders in its zone', async () => {
    await hydratesInTokyo(browser!, server!.url)
  }, 120_000)

  test('a locale switch after hydration renders the new locale, sets lang and dir, and is remembered', async () => {
    await switchesLocale(browser!, server!.url)
  }, 120_000)
})

test('the prerendered terms page of every locale, whole', () => {
  const TERMS: Record<Locale, [string, string, string, string]> = {
    'en-US': ['Language', 'Terms of sale', 'Delivery and returns', 'Free returns within 30 days'],
    'fr-FR': ['Langue', 'Conditions de vente', 'Livraison et retours', 'Retours gratuits sous 30 jours'],
    'de-DE': [
      'Sprache',
      'Verkaufsbedingungen',
      'Lieferung und Rückgabe',
      'Kostenlose Rückgabe innerhalb von 30 Tagen',
    ],
    'ja-JP': ['言語', '販売条件', '配送と返品', '30日以内の返品は無料'],
  }
  for (const locale of LOCALES) {
    const html = readFileSync(`${ROOT}build/prerendered/${locale}/terms.html`, 'utf8')
    const [language, title, delivery, returns] = TERMS[locale]
    const links = [...LOCALES, 'ar-XB']
      .map(
        (l) => `<a href="/${l}/terms" hreflang="${l}"${l === locale ? ' aria-current="page"' : ''}>${l}</a>`,
      )
      .join('')
    // The page's body as SvelteKit writes it, its hydration markers included: all of it, no text left out.
    const body = /<div id="app" style="display: contents">([\s\S]*?)\s*<script>/.exec(html)?.[1]
    expect(body, locale).toBe(
      `<!--[--><!--[0--><!--[--><!--[0--><!--[--><nav id="locales"><span id="language">${language}</span> <!--[-->${links}<!--]--></nav> <!--[--><h1 id="terms">${title}</h1> <h2>${delivery}</h2> <p id="returns">${returns}</p><!--]--><!----><!--]--><!--]--><!----><!--]--><!--]--> <!--[-1--><!--]--><!--]-->`,
    )
    expect(/<html[^>]*>/.exec(html)?.[0]).toBe(`<html lang="${locale}" dir="ltr" data-time-zone="UTC">`)
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe(title)
  }
  expect(readFileSync(`${ROOT}build/prerendered/ar-XB/terms.html`, 'utf8')).toContain(
    '<html lang="ar-XB" dir="rtl"',
  )
})
