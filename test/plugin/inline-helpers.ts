import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DiskCache } from '../../src/core/cache'
import { extractMessages, type Message } from '../../src/core/extract/index'
import { extractOptionsOf } from '../../src/core/pipeline'
import { metaDigest } from '../../src/core/sync'
import { type Options, resolveOptions } from '../../src/options'

/**
 * The inline fixture app in a temp directory, with an offline cache that holds every message's
 * translation in ten locales: what a CI cache looks like after a pull, without a service.
 */

export const INLINE_APP: string = fileURLToPath(new URL('../fixtures/plugin/inline-app', import.meta.url))
export const PROJECT = 'inline-project'
export const SOURCE_LOCALE = 'en-US'
export const TARGETS: string[] = [
  'fr-FR',
  'de-DE',
  'es-ES',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'pt-BR',
  'nl-NL',
  'sv-SE',
  'pl-PL',
]

/**
 * A made-up translation that no other locale's text contains: letters shifted by a per-locale amount
 * (a Caesar cipher), placeholders kept. `fr-FR` shifts by 1 (`Open` -> `Pqfo`), `pl-PL` by 10.
 */
export function translate(text: string, locale: string): string {
  const shift = TARGETS.indexOf(locale) + 1
  if (shift === 0) return text
  return text.replace(/\{[^}]*\}|[A-Za-z]/g, (c) => {
    if (c.length > 1) return c
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + shift) % 26) + base)
  })
}

/** Source texts of the fixture's messages, as `render()` lists them once everything is loaded. */
export const MESSAGES: string[] = [
  'Welcome to the shop',
  'Hello {name}!',
  'You have {count} items in your cart',
  'Open',
  '{count} new messages for {name}',
  'Your order has shipped',
  'Signed in as {user}',
  'Guest',
]

/** What the fixture app renders in a locale (`text` gives the locale's text of a source text). */
export function renderedIn(text: (source: string) => string): string[] {
  return [
    text('Welcome to the shop'),
    text('Hello {name}!').replace('{name}', 'Ada'),
    text('You have {count} items in your cart').replace('{count}', '3'),
    text('Open'),
    text('{count} new messages for {name}').replace('{count}', '2').replace('{name}', 'Ada'),
    text('Your order has shipped'),
    text('Signed in as {user}').replace('{user}', text('Guest')),
    '6',
  ]
}

export interface InlineProject {
  root: string
  cacheDir: string
  messages: Message[]
  options(extra?: Options): Options
  close(): void
}

/**
 * A copy of the inline app with an offline cache translated into `locales` (default: all ten); `files`
 * (path under the app -> text) are written over the copy before its messages are read.
 */
export async function setupInlineProject(
  locales: string[] = TARGETS,
  files: Record<string, string> = {},
): Promise<InlineProject> {
  const root = mkdtempSync(join(tmpdir(), 'tms-inline-'))
  cpSync(INLINE_APP, root, { recursive: true })
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text)
  const cacheDir = join(root, '.tms-cache')
  const options = (extra: Options = {}): Options => ({
    root,
    projectId: PROJECT,
    locales,
    cache: 'offline',
    cacheDir,
    mode: 'inline',
    ...extra,
  })
  const resolved = resolveOptions(options(), { command: 'build' })
  const { messages } = await extractMessages(extractOptionsOf(resolved))
  const cache = new DiskCache(cacheDir, PROJECT)
  const hashcodeOf = (m: Message): string =>
    m.key
      .replace(/[^0-9a-f]/g, '')
      .padEnd(32, '0')
      .slice(0, 32)
  const seen = new Set<string>()
  await cache.updateManifest(
    Object.fromEntries(
      messages.map((m) => {
        let hashcode = hashcodeOf(m)
        while (seen.has(hashcode)) hashcode = `${hashcode.slice(1)}a`
        seen.add(hashcode)
        return [
          m.key,
          { hashcode, parsed: m.parsed, variant: m.variant, meta: metaDigest(m, resolved.placeholder) },
        ]
      }),
    ),
  )
  const manifest = await cache.readManifest()
  if (!manifest.hit) throw new Error('the seeded manifest does not read back')
  for (const locale of TARGETS) {
    const translations: Record<string, string> = {}
    for (const m of messages)
      translations[manifest.value.entries[m.key]!.hashcode] = translate(m.text, locale)
    await cache.writeLocale(locale, 'published', translations)
  }
  return {
    root,
    cacheDir,
    messages,
    options,
    close: () => rmSync(root, { recursive: true, force: true }),
  }
}

/** Every file under `dir`, relative to it, with its bytes. */
export function treeOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else out.set(relative(dir, path), readFileSync(path))
    }
  }
  walk(dir)
  return out
}

/** The text of a locale: the source text for the source locale, else the cipher. */
export function textIn(locale: string): (source: string) => string {
  return (source) => (locale === SOURCE_LOCALE ? source : translate(source, locale))
}

const VLQ_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * A source map's mappings as absolute numbers: per generated line, `[column, source, line, column]`
 * segments (plus the name index when there is one). Written here, apart from the plugin's own code,
 * so the tests do not check the plugin with itself.
 */
export function decodeMappings(mappings: string): number[][][] {
  const state = [0, 0, 0, 0]
  return mappings.split(';').map((line) => {
    let column = 0
    if (line === '') return []
    return line.split(',').map((segment) => {
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const ch of segment) {
        const digit = VLQ_DIGITS.indexOf(ch)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >> 1) : value >> 1)
          value = 0
          shift = 0
        }
      }
      column += fields[0]!
      const out = [column]
      for (let i = 1; i < fields.length; i++) {
        state[i - 1]! += fields[i]!
        out.push(state[i - 1]!)
      }
      return out
    })
  })
}

/** Where generated `line` (0-based) and `column` come from: the last segment at or before it. */
export function originalPosition(
  map: { sources: (string | null)[]; mappings: string },
  line: number,
  column: number,
): { source: string | null; line: number; column: number } | undefined {
  const segments = decodeMappings(map.mappings)[line] ?? []
  let found: number[] | undefined
  for (const s of segments) if (s[0]! <= column && s.length >= 4) found = s
  return found && { source: map.sources[found[1]!] ?? null, line: found[2]! + 1, column: found[3]! }
}
