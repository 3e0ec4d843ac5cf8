import { parse } from '@formatjs/icu-messageformat-parser'
import { describe, expect, it } from 'vitest'
import { convertFormatjs } from '../../../src/core/import/convert-formatjs'
import { attachSources } from '../../../src/core/import/finish'
import { readFormatjsExtracted, readFormatjsTranslations } from '../../../src/core/import/formatjs'

// Files written for these tests, in the shapes `formatjs extract` and `formatjs compile` write.
const EXTRACTED = `{
  "cart.items": {
    "defaultMessage": "You have {count, plural, one {# item} other {# items}} in <b>your cart</b>",
    "description": "Cart summary"
  },
  "greeting": {
    "defaultMessage": "Hello {name}",
    "description": { "context": "header", "maxLength": 30 }
  },
  "broken": { "description": "no message" }
}
`

describe('FormatJS readers', () => {
  it('reads the extracted file: id, defaultMessage as source, description as comment', () => {
    expect(readFormatjsExtracted(EXTRACTED, 'lang/extracted.json', 'en')).toEqual({
      catalog: {
        locale: 'en',
        file: 'lang/extracted.json',
        entries: [
          {
            key: 'cart.items',
            source: 'You have {count, plural, one {# item} other {# items}} in <b>your cart</b>',
            translation: 'You have {count, plural, one {# item} other {# items}} in <b>your cart</b>',
            line: 2,
            comment: 'Cart summary',
          },
          {
            key: 'greeting',
            source: 'Hello {name}',
            translation: 'Hello {name}',
            line: 6,
            comment: '{"context":"header","maxLength":30}',
          },
        ],
      },
      refusals: [
        {
          file: 'lang/extracted.json',
          line: 10,
          key: 'broken',
          reason: 'an extracted message is an object with a string defaultMessage',
        },
      ],
    })
  })

  it('reads translations as strings, defaultMessage objects and compiled ASTs', () => {
    const ast = parse('Cześć <b>{name}</b>')
    const text = JSON.stringify(
      {
        greeting: ast,
        'cart.items': { defaultMessage: 'Masz {count, plural, one {# rzecz} other {# rzeczy}}' },
        plain: 'Tekst',
        bad: [1, 2],
        worse: true,
      },
      null,
      2,
    )
    const read = readFormatjsTranslations(text, 'compiled-lang/pl.json')
    expect(read.catalog.entries).toEqual([
      { key: 'greeting', translation: 'Cześć <b>{name}</b>', line: 2 },
      { key: 'cart.items', translation: 'Masz {count, plural, one {# rzecz} other {# rzeczy}}', line: 18 },
      { key: 'plain', translation: 'Tekst', line: 21 },
    ])
    expect(read.catalog.locale).toBe('pl')
    expect(read.refusals).toEqual([
      {
        file: 'compiled-lang/pl.json',
        line: 22,
        key: 'bad',
        reason: 'its value is an array that is not a compiled ICU AST (elements with a numeric type)',
      },
      {
        file: 'compiled-lang/pl.json',
        line: 26,
        key: 'worse',
        reason: 'a translation is a string, an object with a string defaultMessage, or a compiled AST',
      },
    ])
  })
})

describe('convertFormatjs', () => {
  it('keeps ICU as is, joins sources from the extracted file by id and checks each translation against its source', () => {
    const source = convertFormatjs(readFormatjsExtracted(EXTRACTED, 'lang/extracted.json', 'en').catalog)
    const pl = convertFormatjs({
      locale: 'pl',
      file: 'lang/pl.json',
      entries: [
        {
          key: 'cart.items',
          translation:
            'Masz {count, plural, one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}} w <b>koszyku</b>',
          line: 2,
        },
        { key: 'greeting', translation: 'Cześć {name} <i>!</i>', line: 3 },
        { key: 'broken', translation: 'Cześć {name', line: 4 },
      ],
    })
    expect(pl.refusals).toEqual([
      {
        file: 'lang/pl.json',
        line: 4,
        key: 'broken',
        reason:
          'it is not valid ICU MessageFormat: an argument is not closed with }, at character 6 of "Cześć {name"',
      },
    ])
    const joined = attachSources(pl, source)
    expect(joined.messages).toEqual([
      {
        key: 'cart.items',
        source: 'You have {count, plural, one {# item} other {# items}} in <b>your cart</b>',
        text: 'Masz {count, plural, one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}} w <b>koszyku</b>',
        line: 2,
      },
    ])
    expect(joined.refusals).toEqual([
      {
        file: 'lang/pl.json',
        line: 4,
        key: 'broken',
        reason:
          'it is not valid ICU MessageFormat: an argument is not closed with }, at character 6 of "Cześć {name"',
      },
      {
        file: 'lang/pl.json',
        line: 3,
        key: 'greeting',
        reason:
          'its translation "Cześć {name} <i>!</i>" would be rejected against the source "Hello {name}": it has the tag <i>, which the source does not',
      },
    ])
  })
})
