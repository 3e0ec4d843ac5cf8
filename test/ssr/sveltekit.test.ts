import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium } from '../plugin/bundlers'
import {
  childEnv,
  concurrentRequests,
  expectedHome,
  HOME,
  HOME_IDS as IDS,
  LOCALES,
  type Locale,
  loadAndHydrate,
  pullIntoCache,
  type RunningServer,
  runNode,
  served,
  startServer,
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
  const others = (locale: Locale): string[] =>
    LOCALES.filter((l) => l !== locale).flatMap((l) => Object.values(HOME[l]))
  const result = await concurrentRequests(server!.url, 500, LOCALES, (locale, status, html) => {
    const texts = served(html)
    const foreign = others(locale as Locale).filter((text) => html.includes(`>${text}<`))
    if (
      status === 200 &&
      foreign.length === 0 &&
      JSON.stringify(texts) === JSON.stringify(expectedHome(locale as Locale))
    )
      return undefined
    return `${status} ${JSON.stringify(texts)} foreign ${JSON.stringify(foreign)}`
  })
  expect(result).toEqual({ wrong: [], checked: 500 })
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
  const answers = []
  for (const [acceptLanguage, cookie] of cases) {
    const res = await fetch(`${server!.url}/`, {
      headers: { 'accept-language': acceptLanguage, cookie },
      redirect: 'manual',
    })
    answers.push([acceptLanguage, cookie, res.status, res.headers.get('location')])
  }
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
    const tokyo = await loadAndHydrate(browser!, `${server!.url}/fr-FR`, {
      context: { timezoneId: 'Asia/Tokyo' },
      ids: IDS,
    })
    try {
      // First visit: the server knows no zone of the user's and renders in UTC; the page keeps it.
      expect(tokyo).toMatchObject({
        lang: 'fr-FR',
        dir: 'ltr',
        changes: [],
        logged: [],
        texts: HOME['fr-FR'],
      })
      // Its bundle wrote the browser's zone to a cookie: the next page renders in Tokyo's, on both sides.
      const next = await loadAndHydrate(browser!, `${server!.url}/fr-FR`, {
        context: { timezoneId: 'Asia/Tokyo', storageState: await tokyo.page.context().storageState() },
        ids: IDS,
      })
      try {
        expect(next).toMatchObject({
          changes: [],
          logged: [],
          texts: { ...HOME['fr-FR'], ordered: 'Commandé le 2 mars 2026 à 07:30' },
        })
      } finally {
        await next.close()
      }
    } finally {
      await tokyo.close()
    }
  }, 120_000)

  test('a locale switch after hydration renders the new locale, sets lang and dir, and is remembered', async () => {
    const loaded = await loadAndHydrate(browser!, `${server!.url}/ja-JP`, { ids: IDS })
    const { page } = loaded
    try {
      expect(loaded).toMatchObject({ changes: [], logged: [], texts: HOME['ja-JP'] })
      await page.click('#locales a[hreflang="de-DE"]')
      await page.waitForURL(/\/de-DE$/)
      await page.waitForFunction(
        () => document.getElementById('welcome')?.textContent === 'Willkommen im Demo-Shop',
      )
      const after = await page.evaluate(
        (ids) => ({
          lang: document.documentElement.lang,
          dir: document.documentElement.dir,
          texts: Object.fromEntries(ids.map((id) => [id, document.getElementById(id)?.textContent])),
          cookie: document.cookie.includes('lang=de-DE'),
        }),
        IDS,
      )
      expect(after).toEqual({ lang: 'de-DE', dir: 'ltr', texts: HOME['de-DE'], cookie: true })
      await page.click('#locales a[hreflang="ar-XB"]')
      await page.waitForFunction(() => document.documentElement.dir === 'rtl')
      expect(loaded.logged).toEqual([])
    } finally {
      await loaded.close()
    }
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
