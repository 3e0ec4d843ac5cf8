import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { onFreePort, portTakenOr } from '../helpers/listen'
import { control } from '../helpers/sync'
import { launchChromium, serveStatic } from '../plugin/bundlers'

/**
 * examples/astro, built and served by Astro itself with the plugin in `vite.plugins`: messages in the
 * frontmatter of .astro pages and layouts and in a .ts module; a middleware renders each page inside
 * `runWithLocale` of its URL's locale. A static build writes every page in every locale, each wholly
 * in it; the dev server renders two locales at once without mixing them.
 */

const ROOT = fileURLToPath(new URL('../../examples/astro/', import.meta.url))
const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'ar-XB'] as const
type Locale = (typeof LOCALES)[number]

/** The pseudo-locale's form of a message: each word right-to-left overridden, the whole in RLMs; values as they are. */
const pseudo = (message: string, values: Record<string, string> = {}): string =>
  `\u200f${message.replace(/\{(\w+)\}|[^\s{}]+/g, (w, name?: string) => (name ? (values[name] ?? w) : `\u202e${w}\u202c`))}\u200f`

const SOURCE = {
  title: 'Welcome to the demo store',
  greeting: 'Hello Ada!',
  items: 'You have 3 items in your cart',
  checkout: 'Checkout',
  cart: 'Your cart',
  empty: 'Your cart is empty',
  details: 'Show delivery details',
}
type Texts = typeof SOURCE

const TEXTS: Record<Locale, Texts> = {
  'en-US': SOURCE,
  'fr-FR': {
    title: 'Bienvenue dans la boutique de démonstration',
    greeting: 'Bonjour Ada !',
    items: 'Vous avez 3 articles dans votre panier',
    checkout: 'Payer',
    cart: 'Votre panier',
    empty: 'Votre panier est vide',
    details: 'Afficher les détails de livraison',
  },
  'de-DE': {
    title: 'Willkommen im Demo-Shop',
    greeting: 'Hallo Ada!',
    items: 'Sie haben 3 Artikel im Warenkorb',
    checkout: 'Zur Kasse',
    cart: 'Ihr Warenkorb',
    empty: 'Ihr Warenkorb ist leer',
    details: 'Lieferdetails anzeigen',
  },
  'ja-JP': {
    title: 'デモストアへようこそ',
    greeting: 'こんにちは、Ada！',
    items: 'カートに3個の商品があります',
    checkout: '購入手続き',
    cart: 'カート',
    empty: 'カートは空です',
    details: '配送の詳細を表示',
  },
  'ar-XB': {
    title: pseudo('Welcome to the demo store'),
    greeting: pseudo('Hello {name}!', { name: 'Ada' }),
    items: pseudo('You have {count} items in your cart', { count: '3' }),
    checkout: pseudo('Checkout'),
    cart: pseudo('Your cart'),
    empty: pseudo('Your cart is empty'),
    details: pseudo('Show delivery details'),
  },
}

/** The whole page the example renders for `page` in `locale`, as Astro writes it. */
function expectedHtml(locale: Locale, page: '' | 'cart'): string {
  const x = TEXTS[locale]
  const dir = locale === 'ar-XB' ? 'rtl' : 'ltr'
  const body =
    page === ''
      ? `<h1 id="welcome">${x.title}</h1><p id="greeting">${x.greeting}</p><p id="items">${x.items}</p><button type="button">${x.checkout}</button>`
      : `<h2>${x.cart}</h2><p id="empty">${x.empty}</p><a id="to-order" href="../order/">${x.details}</a>`
  return `<!DOCTYPE html><html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><title>${x.title}</title></head><body>${body}</body></html>`
}

let emu: RunningEmulator | undefined
const machineZone = process.env.TZ

/** Astro as the project uses it: the `astro` package's programmatic build and dev. */
const astro = (): Promise<typeof import('astro')> => import('astro')

beforeAll(async () => {
  // The server's zone: the islands' dates must be written in the site's, not the machine's.
  process.env.TZ = 'UTC'
  rmSync(`${ROOT}.tms-cache`, { recursive: true, force: true })
  rmSync(`${ROOT}dist`, { recursive: true, force: true })
  // One online build pushes the messages and pulls the translations into the example's cache, as a
  // release's first build would; every build below reads that cache with the service gone.
  emu = await startEmulator({ port: 0 })
  await control(emu, 'POST', '/_emulator/projects/demo-project/auto-translate', {
    mode: 'memory',
    publishDelayMs: 0,
  })
  Object.assign(process.env, {
    TMS_BASE_URL: emu.url,
    TMS_PROJECT_ID: 'demo-project',
    TMS_USER_IDENTIFIER: 'demo-user',
    TMS_USER_SECRET: 'demo-secret',
  })
  await (await astro()).build({ root: ROOT, logLevel: 'error' })
  await emu.close()
  emu = undefined
  rmSync(`${ROOT}dist`, { recursive: true, force: true })
  process.env.TMS_CACHE = 'offline'
}, 300_000)

let built: Promise<void> | undefined
/** The one offline build the tests read: a build takes long on a loaded machine. */
function offlineBuild(): Promise<void> {
  built ??= (async () => {
    await (await astro()).build({ root: ROOT, logLevel: 'error' })
  })()
  return built
}

afterAll(async () => {
  delete process.env.TMS_CACHE
  if (machineZone === undefined) delete process.env.TZ
  else process.env.TZ = machineZone
  await emu?.close()
})

test('astro build from the offline cache: one HTML file per page and locale, each wholly in its locale', async () => {
  await offlineBuild()
  const pages = readdirSync(`${ROOT}dist`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .sort()
  expect(pages).toEqual(
    [
      'index.html',
      ...LOCALES.flatMap((l) => [`${l}/cart/index.html`, `${l}/index.html`, `${l}/order/index.html`]),
    ].sort(),
  )
  for (const locale of LOCALES) {
    for (const page of ['', 'cart'] as const) {
      const html = readFileSync(`${ROOT}dist/${locale}/${page ? `${page}/` : ''}index.html`, 'utf8')
      expect(html, `${locale}/${page}`).toBe(expectedHtml(locale, page))
      // The transform reached the .astro frontmatter and the .ts module: no source text left.
      if (locale !== 'en-US') {
        for (const text of Object.values(SOURCE)) expect(html).not.toContain(`>${text}<`)
      }
    }
  }
}, 300_000)

/**
 * `astro dev` in its own Node process, as users run it: Astro leaves its page server out under Vitest
 * (process.env.VITEST), so the test cannot host it. Resolves once the server says where it listens.
 */
async function startDevServer(): Promise<{ url: string; stop(): void }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMS_CACHE: 'offline' }
  delete env.VITEST
  const script = [
    "import { dev } from 'astro'",
    "const server = await dev({ root: process.cwd(), logLevel: 'error', server: { port: 0, host: '127.0.0.1' } })",
    'console.log(`listening http://127.0.0.1:${server.address.port}`)',
  ].join('\n')
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      const found = /listening (http:\S+)/.exec(output)
      if (found) resolve(found[1]!)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.on('exit', (code) =>
      reject(portTakenOr(output, new Error(`astro dev exited (${code}): ${output}`))),
    )
  })
  return { url, stop: () => child.kill() }
}

test('astro dev renders requests in two locales at once, each page wholly in its own', async () => {
  const server = await onFreePort(startDevServer)
  try {
    // Both locales at once, each page awaiting its cart line while the others render.
    const requests = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 'fr-FR' : 'ja-JP') as Locale)
    const pages = await Promise.all(
      requests.map(async (locale) => {
        const res = await fetch(`${server.url}/${locale}/`)
        return { locale, status: res.status, html: await res.text() }
      }),
    )
    for (const { locale, status, html } of pages) {
      expect(status, html.slice(0, 400)).toBe(200)
      const x = TEXTS[locale]
      expect(html).toContain(`<html lang="${locale}" dir="ltr"`)
      for (const id of ['welcome', 'greeting', 'items'] as const) {
        const text = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]
        expect(text, `${locale} #${id}`).toBe(x[id === 'welcome' ? 'title' : id])
      }
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe(x.title)
      expect(/<button type="button"[^>]*>([^<]*)</.exec(html)?.[1]).toBe(x.checkout)
    }
  } finally {
    server.stop()
  }
}, 300_000)

/** The order page's texts in the locales whose translations are written by hand in the demo seed. */
const ORDER_TEXTS: Record<'fr-FR' | 'de-DE' | 'ja-JP', Record<string, string>> = {
  'fr-FR': {
    heading: 'Votre panier',
    count: '1 article dans votre panier',
    add: 'Ajouter un article',
    delivery: 'Livraison et retours',
    // 22:30 UTC is 23:30 in Paris, the site's zone, and 07:30 the next day in Tokyo.
    ordered: 'Commandé le 1 mars 2026 à 23:30',
  },
  'de-DE': {
    heading: 'Ihr Warenkorb',
    count: '1 Artikel im Warenkorb',
    add: 'Artikel hinzufügen',
    delivery: 'Lieferung und Rückgabe',
    ordered: 'Bestellt am 1. März 2026 um 23:30',
  },
  'ja-JP': {
    heading: 'カート',
    count: 'カートに1個の商品があります',
    add: '商品を追加',
    delivery: '配送と返品',
    ordered: '2026年3月1日 23:30に注文済み',
  },
}
const ISLAND_LOCALES = ['fr-FR', 'de-DE', 'ja-JP', 'ar-XB'] as const
const LOADS = 50

interface IslandLoad {
  /** Every change to the islands' markup from the end of parsing until each island's first React commit. */
  changes: string[]
  /** Islands React committed before the parser was done (the watch would have missed their changes). */
  early: number
  texts: Record<string, string | null>
  islands: number
}

/**
 * Installed before any of the page's scripts: a MutationObserver over the document from the end of
 * parsing (before any module script or island import runs), and React's devtools hook, which React
 * calls after each commit, so the test knows when each island's hydration (or its client re-render
 * after a mismatch) is done without adding anything to the page.
 */
function watchHydration(): void {
  const state = { changes: [] as string[], committed: new Set<unknown>(), early: 0, parsed: false }
  ;(window as unknown as { islands: typeof state }).islands = state
  ;(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id: number, root: { containerInfo: unknown }) {
      if (!state.parsed) state.early++
      state.committed.add(root.containerInfo)
    },
  }
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      // Astro's own bookkeeping on the island element: its `ssr` attribute removed once hydrated, its
      // `<!--astro:end-->` marker removed once its children are parsed (after parsing, for the last one).
      if (r.type === 'attributes' && (r.target as Element).localName === 'astro-island') continue
      const endMarker = (n: Node): boolean => n.nodeType === Node.COMMENT_NODE && n.nodeValue === 'astro:end'
      if (r.type === 'childList' && r.addedNodes.length === 0 && Array.from(r.removedNodes).every(endMarker))
        continue
      if (!document.body?.contains(r.target)) continue
      const what = r.type === 'attributes' ? `@${r.attributeName}` : r.type
      state.changes.push(`${what} of ${r.target.nodeName}: ${r.target.textContent?.slice(0, 80)}`)
    }
  })
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return
    state.parsed = true
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  })
}

let site: Promise<{ browser: Browser; server: { url: string; close(): Promise<void> } }> | undefined
/** One Chromium and one static server of the one build, for every browser test. */
function builtSite(): NonNullable<typeof site> {
  site ??= (async () => {
    await offlineBuild()
    return { browser: await launchChromium(), server: await serveStatic(`${ROOT}dist`) }
  })()
  return site
}
afterAll(async () => {
  const opened = await site?.catch(() => undefined)
  await opened?.browser.close()
  await opened?.server.close()
})

test('islands hydrate in the page locale and the site zone: 50 loads per locale in Tokyo, 0 changes, 0 warnings', async () => {
  const { browser, server } = await builtSite()
  for (const locale of ISLAND_LOCALES) {
    // A browser in Tokyo, a server in UTC: only the pinned zone makes them write the same date.
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' })
    await context.addInitScript(watchHydration)
    const page = await context.newPage()
    const logged: string[] = []
    page.on('console', (m) => {
      // The page links no icon; Chromium asks for /favicon.ico all the same.
      if (m.location().url.endsWith('/favicon.ico')) return
      if (m.type() === 'warning' || m.type() === 'error') logged.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`))
    const loads: IslandLoad[] = []
    for (let i = 0; i < LOADS; i++) {
      await page.goto(`${server.url}/${locale}/order/index.html`, { waitUntil: 'commit' })
      await page.waitForFunction(() => {
        const { committed } = (window as unknown as { islands: { committed: Set<unknown> } }).islands
        const islands = document.querySelectorAll('astro-island')
        return islands.length > 0 && Array.from(islands).every((island) => committed.has(island))
      })
      loads.push(
        await page.evaluate(() => {
          const { changes, early } = (window as unknown as { islands: { changes: string[]; early: number } })
            .islands
          const ids = ['heading', 'count', 'add', 'delivery', 'ordered']
          return {
            changes: [...changes],
            early,
            islands: document.querySelectorAll('astro-island').length,
            texts: Object.fromEntries(
              ids.map((id) => [id, document.getElementById(id)?.textContent ?? null]),
            ),
          }
        }),
      )
    }
    const changed = loads.filter((l) => l.changes.length > 0)
    expect(
      {
        loads: loads.length,
        withChanges: changed.length,
        firstChanges: changed[0]?.changes.slice(0, 5) ?? [],
        early: loads.reduce((n, l) => n + l.early, 0),
        islands: [...new Set(loads.map((l) => l.islands))],
        logged: logged.slice(0, 5),
      },
      locale,
    ).toEqual({ loads: LOADS, withChanges: 0, firstChanges: [], early: 0, islands: [2], logged: [] })
    const texts = [...new Set(loads.map((l) => JSON.stringify(l.texts)))].map((t) => JSON.parse(t))
    if (locale === 'ar-XB') {
      // The pseudo-locale: every word right-to-left overridden, the date as Intl writes it in Paris.
      const paris = (options: Intl.DateTimeFormatOptions): string =>
        new Intl.DateTimeFormat('ar-XB', { ...options, timeZone: 'Europe/Paris' }).format(
          Date.UTC(2026, 2, 1, 22, 30),
        )
      expect(texts).toEqual([
        {
          heading: pseudo('Your cart'),
          count: pseudo('{count} item in your cart', { count: '1' }),
          add: pseudo('Add an item'),
          delivery: pseudo('Delivery and returns'),
          ordered: pseudo('Ordered on {date} at {time}', {
            date: paris({ month: 'long', day: 'numeric', year: 'numeric' }),
            time: paris({ hour: 'numeric', minute: 'numeric' }),
          }),
        },
      ])
    } else expect(texts, locale).toEqual([ORDER_TEXTS[locale]])
    await context.close()
  }
}, 600_000)

test("/ goes to the browser's choice: the lang cookie, else its languages in order; a pseudo-locale only by name", async () => {
  const { browser, server } = await builtSite()
  const cases: [languages: string, cookie: string | null][] = [
    ['ar', null],
    ['ar-SA,de', null],
    ['fr-CA,en', null],
    ['pt-BR,ja', null],
    ['it', null],
    ['ar-XB', null],
    ['de', 'ja-JP'],
    ['de', 'ar-XB'],
    ['de', 'xx-YY'],
  ]
  const landed: string[] = []
  for (const [languages, cookie] of cases) {
    // Chromium's --lang makes navigator.languages the list; a context's `locale` sets its first entry only.
    const context = await browser.newContext({ locale: languages.split(',')[0] })
    await context.addInitScript((list: string[]) => {
      Object.defineProperty(navigator, 'languages', { get: () => list })
    }, languages.split(','))
    if (cookie) await context.addCookies([{ name: 'lang', value: cookie, url: server.url }])
    const page = await context.newPage()
    // Where the page sends the browser (the test's static server answers files, not folders).
    const next = page.waitForRequest((r) => r.isNavigationRequest() && !r.url().endsWith('/index.html'))
    await page.goto(`${server.url}/index.html`)
    landed.push(new URL((await next).url()).pathname)
    await context.close()
  }
  expect(landed).toEqual([
    '/en-US/',
    '/de-DE/',
    '/fr-FR/',
    '/ja-JP/',
    '/en-US/',
    '/ar-XB/',
    '/ja-JP/',
    '/ar-XB/',
    '/de-DE/',
  ])
}, 300_000)
