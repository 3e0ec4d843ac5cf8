import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { IntlMessageFormat } from 'intl-messageformat'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Options } from '../../src/options'
import { launchChromium, serveStatic } from '../plugin/bundlers'
import { buildWithWarnings as build, type IcuProject, setupIcuProject } from './project'

/**
 * `{v, number, GBP}` with `formats` (react-intl's `<IntlProvider formats>`) through real rollup builds,
 * runtime mode, inline mode and `sourceCatalog`, rendered in Chromium: each message in each locale is what
 * intl-messageformat, loaded in the same page, formats with the same text, locale and formats.
 */

const FORMATS = {
  number: { GBP: { style: 'currency', currency: 'GBP' } },
  date: { day: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' } },
  time: { hm: { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' } },
} satisfies Options['formats']

const SOURCES = ['{v, number, GBP}', 'Wallet: {v, number, GBP}', 'Paid on {d, date, day} at {d, time, hm}']
const TRANSLATIONS: Record<string, Record<string, string>> = {
  'de-DE': {
    '{v, number, GBP}': '{v, number, GBP}',
    'Wallet: {v, number, GBP}': 'Geldbörse: {v, number, GBP}',
    'Paid on {d, date, day} at {d, time, hm}': 'Bezahlt am {d, date, day} um {d, time, hm}',
  },
  // No translation of the first two: a message of formatted values alone formats in the locale, the
  // other shows the source text in the source locale.
  'fr-FR': { 'Paid on {d, date, day} at {d, time, hm}': 'Payé le {d, date, day} à {d, time, hm}' },
}
const LOCALES = ['en-US', 'de-DE', 'fr-FR']
const VALUES = { v: 123.457, d: Date.UTC(2026, 10, 28, 15, 4, 5) }

/** The text and the locale intl-messageformat formats for message `i` shown in `locale`. */
function oracleCase(i: number, locale: string): [string, string] {
  const translated = TRANSLATIONS[locale]?.[SOURCES[i]!]
  if (translated) return [translated, locale]
  return i === 0 ? [SOURCES[i]!, locale] : [SOURCES[i]!, 'en-US']
}

let project: IcuProject
let browser: Browser

beforeAll(async () => {
  project = await setupIcuProject(SOURCES, (source, locale) => TRANSLATIONS[locale]?.[source], [
    'de-DE',
    'fr-FR',
  ])
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  project?.close()
})

/** The page: each build's messages in each locale beside intl-messageformat's reading of the same case. */
function page(entries: { entry: string; locale: string; setLocale: boolean }[]): string {
  const cases = entries.map((e) => ({ ...e, oracle: SOURCES.map((_, i) => oracleCase(i, e.locale)) }))
  return `<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module">
import { IntlMessageFormat } from './imf.mjs'
const formats = ${JSON.stringify(FORMATS)}
const values = { v: ${VALUES.v}, d: new Date(${VALUES.d}) }
const out = []
for (const c of ${JSON.stringify(cases)}) {
  const app = await import(c.entry)
  if (c.setLocale) await app.setLocale(c.locale)
  out.push({
    entry: c.entry,
    locale: c.locale,
    got: app.messages.map((m) => m(values)),
    expected: c.oracle.map(([text, locale]) => new IntlMessageFormat(text, locale, formats).format(values)),
  })
}
document.body.dataset.out = JSON.stringify(out)
</script></body></html>`
}

test('{v, number, GBP} renders £123.46 in en-US and each locale its own form, as intl-messageformat with the same formats', async () => {
  const dir = join(project.root, 'site')
  mkdirSync(dir)
  const options = project.options({ formats: FORMATS })
  // Runtime mode with the texts at the call sites, inline mode, and runtime mode's default (the
  // source catalog).
  expect(await build({ ...options, sourceCatalog: false }, join(dir, 'runtime'))).toEqual([])
  expect(await build({ ...options, mode: 'inline' }, join(dir, 'inline'))).toEqual([])
  expect(await build(options, join(dir, 'source-catalog'))).toEqual([])
  copyFileSync(
    fileURLToPath(
      new URL('../../node_modules/intl-messageformat/intl-messageformat.iife.js', import.meta.url),
    ),
    join(dir, 'imf.mjs'),
  )
  writeFileSync(
    join(dir, 'index.html'),
    page([
      ...LOCALES.map((locale) => ({ entry: './runtime/main.js', locale, setLocale: locale !== 'en-US' })),
      ...LOCALES.map((locale) => ({ entry: `./inline/${locale}/main.js`, locale, setLocale: false })),
      // The source locale's messages in a catalog chunk too: loaded for en-US as for the others.
      ...LOCALES.map((locale) => ({ entry: './source-catalog/main.js', locale, setLocale: true })),
    ]),
  )
  const server = await serveStatic(dir)
  try {
    const tab = await browser.newPage()
    const errors: string[] = []
    tab.on('pageerror', (e) => errors.push(e.message))
    await tab.goto(`${server.url}/index.html`)
    const out = JSON.parse(
      (await (await tab.waitForSelector('body[data-out]', { state: 'attached' })).getAttribute('data-out')) ??
        '[]',
    ) as { entry: string; locale: string; got: string[]; expected: string[] }[]
    expect(errors).toEqual([])
    expect(out).toHaveLength(9)
    for (const o of out) expect(o.got, `${o.entry} in ${o.locale}`).toEqual(o.expected)
    const runtime = Object.fromEntries(
      out.filter((o) => o.entry.startsWith('./runtime')).map((o) => [o.locale, o.got]),
    )
    expect(runtime).toEqual({
      'en-US': ['£123.46', 'Wallet: £123.46', 'Paid on November 28, 2026 at 03:04 PM'],
      'de-DE': ['123,46\u00a0£', 'Geldbörse: 123,46\u00a0£', 'Bezahlt am 28. November 2026 um 15:04'],
      'fr-FR': ['123,46\u00a0£GB', 'Wallet: £123.46', 'Payé le 28 novembre 2026 à 15:04'],
    })
    await tab.close()
  } finally {
    await server.close()
  }
}, 180_000)

test('without formats, the build warns at the place of each message naming a format, and the value shows no style', async () => {
  const outDir = join(project.root, 'dist-plain')
  const warnings = await build(project.options(), outDir)
  // Rollup prints the place its own way: the file as a path from the working directory, `(line:column)`.
  const shown = warnings.map((w) =>
    w.slice(0, w.indexOf(' names the ')).replace(/^.*?src\/main\.js/, 'src/main.js'),
  )
  expect(shown.sort()).toEqual([
    'src/main.js (4:9): the message "{v, number, GBP}": {v, number, GBP}',
    'src/main.js (5:9): the message "Wallet: {v, number, GBP}": {v, number, GBP}',
    'src/main.js (6:9): the message "Paid on {d, date, day} at {d, time, hm}": {d, date, day}',
  ])
  expect(warnings.find((w) => w.includes('(5:9)'))).toContain(
    'names the number format "GBP", which is neither built in (integer, percent, currency) nor in the formats option: add formats.number.GBP (Intl.NumberFormatOptions) to the plugin options, or write a skeleton (::currency/EUR)',
  )
  // As intl-messageformat reads a name it is not given: no style.
  const app = (await import(pathToFileURL(join(outDir, 'main.js')).href)) as {
    messages: ((v: object) => string)[]
    setLocale: (locale: string) => Promise<void>
  }
  await app.setLocale('en-US')
  expect(app.messages[1]!({ v: 123.457 })).toBe('Wallet: 123.457')
  expect(new IntlMessageFormat('Wallet: {v, number, GBP}', 'en-US').format({ v: 123.457 })).toBe(
    'Wallet: 123.457',
  )
}, 120_000)
