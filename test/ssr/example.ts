import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { RunningEmulator } from '../../src/emulator/index'
import { startDemoEmulator } from '../helpers/example'

/** examples/vite-ssr-react, its server and build scripts, driven by the SSR tests against the emulator. */

export const EXAMPLE: string = fileURLToPath(new URL('../../examples/vite-ssr-react/', import.meta.url))

export interface ExampleServer {
  url: string
  close(): Promise<void>
}

interface ServerModule {
  startServer(options: { production: boolean; port: number }): Promise<ExampleServer>
}

export function startExampleServer(production: boolean): Promise<ExampleServer> {
  return (import(`${EXAMPLE}server.mjs`) as Promise<ServerModule>).then((m) =>
    m.startServer({ production, port: 0 }),
  )
}

export async function buildExample(): Promise<void> {
  const { build } = (await import(`${EXAMPLE}build.mjs`)) as { build(): Promise<string> }
  await build()
}

export async function prerenderExample(into: string): Promise<string[]> {
  const { prerender } = (await import(`${EXAMPLE}prerender.mjs`)) as {
    prerender(o: { into: string }): Promise<string[]>
  }
  return prerender({ into })
}

/**
 * The emulator with the demo seed, its translators on (the translation memory, published at once), and
 * the TMS_* variables the example's vite.config.ts reads pointed at it; a fresh cache and output.
 */
export async function startExampleEmulator(): Promise<RunningEmulator> {
  const emu = await startDemoEmulator()
  rmSync(`${EXAMPLE}.tms-cache`, { recursive: true, force: true })
  rmSync(`${EXAMPLE}dist`, { recursive: true, force: true })
  return emu
}

/** The example's messages in each locale the tests request, as the demo seed's translators publish them. */
const TEXTS = {
  'en-US': [
    'Language',
    'Welcome to the demo store',
    'Hello Ada!',
    'Signed in as Ada',
    'Your cart',
    'You have 3 items in your cart',
    'Checkout',
  ],
  'fr-FR': [
    'Langue',
    'Bienvenue dans la boutique de démonstration',
    'Bonjour Ada !',
    'Connecté en tant que Ada',
    'Votre panier',
    'Vous avez 3 articles dans votre panier',
    'Payer',
  ],
  'de-DE': [
    'Sprache',
    'Willkommen im Demo-Shop',
    'Hallo Ada!',
    'Angemeldet als Ada',
    'Ihr Warenkorb',
    'Sie haben 3 Artikel im Warenkorb',
    'Zur Kasse',
  ],
  'ja-JP': [
    '言語',
    'デモストアへようこそ',
    'こんにちは、Ada！',
    'Ada としてサインイン中',
    'カート',
    'カートに3個の商品があります',
    '購入手続き',
  ],
} as const

export type TestedLocale = keyof typeof TEXTS
export const TESTED_LOCALES: TestedLocale[] = Object.keys(TEXTS) as TestedLocale[]

/** What a page shows, read from its HTML: the `<html>` attributes, the title and each text. */
export function pageTexts(html: string): Record<string, string | undefined> {
  const one = (re: RegExp): string | undefined => re.exec(html)?.[1]
  return {
    lang: one(/<html lang="([^"]*)"/),
    dir: one(/<html [^>]*dir="([^"]*)"/),
    title: one(/<title>([^<]*)<\/title>/),
    language: one(/<label>([^<]*)<!-- -->/),
    welcome: one(/id="welcome">([^<]*)</),
    greeting: one(/id="greeting">([^<]*)</),
    signedIn: one(/id="signed-in">([^<]*)</),
    toCart: one(/id="to-cart"[^>]*>([^<]*)</),
    cart: one(/<h2>([^<]*)<\/h2>/),
    items: one(/id="items">([^<]*)</),
    checkout: one(/<button type="button">([^<]*)</),
  }
}

/** What `pageTexts` must give for a page (`''` the home page, `cart`) in a locale. */
export function expectedTexts(locale: TestedLocale, page: '' | 'cart'): Record<string, string | undefined> {
  const [language, welcome, greeting, signedIn, cart, items, checkout] = TEXTS[locale]
  return {
    lang: locale,
    dir: 'ltr',
    title: welcome,
    language,
    welcome,
    greeting,
    signedIn,
    toCart: page === '' ? cart : undefined,
    cart: page === 'cart' ? cart : undefined,
    items: page === 'cart' ? items : undefined,
    checkout: page === 'cart' ? checkout : undefined,
  }
}

/** Every text of a locale: a page in another locale holding one of them is a mixed page. */
export function textsOf(locale: TestedLocale): readonly string[] {
  return TEXTS[locale]
}
