import { execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { userEnv } from '../../scripts/pack-install'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import { REPO } from '../helpers/example'

/**
 * examples/nextjs built and served by the real `next` binary of one major (16, the current, and 15,
 * the previous), with webpack or Turbopack. Next is not a dependency of the repository (341 MB with
 * its native compilers, for one major): each major is installed once into `.tmp/next-<major>/` (from
 * npm's cache when it can), beside which the example is copied; `unplugin-tms` there is a link to
 * this checkout, whose dist/ the app uses.
 */

const run = promisify(execFile)
export const EXAMPLE: string = join(REPO, 'examples/nextjs')
export type Bundler = 'webpack' | 'turbopack'

/** `.tmp/next-<major>/` with next, react and react-dom of that major installed, and unplugin-tms linked. */
export async function installNext(major: number): Promise<string> {
  const dir = join(REPO, '.tmp', `next-${major}`)
  if (!existsSync(join(dir, 'node_modules/next/package.json'))) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', `next@${major}`, 'react@19', 'react-dom@19'],
      { cwd: dir, env: userEnv(), maxBuffer: 1 << 24 },
    )
  }
  const link = join(dir, 'node_modules/unplugin-tms')
  if (!existsSync(link)) symlinkSync(REPO, link, 'dir')
  return dir
}

/**
 * A fresh copy of the example beside the install. Next 15 reads the request's first step from
 * `middleware.ts` and its `middleware` export; 16 from `proxy.ts` and `proxy` (the example's).
 */
export function copyApp(install: string, major: number, bundler: Bundler): string {
  const app = mkdtempSync(join(install, `${bundler}-`))
  cpSync(EXAMPLE, app, {
    recursive: true,
    filter: (src) => !/[\\/](?:\.next|\.tms-cache|node_modules)$/.test(src),
  })
  if (major < 16) {
    const proxy = readFileSync(join(app, 'proxy.ts'), 'utf8')
    writeFileSync(
      join(app, 'middleware.ts'),
      proxy.replace('export function proxy(', 'export function middleware('),
    )
    renameSync(join(app, 'proxy.ts'), join(app, 'proxy.ts.unused'))
  }
  return app
}

/** The flag that picks the bundler: webpack is Next 15's default, Turbopack 16's. */
function bundlerFlags(major: number, bundler: Bundler): string[] {
  if (bundler === 'webpack') return major >= 16 ? ['--webpack'] : []
  return major >= 16 ? [] : ['--turbopack']
}

/** `next build` of the app; its output and how long it took. */
export async function nextBuild(
  app: string,
  major: number,
  bundler: Bundler,
  env: Record<string, string | undefined>,
): Promise<{ output: string; ms: number }> {
  const started = performance.now()
  const next = join(app, '..', 'node_modules/.bin/next')
  const { stdout, stderr } = await run(next, ['build', ...bundlerFlags(major, bundler)], {
    cwd: app,
    env: { ...userEnv(), NEXT_TELEMETRY_DISABLED: '1', ...env },
    maxBuffer: 1 << 26,
  })
  return { output: stdout + stderr, ms: Math.round(performance.now() - started) }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface NextServer {
  url: string
  close(): Promise<void>
}

/** `next start` on 127.0.0.1, in a server process whose time zone is UTC; resolved once it answers. */
export async function nextStart(app: string): Promise<NextServer> {
  const port = await freePort()
  const next = join(app, '..', 'node_modules/.bin/next')
  const child = spawn(next, ['start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: app,
    env: { ...userEnv(), NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: `next start` runs the server as a child, which must end with it.
    detached: true,
  })
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/Ready in|started server|Local:/.test(log)) resolve()
    }
    child.stdout.on('data', onData)
    child.on('exit', (code) => reject(new Error(`next start exited with ${code}:\n${log}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await exited
    },
  }
}

/** The example's locales a test requests; ar-XB is the right-to-left pseudo-locale. */
export const TESTED = ['fr-FR', 'de-DE', 'ja-JP', 'ar-XB'] as const
export type TestedLocale = (typeof TESTED)[number]
const ALL = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'ar-XB'] as const

/** The source messages of the page, as the example writes them, with the values it passes. */
const SOURCE = {
  welcome: 'Welcome to the Next.js store',
  greeting: 'Hello {name}!',
  ordered: 'Order placed on {date, date, long}',
  language: 'Language',
  cart: 'Your cart',
  placed: 'Ordered on {when, date, long} at {when, time, short}',
  items: 'You have {count} items in your cart',
  add: 'Add an item',
  terms: 'Terms of sale',
}
type Key = keyof typeof SOURCE

/** What the demo seed's translation memory gives each message, with the values filled in. */
const TRANSLATED: Record<'en-US' | 'fr-FR' | 'de-DE' | 'ja-JP', Record<Key, string>> = {
  'en-US': {
    welcome: 'Welcome to the Next.js store',
    greeting: 'Hello Ada!',
    ordered: 'Order placed on January 15, 2026',
    language: 'Language',
    cart: 'Your cart',
    placed: 'Ordered on March 1, 2026 at 10:30 PM',
    items: 'You have 3 items in your cart',
    add: 'Add an item',
    terms: 'Terms of sale',
  },
  'fr-FR': {
    welcome: 'Bienvenue dans la boutique Next.js',
    greeting: 'Bonjour Ada !',
    ordered: 'Commande passée le 15 janvier 2026',
    language: 'Langue',
    cart: 'Votre panier',
    placed: 'Commandé le 1 mars 2026 à 22:30',
    items: 'Vous avez 3 articles dans votre panier',
    add: 'Ajouter un article',
    terms: 'Conditions de vente',
  },
  'de-DE': {
    welcome: 'Willkommen im Next.js-Shop',
    greeting: 'Hallo Ada!',
    ordered: 'Bestellung vom 15. Januar 2026',
    language: 'Sprache',
    cart: 'Ihr Warenkorb',
    placed: 'Bestellt am 1. März 2026 um 22:30',
    items: 'Sie haben 3 Artikel im Warenkorb',
    add: 'Artikel hinzufügen',
    terms: 'Verkaufsbedingungen',
  },
  'ja-JP': {
    welcome: 'Next.js ストアへようこそ',
    greeting: 'こんにちは、Ada！',
    ordered: '2026年1月15日に注文しました',
    language: '言語',
    cart: 'カート',
    placed: '2026年3月1日 22:30に注文済み',
    items: 'カートに3個の商品があります',
    add: '商品を追加',
    terms: '販売条件',
  },
}

const arDate = (options: Intl.DateTimeFormatOptions): string =>
  new Intl.DateTimeFormat('ar-XB', { ...options, timeZone: 'UTC' }).format(Date.UTC(2026, 2, 1, 22, 30))

/** ar-XB is made on the machine (src/core/pseudo.ts), its date by Intl in that locale. */
function pseudoTexts(): Record<Key, string> {
  const fill = (text: string) =>
    text
      .replace('{name}', 'Ada')
      .replace('{count}', '3')
      .replace(
        '{date, date, long}',
        new Intl.DateTimeFormat('ar-XB', { dateStyle: 'long', timeZone: 'UTC' }).format(
          Date.UTC(2026, 0, 15, 12),
        ),
      )
      // The client's date, in the zone the example pins (UTC), with the options `date, long` and
      // `time, short` compile to.
      .replace('{when, date, long}', arDate({ month: 'long', day: 'numeric', year: 'numeric' }))
      .replace('{when, time, short}', arDate({ hour: 'numeric', minute: 'numeric' }))
  return Object.fromEntries(
    Object.entries(SOURCE).map(([key, text]) => [key, fill(pseudoLocalize(text, 'ar-XB'))]),
  ) as Record<Key, string>
}

export function textsOf(locale: (typeof ALL)[number]): Record<Key, string> {
  return locale === 'ar-XB' ? pseudoTexts() : TRANSLATED[locale]
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" }
const decode = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!)

/** What a page shows, read from its HTML: `<html>`'s attributes, the title and each message's element. */
export function pageTexts(html: string): Record<string, string | undefined> {
  const one = (re: RegExp): string | undefined => {
    const found = re.exec(html)?.[1]
    return found === undefined ? undefined : decode(found)
  }
  return {
    lang: one(/<html lang="([^"]*)"/),
    dir: one(/<html [^>]*dir="([^"]*)"/),
    title: one(/<title>([^<]*)<\/title>/),
    welcome: one(/id="welcome">([^<]*)</),
    greeting: one(/id="greeting">([^<]*)</),
    ordered: one(/id="ordered">([^<]*)</),
    // `<label>Langue<!-- --> <select` as rendered on the server, `<label>Langue <select` by the browser.
    language: one(/<label>([^<]*?)(?:<!-- -->)? ?<select/),
    cart: one(/<h2>([^<]*)<\/h2>/),
    placed: one(/id="placed">([^<]*)</),
    items: one(/id="items">([^<]*)</),
    add: one(/id="add"[^>]*>([^<]*)</),
    terms: one(/id="terms">([^<]*)</),
  }
}

/** What `pageTexts` must give in a locale. */
export function expectedTexts(locale: (typeof ALL)[number]): Record<string, string | undefined> {
  const texts = textsOf(locale)
  return { lang: locale, dir: locale === 'ar-XB' ? 'rtl' : 'ltr', title: texts.welcome, ...texts }
}

/** The messages of every other locale that a page in `locale` holds (its markup and its RSC payload). */
export function foreignTexts(locale: (typeof ALL)[number], html: string): string[] {
  const own = Object.values(textsOf(locale))
  const others = ALL.filter((l) => l !== locale).flatMap((l) => Object.values(textsOf(l)))
  // A pseudo-locale's text holds the source's words (each wrapped in direction marks): such a word is
  // no foreign text of its own.
  return others
    .filter((text) => !own.some((mine) => mine.includes(text)))
    .filter((text) => html.includes(text) || html.includes(JSON.stringify(text).slice(1, -1)))
}

/**
 * A page's visible text, whole: every text node of the markup in order (scripts and the RSC payload
 * left out), entities decoded.
 */
export function visibleText(html: string): string[] {
  const markup = html.replace(/<script\b[\s\S]*?<\/script>/g, '').replace(/<style\b[\s\S]*?<\/style>/g, '')
  return markup
    .split(/<[^>]*>/)
    .map((t) => decode(t).trim())
    .filter((t) => t !== '')
}

/** The whole visible text of the example's home page in a locale, in the order the markup has it. */
export function expectedVisibleText(locale: (typeof ALL)[number]): string[] {
  const t = textsOf(locale)
  return [
    t.welcome,
    t.welcome,
    t.greeting,
    t.ordered,
    t.language,
    ...ALL,
    t.cart,
    t.placed,
    t.items,
    t.add,
    t.terms,
  ]
}
