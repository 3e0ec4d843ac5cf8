import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RunningEmulator } from '../../src/emulator/index'
import { concurrentRequests, cycle } from '../helpers/concurrent'
import { launchChromium } from '../plugin/bundlers'
import {
  buildExample,
  EXAMPLE,
  type ExampleServer,
  expectedTexts,
  pageTexts,
  prerenderExample,
  startExampleEmulator,
  startExampleServer,
  TESTED_LOCALES,
  type TestedLocale,
  textsOf,
} from './example'

/**
 * examples/vite-ssr-react, served by its own Node server (vite in middleware mode, then the built
 * bundles): many requests in different locales rendered at once each come back wholly in their own
 * locale; the page hydrates in Chromium in the locale it was rendered in, with no change of text; the
 * browser bundle holds nothing of the server runtime; static generation writes every page in every locale.
 */

let emu: RunningEmulator

beforeAll(async () => {
  emu = await startExampleEmulator()
  await buildExample()
}, 180_000)

afterAll(async () => {
  await emu?.close()
})

const PAGES = ['', 'cart'] as const

/** 200 requests at once, cycling through the 4 locales and both pages. */
const pagesInTheirLocales = (server: ExampleServer): Promise<{ wrong: string[]; checked: number }> =>
  concurrentRequests(
    server.url,
    cycle(
      200,
      TESTED_LOCALES,
      PAGES.map((page) => `/${page}`),
    ),
    (request, status, html) => {
      const locale = request.locale as TestedLocale
      const page = request.path.split('/')[2] as (typeof PAGES)[number]
      const others = TESTED_LOCALES.filter((l) => l !== locale).flatMap((l: TestedLocale) => [...textsOf(l)])
      const foreign = others.filter((text) => html.includes(text))
      const texts = pageTexts(html)
      if (
        status === 200 &&
        foreign.length === 0 &&
        JSON.stringify(texts) === JSON.stringify(expectedTexts(locale, page))
      )
        return undefined
      return `${status} ${JSON.stringify(texts)} foreign ${JSON.stringify(foreign)}`
    },
  )

describe.each([
  ['dev (vite middleware, ssrLoadModule)', false],
  ['production (built server bundle)', true],
])('%s', (_name, production) => {
  test('200 concurrent requests in 4 locales: every page wholly in its own locale', async () => {
    const server = await startExampleServer(production)
    try {
      // A first request of each locale loads its catalog; then all at once.
      const result = await pagesInTheirLocales(server)
      expect(result).toEqual({ wrong: [], checked: 200 })
    } finally {
      await server.close()
    }
  }, 120_000)

  test('/ redirects to the locale the request asks for: the lang cookie, else Accept-Language by q-value', async () => {
    const server = await startExampleServer(production)
    try {
      const requests: [string, string | undefined][] = [
        ['ar', undefined],
        ['ar-XB', undefined],
        ['fr;q=0.5, de;q=0.9', undefined],
        ['fr-CA, en;q=0.5', undefined],
        ['en;q=0, *', undefined],
        ['de;q=0, ja;q=0.2', undefined],
        ['es, ar;q=0.9', undefined],
        ['fr', 'lang=ja-JP'],
        ['fr', 'lang=ar'],
        ['fr', 'theme=dark; lang=ar-XB'],
        ['q=0.5;;,', 'lang=%E0'],
        ['', undefined],
      ]
      const answers = []
      for (const [acceptLanguage, cookie] of requests) {
        const headers: Record<string, string> = { 'accept-language': acceptLanguage }
        if (cookie) headers.cookie = cookie
        const res = await fetch(`${server.url}/`, { headers, redirect: 'manual' })
        await res.arrayBuffer()
        answers.push([acceptLanguage, cookie ?? '', res.status, res.headers.get('location')])
      }
      expect(answers).toEqual([
        ['ar', '', 302, '/en-US/'],
        ['ar-XB', '', 302, '/ar-XB/'],
        ['fr;q=0.5, de;q=0.9', '', 302, '/de-DE/'],
        ['fr-CA, en;q=0.5', '', 302, '/fr-FR/'],
        ['en;q=0, *', '', 302, '/fr-FR/'],
        ['de;q=0, ja;q=0.2', '', 302, '/ja-JP/'],
        ['es, ar;q=0.9', '', 302, '/en-US/'],
        ['fr', 'lang=ja-JP', 302, '/ja-JP/'],
        ['fr', 'lang=ar', 302, '/fr-FR/'],
        ['fr', 'theme=dark; lang=ar-XB', 302, '/ar-XB/'],
        ['q=0.5;;,', 'lang=%E0', 302, '/en-US/'],
        ['', '', 302, '/en-US/'],
      ])
      // Followed, the redirect gives the page in that locale.
      const page = await fetch(`${server.url}/`, { headers: { 'accept-language': 'de-AT, en;q=0.8' } })
      expect([page.url, page.status, page.headers.get('content-language')]).toEqual([
        `${server.url}/de-DE/`,
        200,
        'de-DE',
      ])
      expect(pageTexts(await page.text())).toEqual(expectedTexts('de-DE', ''))
    } finally {
      await server.close()
    }
  }, 120_000)

  test("a path with a malformed % escape is the client's mistake: 400, not a server error", async () => {
    const server = await startExampleServer(production)
    try {
      const answers = []
      for (const path of ['/%', '/fr-FR/%E0%A4%A', '/%zz/cart', '/assets/%']) {
        const res = await fetch(`${server.url}${path}`)
        answers.push([path, res.status, await res.text()])
      }
      const bad = 'bad request: malformed % escape in the path'
      expect(answers).toEqual([
        ['/%', 400, bad],
        ['/fr-FR/%E0%A4%A', 400, bad],
        ['/%zz/cart', 400, bad],
        ['/assets/%', 400, bad],
      ])
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('the browser', () => {
  let browser: Browser
  let server: ExampleServer
  beforeAll(async () => {
    browser = await launchChromium()
    server = await startExampleServer(true)
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  test('the page hydrates in its locale with no warning and no change of text; switching works after', async () => {
    const served = await (await fetch(`${server.url}/fr-FR/cart`)).text()
    const page = await browser.newPage()
    const logged: string[] = []
    page.on('console', (m) => {
      if (m.type() !== 'debug' && m.type() !== 'info') logged.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`))
    // Every change made to the server's markup once the parser is done (readyState 'interactive'),
    // which is before the first module script runs.
    await page.addInitScript(() => {
      const changes: string[] = []
      ;(window as unknown as { changes: string[] }).changes = changes
      const observer = new MutationObserver((records) => {
        for (const r of records) {
          if (!document.getElementById('root')?.contains(r.target)) continue
          changes.push(`${r.type} of ${r.target.nodeName}: ${r.target.textContent}`)
        }
      })
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return
        observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
      })
    })
    try {
      await page.goto(`${server.url}/fr-FR/cart`)
      const rootHtml = /<div id="root">([\s\S]*?)<\/div>\s*<\/body>/.exec(served)![1]!
      // Hydrated: React has attached its fiber to the last element, inside the Suspense boundary.
      await page.waitForFunction(() => {
        const button = document.querySelector('#cart button')
        return button !== null && Object.keys(button).some((k) => k.startsWith('__reactFiber'))
      })
      const state = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        html: document.getElementById('root')!.innerHTML,
        changes: (window as unknown as { changes: string[] }).changes,
      }))
      expect(state).toEqual({ lang: 'fr-FR', dir: 'ltr', html: rootHtml, changes: [] })
      expect(logged).toEqual([])

      await page.selectOption('#locale', 'de-DE')
      await page.waitForFunction(() => document.documentElement.lang === 'de-DE')
      const switched = await page.evaluate(() => document.getElementById('root')!.innerHTML)
      expect(
        pageTexts(`<html lang="de-DE" dir="ltr"><title>Willkommen im Demo-Shop</title>${switched}`),
      ).toEqual(expectedTexts('de-DE', 'cart'))
      expect(new URL(page.url()).pathname).toBe('/de-DE/cart')
      await page.selectOption('#locale', 'ar-XB')
      await page.waitForFunction(() => document.documentElement.dir === 'rtl')
      expect(logged).toEqual([])
    } finally {
      await page.close()
    }
  }, 120_000)
  test("a switch is remembered in the lang cookie: the next visit to / starts there, not in the browser's language", async () => {
    const context = await browser.newContext({ locale: 'fr-FR' })
    const page = await context.newPage()
    try {
      await page.goto(`${server.url}/`)
      expect(new URL(page.url()).pathname).toBe('/fr-FR/')
      await page.waitForFunction(() => {
        const select = document.querySelector('#locale')
        return select !== null && Object.keys(select).some((k) => k.startsWith('__reactFiber'))
      })
      await page.selectOption('#locale', 'ja-JP')
      await page.waitForFunction(() => document.cookie.includes('lang=ja-JP'))
      await page.goto(`${server.url}/`)
      expect(new URL(page.url()).pathname).toBe('/ja-JP/')
      await page.waitForFunction(() => {
        const select = document.querySelector('#locale')
        return select !== null && Object.keys(select).some((k) => k.startsWith('__reactFiber'))
      })
      await page.selectOption('#locale', 'ar-XB')
      await page.waitForFunction(() => document.cookie.includes('lang=ar-XB'))
      await page.goto(`${server.url}/`)
      expect([new URL(page.url()).pathname, await page.evaluate(() => document.documentElement.dir)]).toEqual(
        ['/ar-XB/', 'rtl'],
      )
    } finally {
      await context.close()
    }
  }, 120_000)
})

test('the browser bundle holds nothing of the server runtime: no AsyncLocalStorage, no node:* import', () => {
  const assets = join(EXAMPLE, 'dist/client/assets')
  const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'))
  expect(scripts.length).toBeGreaterThan(1)
  const code = scripts.map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
  // The page's own bundle does use the runtime (its catalogs are there).
  expect(code).toContain('Bienvenue dans la boutique de démonstration')
  expect(code).not.toMatch(/AsyncLocalStorage|async_hooks|runWithLocale/)
  expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:/)
  // ...which the server bundle holds.
  const server = readFileSync(join(EXAMPLE, 'dist/server/entry-server.js'), 'utf8')
  expect(server).toContain('AsyncLocalStorage')
})

test('static generation writes every page in every locale with its lang and dir', async () => {
  const into = mkdtempSync(join(tmpdir(), 'tms-ssg-'))
  try {
    const written = await prerenderExample(into)
    const locales = ['ar-XB', 'de-DE', 'en-US', 'fr-FR', 'ja-JP']
    expect(written).toEqual(locales.flatMap((l) => [`${l}/cart/index.html`, `${l}/index.html`]))
    for (const file of written) {
      const [locale, page] = file.split('/') as [string, string]
      const html = readFileSync(join(into, file), 'utf8')
      const texts = pageTexts(html)
      if (locale === 'ar-XB') {
        expect({ lang: texts.lang, dir: texts.dir }).toEqual({ lang: 'ar-XB', dir: 'rtl' })
        // Pseudo right-to-left text: the source words wrapped in bidi controls.
        expect(texts.welcome).toContain('\u202eWelcome\u202c')
      } else {
        expect(texts).toEqual(expectedTexts(locale as TestedLocale, page === 'cart' ? 'cart' : ''))
      }
    }
    expect(existsSync(join(into, 'assets'))).toBe(true)
  } finally {
    rmSync(into, { recursive: true, force: true })
  }
}, 120_000)
