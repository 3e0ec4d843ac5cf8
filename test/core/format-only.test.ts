import { describe, expect, it } from 'vitest'
import { buildCatalog, type CatalogInput, type IdSource, standInLocale } from '../../src/core/catalog/index'
import type { Message } from '../../src/core/extract/types'
import { compileMessage } from '../../src/core/icu/compile'
import { MessageForms } from '../../src/core/icu/forms'
import { isFormatOnly } from '../../src/core/icu/parse'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'

/**
 * A message that is only formatted values (what `tms migrate` makes of react-intl's
 * `<FormattedNumber>`) has nothing to translate: a locale with no translation of it shows it formatted
 * in that locale, as the original did, not in the source locale as a missing translation.
 */

const message = (key: string, text: string): Message => ({
  key,
  text,
  parsed: text,
  placeholders: [],
  variant: null,
  namespace: null,
  locations: [],
})

const PRICE = '{price, number, ::currency/EUR}'
const price = message('k-price', PRICE)
const total = message('k-total', 'Total: {price, number, ::currency/EUR}')
const messages = new Map([price, total].map((m) => [m.key, m]))
const sources = new Map<string, IdSource>([
  ['p', { key: 'k-price' }],
  ['t', { key: 'k-total' }],
])

function input(translations: Map<string, string>): CatalogInput {
  const placeholder = { format: null, custom: APP_PLACEHOLDER_SOURCE }
  return { locale: 'fr-FR', sources, messages, translations, placeholder, forms: new MessageForms() }
}

describe('isFormatOnly', () => {
  it('is true for number, date and time arguments with only spaces around them', () => {
    expect(
      [PRICE, '{n, number}', ' {d, date, long} {d, time, short} ', '{p, number, percent}'].map(isFormatOnly),
    ).toEqual([true, true, true, true])
  })

  it('is false for text, plain arguments, plural and select, tags and what does not parse', () => {
    expect(
      [
        'Total: {p, number}',
        '{name}',
        '{n, plural, one {#} other {#}}',
        '{g, select, other {{n, number}}}',
        '<b>{n, number}</b>',
        'Hello',
        '{n, number',
      ].map(isFormatOnly),
    ).toEqual([false, false, false, false, false, false, false])
  })
})

describe('a format-only message with no translation', () => {
  it("is in the locale's catalog as itself, formatted in that locale; a message with words is not", () => {
    const catalog = buildCatalog(input(new Map()), ['p', 't'])
    expect([...catalog]).toEqual([['p', compileMessage(PRICE, 'fr-FR')]])
  })

  it('a translation of it still wins', () => {
    const catalog = buildCatalog(input(new Map([['k-price', '{price, number, ::currency/CHF}']])), ['p'])
    expect([...catalog]).toEqual([['p', compileMessage('{price, number, ::currency/CHF}', 'fr-FR')]])
  })

  it("an inline copy formats it in the copy's locale, a missing message with words in the source locale", () => {
    expect(standInLocale(input(new Map()), sources.get('p'), 'en-US')).toBeUndefined()
    expect(standInLocale(input(new Map()), sources.get('t'), 'en-US')).toBe('en-US')
  })
})
