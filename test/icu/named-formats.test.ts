import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, test } from 'vitest'
import { unknownStyleDiagnostics } from '../../src/core/check/styles'
import { extractMessages } from '../../src/core/extract/index'
import { checkIcuTranslation } from '../../src/core/icu/check'
import { compileMessage } from '../../src/core/icu/compile'
import { unknownStyleProblem } from '../../src/core/icu/styles'
import { messageProblem, translationProblem } from '../../src/core/import/check'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'
import { type Options, resolveOptions } from '../../src/options'
import { formatParts } from '../../src/runtime/icu'

/**
 * Named formats (`formats`, react-intl's `<IntlProvider formats>` shape): compiled into the message's
 * form, checked at setup, and a style name nobody defines is an error rather than a plain number.
 */

const FORMATS = {
  number: { GBP: { style: 'currency', currency: 'GBP' }, EUR: { style: 'currency', currency: 'EUR' } },
  date: { day: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' } },
  time: { hm: { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' } },
} as const satisfies Options['formats']

const resolved = (formats: unknown) =>
  resolveOptions({ locales: ['de-DE'], formats } as Options, { command: 'build', env: {} }).formats

describe('compile with formats', () => {
  test('a named number format compiles to its Intl options and formats as intl-messageformat does', () => {
    const text = 'Wallet: {walletValue, number, GBP}'
    expect(compileMessage(text, 'en-US', FORMATS)).toEqual([
      'Wallet: ',
      ['walletValue', 1, { style: 'currency', currency: 'GBP' }],
    ])
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'ja-JP']) {
      const got = formatParts(compileMessage(text, locale, FORMATS), { walletValue: 123.457 }, locale)
      expect(got).toBe(new IntlMessageFormat(text, locale, FORMATS).format({ walletValue: 123.457 }))
    }
    expect(formatParts(compileMessage(text, 'en-US', FORMATS), { walletValue: 123.457 }, 'en-US')).toBe(
      'Wallet: £123.46',
    )
  })

  test('named date and time formats, and a built-in name overridden (merged over the built-in, as react-intl)', () => {
    const formats = { ...FORMATS, date: { ...FORMATS.date, short: { month: 'long' } } } as Options['formats']
    const text = '{d, date, day} at {d, time, hm}; {d, date, short}; {d, time}'
    expect(compileMessage(text, 'en-US', formats)).toEqual([
      ['d', 2, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }],
      ' at ',
      ['d', 2, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }],
      '; ',
      ['d', 2, { month: 'long', day: 'numeric', year: '2-digit' }],
      '; ',
      ['d', 2, { hour: 'numeric', minute: 'numeric', second: 'numeric' }],
    ])
    const d = new Date(Date.UTC(2026, 10, 28, 15, 4, 5))
    for (const locale of ['en-US', 'de-DE']) {
      const got = formatParts(compileMessage(text, locale, formats), { d }, locale)
      expect(got).toBe(new IntlMessageFormat(text, locale, formats as never).format({ d }))
    }
    expect(
      formatParts(compileMessage('{d, date, day} at {d, time, hm}', 'en-US', FORMATS), { d }, 'en-US'),
    ).toBe('November 28, 2026 at 03:04 PM')
  })
})

describe('unknown style names', () => {
  test('a source message naming a format that is neither built in nor in formats is a problem naming the fix', () => {
    expect(unknownStyleProblem('Wallet: {walletValue, number, GBP}', {})).toEqual({
      offset: 8,
      problem:
        '{walletValue, number, GBP} names the number format "GBP", which is neither built in (integer, percent, currency) nor in the formats option: add formats.number.GBP (Intl.NumberFormatOptions) to the plugin options, or write a skeleton (::currency/EUR)',
    })
    expect(unknownStyleProblem('Wallet: {walletValue, number, GBP}', FORMATS)).toBeUndefined()
    expect(unknownStyleProblem('{d, time, hm} {n, number, percent} {d, date, long}', FORMATS)).toBeUndefined()
    expect(unknownStyleProblem('{n, plural, other {{d, date, sometime}}}', FORMATS)?.problem).toMatch(
      /^\{d, date, sometime\} names the date format "sometime", which is neither built in \(short, medium, long, full\)/,
    )
  })

  test('the build warns at each place of such a message (file:line:column)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tms-formats-'))
    writeFileSync(
      join(root, 'app.js'),
      "import { t } from 'unplugin-tms/runtime'\n\nt('Wallet: {v, number, GBP}')\n",
    )
    const { messages } = await extractMessages({ cwd: root, include: ['app.js'], workers: 0 })
    const placeholder = { format: null, custom: APP_PLACEHOLDER_SOURCE }
    const found = unknownStyleDiagnostics(messages, {}, placeholder, root)
    expect(found.map((d) => [d.severity, d.code, d.message])).toEqual([
      [
        'warning',
        'unknown-format',
        'app.js:3:1: the message "Wallet: {v, number, GBP}": {v, number, GBP} names the number format "GBP", which is neither built in (integer, percent, currency) nor in the formats option: add formats.number.GBP (Intl.NumberFormatOptions) to the plugin options, or write a skeleton (::currency/EUR)',
      ],
    ])
    expect(unknownStyleDiagnostics(messages, FORMATS, placeholder, root)).toEqual([])
  })

  test('a translation naming an unknown format is refused; one in another currency through a name too', () => {
    const source = 'Wallet: {v, number, GBP}'
    expect(checkIcuTranslation(source, 'Geldbörse: {v, number, GBP}', 'de-DE', FORMATS)).toEqual({
      ok: true,
      warnings: [],
      missingCategories: [],
    })
    expect(checkIcuTranslation(source, 'Geldbörse: {v, number, GBPX}', 'de-DE', FORMATS)).toEqual({
      ok: false,
      reason: 'it names the number format "GBPX", which is neither built in nor in the formats option',
    })
    expect(checkIcuTranslation(source, 'Geldbörse: {v, number, EUR}', 'de-DE', FORMATS)).toEqual({
      ok: false,
      reason: 'it formats money in EUR, where the source uses GBP',
    })
  })

  test("tms import checks a translation with the config's formats, as the build does", () => {
    expect(messageProblem('Wallet: {v, number, GBP}')).toBeUndefined()
    expect(
      translationProblem('Wallet: {v, number, GBP}', 'Geldbörse: {v, number, GBP}', 'de-DE', FORMATS),
    ).toBeUndefined()
    expect(
      translationProblem('Wallet: {v, number, GBP}', 'Geldbörse: {v, number, EUR}', 'de-DE', FORMATS),
    ).toBe(
      'its translation "Geldbörse: {v, number, EUR}" would be rejected against the source "Wallet: {v, number, GBP}": it formats money in EUR, where the source uses GBP',
    )
  })
})

/** The message of the error `make` throws (what this Node's Intl says of the options it refuses). */
function intlRefusal(make: () => unknown): string {
  try {
    make()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('Intl took the options')
}

describe('the formats option', () => {
  test('is kept as given, and named by its path when Intl refuses it', () => {
    expect(resolved(FORMATS)).toEqual(FORMATS)
    expect(resolved(undefined)).toEqual({})
    const cases: [unknown, string][] = [
      [
        { number: { GBP: { style: 'currency' } } },
        '[unplugin-tms] formats.number.GBP.style: Intl.NumberFormat refuses these options: "Currency code is required with currency style."; fix the option',
      ],
      [
        { number: { GBP: { style: 'currency', currency: 'GBPX' } } },
        '[unplugin-tms] formats.number.GBP.currency: Intl.NumberFormat refuses these options: "Invalid currency code : GBPX"; fix the option',
      ],
      [
        { date: { short: { dateStyle: 'short' } } },
        // Each V8 words this refusal its own way; the message quotes the one running.
        `[unplugin-tms] formats.date.short.dateStyle: Intl.DateTimeFormat refuses these options (merged over the built-in date style "short", {"month":"numeric","day":"numeric","year":"2-digit"}, as react-intl merges it): "${intlRefusal(() => new Intl.DateTimeFormat('en', { month: 'numeric', day: 'numeric', year: '2-digit', dateStyle: 'short' }))}"; fix the option`,
      ],
      [{ currency: {} }, '[unplugin-tms] formats.currency is not a kind of format: use number, date or time'],
      [{ number: [] }, '[unplugin-tms] formats.number must be an object of named formats'],
      [
        { number: { GBP: 'currency' } },
        "[unplugin-tms] formats.number.GBP must be an object of Intl options, e.g. { style: 'currency' }",
      ],
      [
        { number: { 'my GBP': {} } },
        '[unplugin-tms] formats.number.my GBP: a message cannot name this format (no spaces, braces, quotes, commas, colons, # or <>)',
      ],
      [
        { number: { GBP: { currency: ['GBP'] } } },
        '[unplugin-tms] formats.number.GBP.currency must be a string, number or boolean',
      ],
      ['GBP', '[unplugin-tms] formats must be an object such as { number: { GBP: { ... } } }'],
    ]
    const thrown = cases.map(([formats]) => {
      try {
        resolved(formats)
        return 'no error'
      } catch (error) {
        return `${(error as Error).message}`
      }
    })
    expect(thrown).toEqual(cases.map(([, message]) => message))
  })
})
