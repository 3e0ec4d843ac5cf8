import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RunningEmulator } from '../../src/emulator/index'
import { concurrentRequests, cycle, getOnce } from '../helpers/concurrent'
import { startDemoEmulator } from '../helpers/example'
import { launchChromium } from '../plugin/bundlers'
import {
  type Bundler,
  copyApp,
  expectedTexts,
  expectedVisibleText,
  foreignTexts,
  installNext,
  type NextServer,
  nextBuild,
  nextStart,
  pageTexts,
  TESTED,
  type TestedLocale,
  visibleText,
} from './app'

/**
 * examples/nextjs (App Router) built by the real `next` of the current major and the previous one
 * (TMS_NEXT_MAJORS, default "16 15"), with Turbopack against the emulator and then with webpack from
 * the cache the first build left (no service, no credentials), and served by `next start`:
 * concurrent requests in 4 locales each come back wholly in their locale, the pages hydrate in
 * Chromium in Tokyo (the server in UTC) with no warning and no change, a locale switch after hydration
 * works, and the static page of each locale holds exactly its texts.
 */

const MAJORS = (process.env.TMS_NEXT_MAJORS ?? '16 15').split(/\s+/).filter(Boolean).map(Number)
// Limits for a hang, not speed: on a loaded 2-core machine one build took from 2 to 13 minutes.
const BUILD_TIMEOUT = 1_800_000

let emu: RunningEmulator
let browser: Browser
beforeAll(async () => {
  emu = await startDemoEmulator()
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await emu?.close()
})

/** 500 requests at once, cycling through the 4 locales, half to the static page, half to the per-request one. */
const pagesInTheirLocales = (server: NextServer): Promise<{ wrong: string[]; checked: number }> =>
  concurrentRequests(server.url, cycle(500, TESTED, ['', '/account']), (request, status, html) => {
    const locale = request.locale as TestedLocale
    const texts = pageTexts(html)
    const foreign = foreignTexts(locale, html)
    if (
      status === 200 &&
      foreign.length === 0 &&
      JSON.stringify(texts) === JSON.stringify(expectedTexts(locale))
    )
      return undefined
    return `${status} ${JSON.stringify(texts)} foreign ${JSON.stringify(foreign)}`
  })

/** Loads a locale's page in Chromium and reports what changed in the DOM until it hydrated, and what was logged. */
async function hydrate(server: NextServer, locale: string) {
  // The server renders in UTC (nextStart); a browser in Tokyo, where 22:30 UTC is already the next day,
  // hydrates the client's date with no change only if the runtime formats it in the example's zone.
  const page = await browser.newPage({ timezoneId: 'Asia/Tokyo' })
  const logged: string[] = []
  page.on('console', (m) => {
    if (m.type() !== 'debug' && m.type() !== 'info' && m.type() !== 'log')
      logged.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`))
  // Installed before any script of the page runs: every change to the server's markup of <html> (its
  // attributes) and of <body> (the app), once the parser is done and before the bundle hydrates.
  await page.addInitScript(() => {
    const changes: string[] = []
    ;(window as unknown as { changes: string[] }).changes = changes
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const node = r.target as Element
        // React 19 takes the server's <title> as its hoistable title and sets its text again, the
        // same text (React's setTextContent on an element it adopts, not hydration): no change.
        if (
          r.type === 'characterData' &&
          node.parentNode?.nodeName === 'TITLE' &&
          r.oldValue === node.textContent
        )
          continue
        // Next's scripts and route announcer come and go outside the app's markup.
        const added = [...Array.from(r.addedNodes), ...Array.from(r.removedNodes)]
        if (
          r.type === 'childList' &&
          added.every((n) => n.nodeName === 'NEXT-ROUTE-ANNOUNCER' || n.nodeName === 'SCRIPT')
        )
          continue
        changes.push(
          `${r.type} of ${node.nodeName}${r.attributeName ? `[${r.attributeName}]` : ''}: ${node.textContent?.slice(0, 80)}`,
        )
      }
    })
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return
      observer.observe(document.documentElement, {
        characterDataOldValue: true,
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      })
    })
  })
  await page.goto(`${server.url}/${locale}`)
  // Hydrated: React has attached its fiber to the app's last interactive element.
  await page.waitForFunction(() => {
    const button = document.querySelector('#add')
    return button !== null && Object.keys(button).some((k) => k.startsWith('__reactFiber'))
  })
  const state = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    changes: (window as unknown as { changes: string[] }).changes.splice(0),
  }))
  return { page, logged, state }
}

describe.each(MAJORS)('Next %i', (major) => {
  let install: string
  beforeAll(async () => {
    install = await installNext(major)
  }, BUILD_TIMEOUT)

  const apps: Partial<Record<Bundler, string>> = {}
  afterAll(() => {
    for (const app of Object.values(apps)) rmSync(app, { recursive: true, force: true })
  })

  describe.each(['turbopack', 'webpack'] as const)('%s', (bundler) => {
    let server: NextServer
    let app: string
    beforeAll(async () => {
      app = copyApp(install, major, bundler)
      apps[bundler] = app
      // The first build talks to the emulator; the second builds from the cache it left, offline.
      let env: Record<string, string | undefined> = {}
      if (bundler === 'webpack' && apps.turbopack) {
        const { cpSync } = await import('node:fs')
        cpSync(join(apps.turbopack, '.tms-cache'), join(app, '.tms-cache'), { recursive: true })
        env = { TMS_OFFLINE: '1', TMS_BASE_URL: '', TMS_USER_IDENTIFIER: '', TMS_USER_SECRET: '' }
      }
      const built = await nextBuild(app, major, bundler, env)
      console.log(
        `next ${major} build (${bundler}${env.TMS_OFFLINE ? ', offline' : ', emulator'}): ${built.ms} ms`,
      )
      server = await nextStart(app)
    }, BUILD_TIMEOUT)
    afterAll(async () => {
      await server?.close()
    })

    test('500 concurrent requests in 4 locales: every message of every page in its locale, lang and dir right', async () => {
      // A first request per locale and page, then all at once.
      const result = await pagesInTheirLocales(server)
      expect(result).toEqual({ wrong: [], checked: 500 })
    }, 300_000)

    test("the proxy sends a path without a locale to the request's: the lang cookie, else Accept-Language by q-value", async () => {
      const requests: [string, string, string | undefined][] = [
        ['/', 'ar', undefined],
        ['/', 'ar-XB', undefined],
        ['/', 'fr;q=0.5, de;q=0.9', undefined],
        ['/', 'fr-CA, en;q=0.5', undefined],
        ['/', 'en;q=0, *', undefined],
        ['/', 'de;q=0, ja;q=0.2', undefined],
        ['/', 'fr', 'lang=ja-JP'],
        ['/', 'fr', 'theme=dark; lang=ar'],
        ['/', '', undefined],
        ['/account', 'de-AT, en;q=0.8', undefined],
      ]
      const answers = []
      for (const [path, acceptLanguage, cookie] of requests) {
        const headers: Record<string, string> = { 'accept-language': acceptLanguage }
        if (cookie) headers.cookie = cookie
        const res = await getOnce(`${server.url}${path}`, headers)
        const location = res.location
        answers.push([
          path,
          acceptLanguage,
          cookie ?? '',
          res.status,
          location && new URL(location, server.url).pathname,
        ])
      }
      expect(answers).toEqual([
        ['/', 'ar', '', 307, '/en-US'],
        ['/', 'ar-XB', '', 307, '/ar-XB'],
        ['/', 'fr;q=0.5, de;q=0.9', '', 307, '/de-DE'],
        ['/', 'fr-CA, en;q=0.5', '', 307, '/fr-FR'],
        ['/', 'en;q=0, *', '', 307, '/fr-FR'],
        ['/', 'de;q=0, ja;q=0.2', '', 307, '/ja-JP'],
        ['/', 'fr', 'lang=ja-JP', 307, '/ja-JP'],
        ['/', 'fr', 'theme=dark; lang=ar', 307, '/fr-FR'],
        ['/', '', '', 307, '/en-US'],
        ['/account', 'de-AT, en;q=0.8', '', 307, '/de-DE/account'],
      ])
    })

    test('the static page of each locale, whole: exactly its texts, in order', () => {
      for (const locale of ['en-US', ...TESTED] as const) {
        const html = readFileSync(join(app, '.next/server/app', `${locale}.html`), 'utf8')
        expect([locale, pageTexts(html).lang, pageTexts(html).dir, visibleText(html)]).toEqual([
          locale,
          locale,
          locale === 'ar-XB' ? 'rtl' : 'ltr',
          expectedVisibleText(locale),
        ])
      }
    })

    test('in Chromium in Tokyo: each locale hydrates with no warning and no DOM change; a switch after hydration works', async () => {
      for (const locale of TESTED) {
        const { page, logged, state } = await hydrate(server, locale)
        try {
          expect({ locale, ...state, logged }).toEqual({
            locale,
            lang: locale,
            dir: locale === 'ar-XB' ? 'rtl' : 'ltr',
            changes: [],
            logged: [],
          })
          if (locale !== 'fr-FR') continue
          await page.click('#add')
          await page.waitForFunction(() => document.querySelector('#items')?.textContent?.includes('4'))
          await page.selectOption('#locale', 'de-DE')
          await page.waitForFunction(
            () =>
              location.pathname === '/de-DE' &&
              document.querySelector('#welcome')?.textContent === 'Willkommen im Next.js-Shop' &&
              // The new route's metadata comes after its markup.
              document.title === 'Willkommen im Next.js-Shop',
          )
          const switched = await page.evaluate(
            () =>
              `<html lang="${document.documentElement.lang}" dir="${document.documentElement.dir}"><title>${document.title}</title>${document.body.innerHTML}`,
          )
          // The locale is the root layout's segment: the new route mounts a new tree (the count starts again).
          expect(pageTexts(switched)).toEqual(expectedTexts('de-DE'))
          expect(logged).toEqual([])
        } finally {
          await page.close()
        }
      }
    }, 180_000)
  })
})
