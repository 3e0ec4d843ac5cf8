import { describe, expect, it } from 'vitest'
import type { Message } from '../../../src/core/extract/types'
import { matchCatalogs } from '../../../src/core/import/match'
import { renamingBetween, shapeOf } from '../../../src/core/import/shape'
import type { ConvertedCatalog } from '../../../src/core/import/types'

const ours = (text: string, line: number, variant: string | null = null): Message => ({
  key: `${variant}:${text}`,
  text,
  parsed: text,
  placeholders: [],
  variant,
  namespace: 'app',
  locations: [{ file: '/app/src/App.tsx', line, column: 3 }],
})

const catalog = (messages: ConvertedCatalog['messages']): ConvertedCatalog & { locale: string } => ({
  locale: 'fr-FR',
  file: 'locales/fr.po',
  messages,
  refusals: [],
  untranslated: [],
})

describe('shapeOf', () => {
  it('numbers values and tags by first appearance, opens self-closing tags, keeps quoted text', () => {
    expect(
      shapeOf("Read <0>the docs</0> or <1/>, {0} '{'x'}' {count, plural, one {# <0>x</0>} other {#}}"),
    ).toEqual({
      key: "Read <t0>the docs</t0> or <t1></t1>, {a0} '{'x'}' {a1, plural, one {# <t0>x</t0>} other {#}}",
      tags: ['0', '1'],
      args: ['0', 'count'],
    })
    const lingui = shapeOf('Read <0>the docs</0>, {0}')
    const mine = shapeOf('Read <a>the docs</a>, {user}')
    expect(lingui.key).toBe(mine.key)
    expect(renamingBetween(lingui, mine)).toEqual({ tags: { '0': 'a' }, arguments: { '0': 'user' } })
  })
})

describe('matchCatalogs', () => {
  const app = [
    ours('Read <a>the docs</a> or <br></br>', 3),
    ours('Hello {name}', 4),
    ours('Hi {first}', 5),
    ours('Hi {second}', 6),
    ours('Open', 7, 'button'),
  ]

  it('renames a translation into our names and checks it against our text', () => {
    const result = matchCatalogs(
      [
        catalog([
          { source: 'Read <0>the docs</0> or <1></1>', text: 'Lisez <0>la doc</0> ou <1></1>', line: 2 },
          { source: 'Hello {name}', text: 'Bonjour {name}', line: 5 },
          { source: 'Open', context: 'button', text: 'Ouvrir', line: 8 },
        ]),
      ],
      app,
      '/app',
    )
    expect(result.unmatched).toEqual([])
    expect(result.refused).toEqual([])
    expect(result.matched.map((m) => [m.message.text, m.text, m.from, m.converted])).toEqual([
      ['Read <a>the docs</a> or <br></br>', 'Lisez <a>la doc</a> ou <br></br>', 'locales/fr.po:2', true],
      ['Hello {name}', 'Bonjour {name}', 'locales/fr.po:5', false],
      ['Open', 'Ouvrir', 'locales/fr.po:8', false],
    ])
  })

  it('guesses nothing: two messages of one shape, another variant, a missing tag, an unknown text', () => {
    const result = matchCatalogs(
      [
        catalog([
          { source: 'Hi {0}', text: 'Salut {0}', line: 2 },
          { source: 'Open', text: 'Ouvrir', line: 4 },
          { source: 'Read <0>the docs</0> or <1/>', text: 'Lisez la doc', line: 6 },
          { source: 'Helo {name}', text: 'Bonjour {name}', line: 8 },
        ]),
      ],
      app,
      '/app',
    )
    expect(result.matched).toEqual([])
    expect(result.unmatched).toEqual([
      {
        from: 'locales/fr.po:2',
        locale: 'fr-FR',
        source: 'Hi {0}',
        reason:
          'its text "Hi {0}" has the shape of 2 messages of this app ("Hi {first}", "Hi {second}"); which one it translates is not guessed',
        ours: 'src/App.tsx:5, src/App.tsx:6',
      },
      {
        from: 'locales/fr.po:4',
        locale: 'fr-FR',
        source: 'Open',
        reason:
          'no message of this app has the text "Open"; "Open" has the variant "button" (a variant is part of a message\'s identity)',
        ours: 'src/App.tsx:7',
      },
      {
        from: 'locales/fr.po:8',
        locale: 'fr-FR',
        source: 'Helo {name}',
        reason:
          'no message of this app has the text "Helo {name}"; the nearest is "Hello {name}" at src/App.tsx:4',
        ours: 'src/App.tsx:4',
      },
    ])
    expect(result.refused).toEqual([
      {
        from: 'locales/fr.po:6',
        locale: 'fr-FR',
        source: 'Read <0>the docs</0> or <1/>',
        reason:
          'its translation "Lisez la doc" would be rejected against the source "Read <a>the docs</a> or <br></br>": it drops the tag <a>',
        ours: 'src/App.tsx:3',
      },
    ])
  })
})

describe('i18next context families', () => {
  it('keeps the reading the app uses and reports a family only when no reading of it matched', () => {
    const fr = catalog([
      { key: 'title', source: 'Title', text: 'Titre', line: 2, reading: 'title' },
      {
        key: 'title{context}',
        source: '{context, select, short {Short} other {Title}}',
        text: '{context, select, short {Court} other {Titre}}',
        line: 2,
        reading: 'title',
      },
      { key: 'title_short', source: 'Short', text: 'Court', line: 3, reading: 'title' },
      { key: 'gone', source: 'Gone', text: 'Parti', line: 4, reading: 'gone' },
      { key: 'gone_x', source: 'Gone x', text: 'Parti x', line: 5, reading: 'gone' },
    ])
    const result = matchCatalogs([fr], [ours('Title', 3), ours('Short', 4)], '/app')
    expect(result.matched.map((m) => [m.from, m.text])).toEqual([
      ['locales/fr.po:2', 'Titre'],
      ['locales/fr.po:3', 'Court'],
    ])
    expect(result.unmatched.map((p) => [p.from, p.key])).toEqual([
      ['locales/fr.po:4', 'gone'],
      ['locales/fr.po:5', 'gone_x'],
    ])
  })
})

describe('react-i18next nested numbers', () => {
  it('a number inside an element is named by its path, so the shape tells both elements apart', () => {
    const fr = catalog([
      {
        key: 'n',
        source: 'Click <1>the <1-1>docs</1-1> page</1>',
        text: 'Voir <1>la page <1-1>docs</1-1></1>',
        line: 2,
      },
    ])
    const result = matchCatalogs([fr], [ours('Click <a>the <b>docs</b> page</a>', 3)], '/app')
    expect(result.matched.map((m) => m.text)).toEqual(['Voir <a>la page <b>docs</b></a>'])
  })
})
