import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Options } from '../../src/options'
import { type IcuProject, type IcuSource, setupIcuProject } from '../icu/project'
import { buildRollup, launchChromium, serveStatic } from '../plugin/bundlers'
import { seeded } from './helpers'
import { hostileTranslation, KINDS, TEMPLATES } from './icu-fuzz-gen'

/**
 * Hostile ICU translations, made from a seed (test/reliability/icu-fuzz-gen.ts), published in an
 * offline cache as a CI cache holds them after a pull, through real rollup builds in runtime and in
 * inline mode, and every message rendered in every locale in Chromium. No one translation may fail a
 * build; the page never throws; a refused translation is named in a warning (hashcode, locale, the
 * message's place) and renders exactly as the same message untranslated; a good one is never refused.
 */

const SEED = 20_261_128
const SLOTS = 36
const LOCALES = ['fr-FR', 'pl-PL', 'ar-EG']
const COUNTS = [0, 1, 2, 3, 5, 21, 1_000_000]
/** Where setupIcuProject writes the first message's call. */
const FIRST_LINE = 4

// Each slot is one message (a template under its own variant) with a hostile translation per locale;
// after the slots, each template once more as a control with no translation at all.
const messages: IcuSource[] = [
  ...Array.from({ length: SLOTS }, (_, i) => ({
    text: TEMPLATES[i % TEMPLATES.length]!.source,
    variant: `fuzz${i}`,
  })),
  ...TEMPLATES.map((t) => ({ text: t.source, variant: 'control' })),
]
const controlOf = (slot: number): number => SLOTS + (slot % TEMPLATES.length)
const random = seeded(SEED)
const made = new Map<string, { kind: string; text: string }>()
for (let i = 0; i < SLOTS; i++)
  for (const locale of LOCALES)
    made.set(`fuzz${i}|${locale}`, hostileTranslation(TEMPLATES[i % TEMPLATES.length]!, random))

let project: IcuProject
let browser: Browser

beforeAll(async () => {
  project = await setupIcuProject(
    messages,
    (_text, locale, variant) => made.get(`${variant}|${locale}`)?.text,
    LOCALES,
  )
  browser = await launchChromium()
}, 600_000)

afterAll(async () => {
  await browser?.close()
  project?.close()
})

type Rendered = string[][]

/** Every message with every count, in the page, from the module at `path` (after setLocale when asked). */
async function renderAll(outDir: string, entries: { path: string; locale: string; setLocale: boolean }[]) {
  // The page imports each module itself: an import() written in the test would be the test runner's.
  writeFileSync(
    join(outDir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>fuzz</title><link rel="icon" href="data:,"><script>window.load = (url) => import(url)</script>\n',
  )
  const server = await serveStatic(outDir)
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  try {
    await page.goto(`${server.url}/index.html`)
    const out = new Map<string, Rendered>()
    for (const entry of entries) {
      const rendered = await page.evaluate(
        async ({ url, locale, setLocale, counts }) => {
          const app = await (window as unknown as { load(u: string): Promise<Record<string, unknown>> }).load(
            url,
          )
          if (setLocale) await (app.setLocale as (l: string) => Promise<void>)(locale)
          const tag = (mark: string) => (chunks: unknown[]) => `${mark}${chunks.join('')}${mark}`
          return (app.messages as ((v: unknown) => unknown)[]).map((message, i) =>
            counts.map((n, j) => {
              const values = {
                n,
                g: ['female', 'male', 'x'][(i + j) % 3],
                d: new Date(0),
                a: tag('_'),
                b: tag('*'),
              }
              try {
                const result = message(values)
                return typeof result === 'string' ? result : `NOT A STRING ${JSON.stringify(result)}`
              } catch (error) {
                return `THREW ${(error as Error).message}`
              }
            }),
          )
        },
        {
          url: `${server.url}${entry.path}`,
          locale: entry.locale,
          setLocale: entry.setLocale,
          counts: COUNTS,
        },
      )
      out.set(entry.locale, rendered)
    }
    return { out, errors }
  } finally {
    await page.close()
    await server.close()
  }
}

const REJECTED =
  /^\[plugin unplugin-tms\] translation of ([0-9a-f]{32}) for ([\w-]+) rejected: .+; the source text ".*" \(src\/main\.js:(\d+):10\) is used until the translation is corrected on the service$/s
const NOTED =
  /^\[plugin unplugin-tms\] translation of [0-9a-f]{32} for ([\w-]+) \(the message ".*" \(src\/main\.js:\d+:10\)\): .+; the translation is used, remove that branch on the service$/s

function check(
  warnings: string[],
  out: Map<string, Rendered>,
  errors: string[],
): { refused: number; accepted: number } {
  const refused = new Set<string>()
  for (const w of warnings) {
    const m = REJECTED.exec(w)
    if (!m) {
      expect(w).toMatch(NOTED)
      continue
    }
    const key = `${Number(m[3]) - FIRST_LINE}|${m[2]}`
    expect(refused.has(key), `one warning per translation: ${w.slice(0, 300)}`).toBe(false)
    refused.add(key)
  }
  expect(errors).toEqual([])
  for (const [locale, rendered] of out) {
    expect(rendered).toHaveLength(messages.length)
    for (const [i, row] of rendered.entries())
      for (const text of row) expect(text, `message ${i} in ${locale}`).not.toMatch(/^(THREW|NOT A STRING) /)
  }
  let accepted = 0
  for (let i = 0; i < SLOTS; i++) {
    for (const locale of LOCALES) {
      const { kind } = made.get(`fuzz${i}|${locale}`)!
      const rendered = out.get(locale)!
      if (refused.has(`${i}|${locale}`)) {
        expect(kind, `a good translation of slot ${i} in ${locale} was refused`).not.toBe('good')
        // Refused: the message renders exactly as the same message with no translation.
        expect(rendered[i], `slot ${i} in ${locale} (${kind})`).toEqual(rendered[controlOf(i)])
      } else accepted++
    }
  }
  return { refused: refused.size, accepted }
}

test('the seeded translations cover every hostile kind', () => {
  const kinds = new Set([...made.values()].map((m) => m.kind))
  expect([...kinds].sort()).toEqual(KINDS.map((k) => k.name).sort())
  expect(made.size).toBe(SLOTS * LOCALES.length)
})

const options = (extra: Options = {}): Options => project.options(extra)

test('runtime mode: the build completes and every message renders in every locale without a throw', async () => {
  const outDir = join(project.root, 'dist-runtime')
  const built = await buildRollup(project.root, options(), outDir)
  const { out, errors } = await renderAll(
    outDir,
    ['en-US', ...LOCALES].map((locale) => ({ path: '/main.js', locale, setLocale: locale !== 'en-US' })),
  )
  const { refused, accepted } = check(built.warnings, out, errors)
  expect(refused).toBeGreaterThan(SLOTS)
  expect(accepted).toBeGreaterThan(SLOTS / 2)
}, 600_000)

test('inline mode: the build completes and every copy renders every message without a throw', async () => {
  const outDir = join(project.root, 'dist-inline')
  const built = await buildRollup(project.root, options({ mode: 'inline' }), outDir)
  const { out, errors } = await renderAll(
    outDir,
    ['en-US', ...LOCALES].map((locale) => ({ path: `/${locale}/main.js`, locale, setLocale: false })),
  )
  const { refused, accepted } = check(built.warnings, out, errors)
  expect(refused).toBeGreaterThan(SLOTS)
  expect(accepted).toBeGreaterThan(SLOTS / 2)
}, 600_000)
