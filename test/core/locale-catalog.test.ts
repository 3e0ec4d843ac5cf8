import { describe, expect, it } from 'vitest'
import {
  buildCatalog,
  type CatalogInput,
  catalogRows,
  eachCatalogTranslation,
  type IdSource,
  inlineText,
  restoreSitePlaceholders,
  sourceTextOf,
  usedIds,
} from '../../src/core/catalog/index'
import type { Message } from '../../src/core/extract/types'
import { compileMessage } from '../../src/core/icu/compile'
import { MessageForms } from '../../src/core/icu/forms'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'

/** The catalog work alone: messages and translations in, catalogs and texts out, no bundler. */

const placeholder = { format: null, custom: APP_PLACEHOLDER_SOURCE }

function message(key: string, text: string, parsed: string, placeholders: string[]): Message {
  return { key, text, parsed, placeholders, variant: null, namespace: null, locations: [] }
}

const hello = message('k-hello', 'Hello {name}!', 'Hello {0}!', ['{name}'])
const bye = message('k-bye', 'Bye', 'Bye', [])
const items = message(
  'k-items',
  '{n, plural, one {# item} other {# items}}',
  '{n, plural, one {# item} other {# items}}',
  [],
)
const messages = new Map([hello, bye, items].map((m) => [m.key, m]))

/** Ids: `a` is hello as written, `b` is hello reached as `{who}`, `c` is bye, `d` the ICU plural, `e` a message not pulled. */
const sources = new Map<string, IdSource>([
  ['a', { key: 'k-hello' }],
  ['b', { key: 'k-hello', spelling: ['{who}'] }],
  ['c', { key: 'k-bye' }],
  ['d', { key: 'k-items' }],
  ['e', { key: 'k-unknown' }],
])

function input(translations: Map<string, string> | undefined): CatalogInput {
  return { locale: 'fr-FR', sources, messages, translations, placeholder, forms: new MessageForms() }
}

const french = new Map([
  ['k-hello', 'Bonjour {name} !'],
  ['k-bye', 'Au revoir'],
  ['k-items', '{n, plural, one {# article} other {# articles}}'],
])

describe('buildCatalog', () => {
  it('maps each id to its translation, re-spelled for its sites, ICU compiled, unknown ids left out', () => {
    const catalog = buildCatalog(input(french), ['a', 'b', 'c', 'd', 'e'])
    expect([...catalog]).toEqual([
      ['a', 'Bonjour {name} !'],
      ['b', 'Bonjour {who} !'],
      ['c', 'Au revoir'],
      ['d', compileMessage('{n, plural, one {# article} other {# articles}}', 'fr-FR')],
    ])
  })

  it('holds only the ids asked for, and nothing for a locale with no translations', () => {
    expect([...buildCatalog(input(french), ['c'])]).toEqual([['c', 'Au revoir']])
    expect(buildCatalog(input(undefined), ['a', 'b', 'c']).size).toBe(0)
  })

  it('leaves out a translation that cannot show: placeholders that do not match, ICU that does not compile', () => {
    const broken = new Map([
      ['k-hello', 'Bonjour {nom} !'],
      ['k-items', '{n, plural, one {# article}'],
    ])
    // `a` ships the text as pulled (the pull checked it); `b` must be re-spelled, which needs it to match.
    expect([...buildCatalog(input(broken), ['a', 'b', 'd'])]).toEqual([['a', 'Bonjour {nom} !']])
  })
})

describe('buildCatalog with a source fallback (sourceCatalog)', () => {
  const complete = (translations: Map<string, string> | undefined, locale = 'fr-FR') => ({
    ...input(translations),
    locale,
    fallback: 'en-US',
  })

  it('gives an id without a usable translation its source message, ICU compiled and formatted in the source locale', () => {
    const partial = new Map([
      ['k-hello', 'Bonjour {nom} !'],
      ['k-items', '{n, plural, one {# article}'],
    ])
    // `a` ships the pulled text as before; `b` cannot be re-spelled, `d` does not compile, `c` is not translated.
    expect([...buildCatalog(complete(partial), ['a', 'b', 'c', 'd', 'e'])]).toEqual([
      ['a', 'Bonjour {nom} !'],
      ['b', 'Hello {who}!'],
      ['c', 'Bye'],
      // Kept in en-US: the page's locale would pick its own plural categories for an English text.
      ['d', [['en-US', 7, compileMessage('{n, plural, one {# item} other {# items}}', 'en-US')]]],
    ])
  })

  it("makes the source locale's catalog (no translations) of the source messages in each site's spelling", () => {
    const source = complete(undefined, 'en-US')
    expect([...buildCatalog(source, ['a', 'b', 'c', 'd'])]).toEqual([
      ['a', 'Hello {name}!'],
      ['b', 'Hello {who}!'],
      ['c', 'Bye'],
      ['d', compileMessage('{n, plural, one {# item} other {# items}}', 'en-US')],
    ])
    const rows = catalogRows(sources, messages, ['a', 'c'])
    const out: unknown[] = []
    eachCatalogTranslation(source, rows, (_, translation, id) => out.push([id, translation]))
    expect(out).toEqual([
      ['a', 'Hello {name}!'],
      ['c', 'Bye'],
    ])
  })
})

describe('eachCatalogTranslation', () => {
  /** The translations over rows, as the catalog of every id makes them for each locale's literal. */
  function translationsOver(
    translations: Map<string, string> | undefined,
    ids: string[],
  ): [string, unknown][] {
    const rows = catalogRows(sources, messages, ids)
    const out: [string, unknown][] = []
    eachCatalogTranslation(input(translations), rows, (i, translation) =>
      out.push([rows[i]!.id, translation]),
    )
    return out
  }

  it('gives what buildCatalog gives, in the rows order: re-spelled, ICU compiled, unknown and unfit left out', () => {
    const broken = new Map([
      ['k-hello', 'Bonjour {nom} !'],
      ['k-items', '{n, plural, one {# article}'],
    ])
    for (const translations of [french, broken, undefined]) {
      for (const ids of [
        ['a', 'b', 'c', 'd', 'e'],
        ['e', 'd', 'b'],
      ]) {
        expect(translationsOver(translations, ids)).toEqual([...buildCatalog(input(translations), ids)])
      }
    }
    expect(translationsOver(french, ['e', 'd', 'c'])).toEqual([
      ['d', compileMessage('{n, plural, one {# article} other {# articles}}', 'fr-FR')],
      ['c', 'Au revoir'],
    ])
  })

  it('catalogRows: one row per id that stands for something, its message looked up and ICU told once', () => {
    expect(catalogRows(sources, messages, ['d', 'x', 'b', 'e'])).toEqual([
      { id: 'd', source: { key: 'k-items' }, message: items, icu: true },
      { id: 'b', source: { key: 'k-hello', spelling: ['{who}'] }, message: hello, icu: false },
      { id: 'e', source: { key: 'k-unknown' }, message: undefined, icu: false },
    ])
  })
})

describe('the texts of ids', () => {
  it('restoreSitePlaceholders: a translation in the spelling of the sites, or undefined when it does not match', () => {
    expect(
      restoreSitePlaceholders({ key: 'k-hello', spelling: ['{who}'] }, 'Salut {0}', hello, placeholder),
    ).toBe('Salut {who}')
    expect(
      restoreSitePlaceholders({ key: 'k-hello', spelling: ['{who}'] }, 'Salut', hello, placeholder),
    ).toBeUndefined()
    expect(restoreSitePlaceholders({ key: 'k-hello' }, 'Salut {name}', hello, placeholder)).toBe(
      'Salut {name}',
    )
  })

  it('sourceTextOf: the source in the spelling of the sites; undefined for an unknown message', () => {
    expect(sourceTextOf({ key: 'k-hello' }, hello)).toBe('Hello {name}!')
    expect(sourceTextOf({ key: 'k-hello', spelling: ['{who}'] }, hello)).toBe('Hello {who}!')
    expect(sourceTextOf({ key: 'k-unknown' }, undefined)).toBeUndefined()
  })

  it('inlineText: the translation, else the source text', () => {
    const b = sources.get('b')!
    expect(inlineText(input(french), b, 'Hello {who}!')).toBe('Bonjour {who} !')
    expect(inlineText(input(new Map()), b, 'Hello {who}!')).toBe('Hello {who}!')
    expect(inlineText(input(new Map([['k-hello', 'Salut']])), b, 'Hello {who}!')).toBe('Hello {who}!')
    expect(inlineText(input(french), undefined, undefined)).toBeUndefined()
  })
})

describe('usedIds', () => {
  it('is the union of the ids the given modules use, modules named as the bundler names them', () => {
    const fileIds = new Map([
      ['/app/a.js', new Set(['a', 'c'])],
      ['/app/b.js', new Set(['c', 'd'])],
    ])
    expect([...usedIds(fileIds, ['/app/a.js', '/app/b.js'])].sort()).toEqual(['a', 'c', 'd'])
    expect([...usedIds(fileIds, ['/app/b.js?v=1', '/app/none.js'], (f) => f.split('?')[0]!)]).toEqual([
      'c',
      'd',
    ])
  })
})
