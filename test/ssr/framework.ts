import { type ChildProcess, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { Browser, BrowserContextOptions } from 'playwright-core'
import { expect } from 'vitest'
import { DEMO_CREDENTIALS, tms } from '../helpers/cli'
import { concurrentRequests, cycle, getOnce } from '../helpers/concurrent'
import { startDemoEmulator } from '../helpers/example'

/**
 * What the meta-framework tests share (SvelteKit, Nuxt): the cache a release's pull leaves, the
 * framework's own build and production server as child processes (as users run them, outside Vitest),
 * the concurrent mixed-locale requests, the redirect of `/`, and the page in Chromium watched from
 * before its bundle: hydration in Tokyo's zone and a locale switch.
 */

export const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP'] as const
export type Locale = (typeof LOCALES)[number]

/** The home page's texts by element id, in each locale, the order date in UTC. */
export const HOME: Record<Locale, Record<string, string>> = {
  'en-US': {
    language: 'Language',
    welcome: 'Welcome to the demo store',
    greeting: 'Hello Ada!',
    'signed-in': 'Signed in as Ada',
    items: 'You have 3 items in your cart',
    ordered: 'Ordered on March 1, 2026 at 10:30 PM',
    'to-terms': 'Terms of sale',
  },
  'fr-FR': {
    language: 'Langue',
    welcome: 'Bienvenue dans la boutique de démonstration',
    greeting: 'Bonjour Ada !',
    'signed-in': 'Connecté en tant que Ada',
    items: 'Vous avez 3 articles dans votre panier',
    ordered: 'Commandé le 1 mars 2026 à 22:30',
    'to-terms': 'Conditions de vente',
  },
  'de-DE': {
    language: 'Sprache',
    welcome: 'Willkommen im Demo-Shop',
    greeting: 'Hallo Ada!',
    'signed-in': 'Angemeldet als Ada',
    items: 'Sie haben 3 Artikel im Warenkorb',
    ordered: 'Bestellt am 1. März 2026 um 22:30',
    'to-terms': 'Verkaufsbedingungen',
  },
  'ja-JP': {
    language: '言語',
    welcome: 'デモストアへようこそ',
    greeting: 'こんにちは、Ada！',
    'signed-in': 'Ada としてサインイン中',
    items: 'カートに3個の商品があります',
    ordered: '2026年3月1日 22:30に注文済み',
    'to-terms': '販売条件',
  },
}
export const HOME_IDS: string[] = Object.keys(HOME['en-US'])

/** What the server's page shows: `<html>` attributes, the title and each text by id. */
export function served(html: string): Record<string, string | undefined> {
  const one = (re: RegExp): string | undefined => re.exec(html)?.[1]
  return {
    lang: one(/<html\s[^>]*lang="([^"]*)"/),
    dir: one(/<html\s[^>]*dir="([^"]*)"/),
    title: one(/<title>([^<]*)<\/title>/),
    ...Object.fromEntries(HOME_IDS.map((id) => [id, one(new RegExp(`id="${id}"[^>]*>([^<]*)<`))])),
  }
}
export const expectedHome = (locale: Locale): Record<string, string | undefined> => ({
  lang: locale,
  dir: 'ltr',
  title: HOME[locale].welcome,
  ...HOME[locale],
})

/** `tms push` then `tms pull` in `root` against the demo emulator, which is then closed. */
export async function pullIntoCache(root: string): Promise<void> {
  for (const dir of ['.tms-cache']) rmSync(`${root}/${dir}`, { recursive: true, force: true })
  const emu = await startDemoEmulator()
  try {
    const env = { ...DEMO_CREDENTIALS, TMS_BASE_URL: emu.url, TMS_PROJECT_ID: 'demo-project' }
    for (const command of ['push', 'pull']) {
      const result = await tms(root, [command], env)
      if (result.code !== 0) throw new Error(`tms ${command}: ${result.stderr}${result.stdout}`)
    }
  } finally {
    await emu.close()
  }
}

/** The environment of a child: no Vitest variables (frameworks act differently under Vitest), no service. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMS_CACHE: 'offline', ...extra }
  // NODE_ENV=test (Vitest's) would make Vite resolve the frameworks' development builds.
  for (const key of Object.keys(env)) {
    if (/^(?:VITEST|NODE_ENV$|TMS_(?:BASE_URL|PROJECT_ID|USER_))/.test(key)) delete env[key]
  }
  return env
}

/** Runs `node args` in `cwd`; rejects with its output when it fails. */
export function runNode(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, args, { cwd, env })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`node ${args.join(' ')} exited ${code}:\n${output}`)),
    )
  })
}

export interface RunningServer {
  url: string
  stop(): Promise<void>
}

/** Starts `node args` in `cwd`; resolves once its output names the URL it listens on. */
export async function startServer(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd, env })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (found) resolve(found[1]!)
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.on('exit', (code) => reject(new Error(`node ${args.join(' ')} exited (${code}): ${output}`)))
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    url,
    stop: () => {
      child.kill()
      return exited
    },
  }
}

/** 500 requests at once to the home page, cycling through the 4 locales: each page wholly in its locale. */
export function homePagesInTheirLocales(url: string): Promise<{ wrong: string[]; checked: number }> {
  const others = (locale: Locale): string[] =>
    LOCALES.filter((l) => l !== locale).flatMap((l) => Object.values(HOME[l]))
  return concurrentRequests(url, cycle(500, LOCALES), ({ locale }, status, html) => {
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
}

/** Where `/` sends each `[Accept-Language, Cookie]`: `[both, status, Location]`, one request at a time. */
export async function redirectsOfRoot(
  url: string,
  cases: readonly (readonly [string, string])[],
): Promise<[string, string, number, string | null][]> {
  const answers: [string, string, number, string | null][] = []
  for (const [acceptLanguage, cookie] of cases) {
    const res = await getOnce(`${url}/`, { 'accept-language': acceptLanguage, cookie })
    answers.push([acceptLanguage, cookie, res.status, res.location])
  }
  return answers
}

export interface HydratedPage {
  lang: string
  dir: string
  /** Every change to the server's markup from the end of parsing (before any module script) on. */
  changes: string[]
  /** Console warnings and errors, page errors. */
  logged: string[]
  texts: Record<string, string | null>
}

/**
 * Loads `path` in a fresh context (a time zone of its own, say), watching the document with a
 * MutationObserver installed by an init script, before any of the page's scripts; waits until the app
 * marks `<html data-hydrated="true">`; resolves with what the page shows and what changed during hydration.
 */
export async function loadAndHydrate(
  browser: Browser,
  url: string,
  options: { context?: BrowserContextOptions; ids: readonly string[] },
): Promise<HydratedPage & { close(): Promise<void>; page: import('playwright-core').Page }> {
  const context = await browser.newContext(options.context)
  const page = await context.newPage()
  const logged: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') logged.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`))
  // Hydration ends where the app marks `<html data-hydrated>` (its first mount): the changes before it,
  // in the order they happened, are hydration's; later ones (an announcer, a switch) are the app's.
  await page.addInitScript(() => {
    const changes: string[] = []
    ;(window as unknown as { changes: string[] }).changes = changes
    let done = false
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (done) return
        if (r.target === document.documentElement && r.attributeName === 'data-hydrated') {
          done = true
          observer.disconnect()
          return
        }
        if (!document.body?.contains(r.target)) continue
        const what = r.type === 'attributes' ? `@${r.attributeName}` : r.type
        changes.push(`${what} of ${r.target.nodeName}: ${r.target.textContent?.slice(0, 80)}`)
      }
    })
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
    })
  })
  await page.goto(url)
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  const state = await page.evaluate(
    (ids) => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      changes: [...(window as unknown as { changes: string[] }).changes],
      texts: Object.fromEntries(ids.map((id) => [id, document.getElementById(id)?.textContent ?? null])),
    }),
    options.ids as string[],
  )
  return { ...state, logged, page, close: () => context.close() }
}

/**
 * A page of `url` loaded in a browser in Tokyo, first visit: the server knows no zone of the user's and
 * renders in UTC, and hydration keeps it (0 changes). Its bundle wrote the browser's zone to the `tz`
 * cookie: the next load renders in Tokyo's zone on the server, and hydrates with 0 changes again.
 */
export async function hydratesInTokyo(browser: Browser, url: string): Promise<void> {
  const tokyo = await loadAndHydrate(browser, `${url}/fr-FR`, {
    context: { timezoneId: 'Asia/Tokyo' },
    ids: HOME_IDS,
  })
  try {
    expect(tokyo).toMatchObject({ lang: 'fr-FR', dir: 'ltr', changes: [], logged: [], texts: HOME['fr-FR'] })
    const next = await loadAndHydrate(browser, `${url}/fr-FR`, {
      context: { timezoneId: 'Asia/Tokyo', storageState: await tokyo.page.context().storageState() },
      ids: HOME_IDS,
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
}

/**
 * The ja-JP page hydrated, then a click on the de-DE link: the page in de-DE (texts, title, `lang`,
 * `dir`), the choice in the `lang` cookie; then ar-XB turns the page right-to-left. Nothing logged.
 */
export async function switchesLocale(browser: Browser, url: string): Promise<void> {
  const loaded = await loadAndHydrate(browser, `${url}/ja-JP`, { ids: HOME_IDS })
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
        title: document.title,
        texts: Object.fromEntries(ids.map((id) => [id, document.getElementById(id)?.textContent])),
        cookie: document.cookie.includes('lang=de-DE'),
      }),
      HOME_IDS,
    )
    expect(after).toEqual({
      lang: 'de-DE',
      dir: 'ltr',
      title: HOME['de-DE'].welcome,
      texts: HOME['de-DE'],
      cookie: true,
    })
    await page.click('#locales a[hreflang="ar-XB"]')
    await page.waitForFunction(() => document.documentElement.dir === 'rtl')
    expect(loaded.logged).toEqual([])
  } finally {
    await loaded.close()
  }
}
