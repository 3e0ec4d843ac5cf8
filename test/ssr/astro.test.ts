import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control } from '../helpers/sync'

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
  },
  'de-DE': {
    title: 'Willkommen im Demo-Shop',
    greeting: 'Hallo Ada!',
    items: 'Sie haben 3 Artikel im Warenkorb',
    checkout: 'Zur Kasse',
    cart: 'Ihr Warenkorb',
    empty: 'Ihr Warenkorb ist leer',
  },
  'ja-JP': {
    title: 'デモストアへようこそ',
    greeting: 'こんにちは、Ada！',
    items: 'カートに3個の商品があります',
    checkout: '購入手続き',
    cart: 'カート',
    empty: 'カートは空です',
  },
  'ar-XB': {
    title: pseudo('Welcome to the demo store'),
    greeting: pseudo('Hello {name}!', { name: 'Ada' }),
    items: pseudo('You have {count} items in your cart', { count: '3' }),
    checkout: pseudo('Checkout'),
    cart: pseudo('Your cart'),
    empty: pseudo('Your cart is empty'),
  },
}

/** The whole page the example renders for `page` in `locale`, as Astro writes it. */
function expectedHtml(locale: Locale, page: '' | 'cart'): string {
  const x = TEXTS[locale]
  const dir = locale === 'ar-XB' ? 'rtl' : 'ltr'
  const body =
    page === ''
      ? `<h1 id="welcome">${x.title}</h1><p id="greeting">${x.greeting}</p><p id="items">${x.items}</p><button type="button">${x.checkout}</button>`
      : `<h2>${x.cart}</h2><p id="empty">${x.empty}</p>`
  return `<!DOCTYPE html><html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><title>${x.title}</title></head><body>${body}</body></html>`
}

let emu: RunningEmulator | undefined

/** Astro as the project uses it: the `astro` package's programmatic build and dev. */
const astro = (): Promise<typeof import('astro')> => import('astro')

beforeAll(async () => {
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

afterAll(async () => {
  delete process.env.TMS_CACHE
  await emu?.close()
})

test('astro build from the offline cache: one HTML file per page and locale, each wholly in its locale', async () => {
  await (await astro()).build({ root: ROOT, logLevel: 'error' })
  const pages = readdirSync(`${ROOT}dist`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .sort()
  expect(pages).toEqual(LOCALES.flatMap((l) => [`${l}/cart/index.html`, `${l}/index.html`]).sort())
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
    child.on('exit', (code) => reject(new Error(`astro dev exited (${code}): ${output}`)))
  })
  return { url, stop: () => child.kill() }
}

test('astro dev renders requests in two locales at once, each page wholly in its own', async () => {
  const server = await startDevServer()
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
