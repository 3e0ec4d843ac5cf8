import { describe, expect, it } from 'vitest'
import { convertLingui } from '../../../src/core/import/convert-lingui'
import { attachSources } from '../../../src/core/import/finish'
import { readLinguiJson, readLinguiPo } from '../../../src/core/import/lingui'
import { ImportReadError } from '../../../src/core/import/types'

// Catalogs written for these tests, in the shape Lingui's extract writes.
const EN_PO = `msgid ""
msgstr ""
"POT-Creation-Date: 2026-01-01 10:00+0000\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Language: en\\n"

#: src/Inbox.tsx:12
msgid "Hello {name}"
msgstr "Hello {name}"

#. js-lingui-explicit-id
#: src/Inbox.tsx:20
msgid "inbox.count"
msgstr "{count, plural, one {# message} other {# messages}}"

#: src/Inbox.tsx:30
msgctxt "button"
msgid "Open"
msgstr "Open"
`

const PL_PO = `msgid ""
msgstr ""
"Language: pl\\n"

#. Shown at the top of the inbox
#: src/Inbox.tsx:12
msgid "Hello {name}"
msgstr "Cześć {name}"

#. js-lingui-explicit-id
msgid "inbox.count"
msgstr ""
"{count, plural, one {# wiadomość} few {# wiadomości} "
"many {# wiadomości} other {# wiadomości}}"

#, fuzzy
msgctxt "button"
msgid "Open"
msgstr "Otwórz"

msgid "Read <0>the docs</0> or <1/>"
msgstr "Przeczytaj <0>dokumentację</0> albo <1/>"

msgid "Not yet"
msgstr ""

#~ msgid "Gone"
#~ msgstr "Nie ma"
`

describe('readLinguiPo', () => {
  it('reads source-text ids, explicit ids, contexts, comments, fuzzy and continued strings with their lines', () => {
    const read = readLinguiPo(PL_PO, 'src/locales/pl/messages.po')
    expect(read.refusals).toEqual([])
    expect(read.catalog).toEqual({
      locale: 'pl',
      file: 'src/locales/pl/messages.po',
      entries: [
        {
          source: 'Hello {name}',
          translation: 'Cześć {name}',
          line: 5,
          comment: 'Shown at the top of the inbox',
        },
        {
          key: 'inbox.count',
          translation:
            '{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}',
          line: 10,
        },
        { source: 'Open', translation: 'Otwórz', line: 16, context: 'button', fuzzy: true },
        {
          source: 'Read <0>the docs</0> or <1/>',
          translation: 'Przeczytaj <0>dokumentację</0> albo <1/>',
          line: 21,
        },
        { source: 'Not yet', translation: '', line: 24 },
      ],
    })
  })

  it('takes the locale from the parameter over the header, and refuses a header that disagrees with the path', () => {
    expect(readLinguiPo(PL_PO, 'locales/de/messages.po', 'pl-PL').catalog.locale).toBe('pl-PL')
    expect(() => readLinguiPo(PL_PO, 'locales/de/messages.po')).toThrow(
      'locales/de/messages.po:1: its header says pl but its path says de; name the locale with the locale parameter',
    )
  })

  it('refuses gettext plurals and names a broken line', () => {
    const po = 'msgid "One file"\nmsgid_plural "{n} files"\nmsgstr[0] "Jeden plik"\nmsgstr[1] "{n} pliki"\n'
    expect(readLinguiPo(po, 'lang/pl.po').refusals).toEqual([
      {
        file: 'lang/pl.po',
        line: 1,
        key: 'One file',
        reason:
          "it is a gettext plural (msgid_plural, Lingui's po-gettext format); only ICU plurals inside msgstr are read",
      },
    ])
    const broken = 'msgid "a"\nmsgstr "b\n'
    expect(() => readLinguiPo(broken, 'lang/pl.po')).toThrow(ImportReadError)
    expect(() => readLinguiPo(broken, 'lang/pl.po')).toThrow(
      'lang/pl.po:2: expected a quoted string, found "\\"b"',
    )
  })
})

describe('readLinguiJson', () => {
  it('reads the lingui JSON format with sources, contexts and comments, skipping obsolete messages', () => {
    const json = `{
  "Hello {name}": {
    "message": "Hello {name}",
    "translation": "Cześć {name}",
    "comments": ["greeting"],
    "origin": [["src/App.tsx", 3]]
  },
  "open": { "translation": "Otwórz", "context": "button" },
  "old": { "translation": "Stare", "obsolete": true },
  "bad": 42
}`
    expect(readLinguiJson(json, 'lang/pl.json')).toEqual({
      catalog: {
        locale: 'pl',
        file: 'lang/pl.json',
        entries: [
          {
            key: 'Hello {name}',
            source: 'Hello {name}',
            translation: 'Cześć {name}',
            line: 2,
            comment: 'greeting',
          },
          { key: 'open', translation: 'Otwórz', line: 8, context: 'button' },
        ],
      },
      refusals: [
        {
          file: 'lang/pl.json',
          line: 10,
          key: 'bad',
          reason: 'a Lingui JSON message is a string or an object with a string translation',
        },
      ],
    })
  })

  it('reads the minimal format', () => {
    const json =
      '{\n  "inbox.count": "{count, plural, one {# wiadomość} other {# wiadomości}}",\n  "hi": "Cześć"\n}\n'
    expect(readLinguiJson(json, 'locales/pl/messages.json').catalog.entries).toEqual([
      { key: 'inbox.count', translation: '{count, plural, one {# wiadomość} other {# wiadomości}}', line: 2 },
      { key: 'hi', translation: 'Cześć', line: 3 },
    ])
  })
})

describe('convertLingui', () => {
  it('keeps numbered tags and placeholders without a mapping, opens self-closing tags, lists untranslated', () => {
    const converted = convertLingui(readLinguiPo(PL_PO, 'locales/pl/messages.po').catalog)
    expect(converted.refusals).toEqual([])
    expect(converted.untranslated).toEqual([{ source: 'Not yet', line: 24 }])
    expect(converted.messages.map((m) => [m.key ?? m.source, m.text])).toEqual([
      ['Hello {name}', 'Cześć {name}'],
      [
        'inbox.count',
        '{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}',
      ],
      ['Open', 'Otwórz'],
      ['Read <0>the docs</0> or <1></1>', 'Przeczytaj <0>dokumentację</0> albo <1></1>'],
    ])
  })

  it('renames tags and placeholders through a mapping, and refuses a number the mapping lacks', () => {
    const catalog = {
      locale: 'pl',
      file: 'pl.po',
      entries: [
        {
          source: 'Read <0>the docs</0>, {0}<1/>',
          translation: "Przeczytaj <0>dokumentację</0>, {0}<1/> '<0>'",
          line: 3,
        },
        { source: 'See <2>this</2>', translation: 'Zobacz <2>to</2>', line: 7 },
      ],
    }
    const converted = convertLingui(catalog, { tags: { '0': 'link', '1': 'br' }, arguments: { '0': 'user' } })
    expect(converted.messages).toEqual([
      {
        source: 'Read <link>the docs</link>, {user}<br></br>',
        text: "Przeczytaj <link>dokumentację</link>, {user}<br></br> '<0>'",
        line: 3,
      },
    ])
    expect(converted.refusals).toEqual([
      {
        file: 'pl.po',
        line: 7,
        key: 'See <2>this</2>',
        reason: 'its source text: its tag <2> matches no element of our message',
      },
    ])
  })

  it('renames an argument inside a plural but not a plural branch', () => {
    const catalog = {
      locale: 'pl',
      file: 'pl.po',
      entries: [{ key: 'k', translation: '{0, plural, one {{0} plik {name}} other {# plików}}', line: 1 }],
    }
    expect(convertLingui(catalog, { arguments: { '0': 'count', name: 'who' } }).messages[0]!.text).toBe(
      '{count, plural, one {{count} plik {who}} other {# plików}}',
    )
  })

  it('refuses a translation that does not parse or disagrees with its source, naming file and line', () => {
    const catalog = {
      locale: 'pl',
      file: 'locales/pl/messages.po',
      entries: [
        { source: 'Hello {name}', translation: 'Cześć {imie}', line: 4 },
        { source: 'Files', translation: '{n, plural, one {plik}}', line: 9 },
      ],
    }
    expect(convertLingui(catalog).refusals).toEqual([
      {
        file: 'locales/pl/messages.po',
        line: 4,
        key: 'Hello {name}',
        reason:
          'its translation "Cześć {imie}" would be rejected against the source "Hello {name}": it uses the argument {imie}, which the source does not',
      },
      {
        file: 'locales/pl/messages.po',
        line: 9,
        key: 'Files',
        reason:
          'it is not valid ICU MessageFormat: a plural or select has no `other` branch, at character 22 of "{n, plural, one {plik}}"',
      },
    ])
  })

  it('gives explicit ids their source from the source-locale catalog, and refuses an id it lacks', () => {
    const en = convertLingui(readLinguiPo(EN_PO, 'locales/en/messages.po').catalog)
    const pl = convertLingui({
      locale: 'pl',
      file: 'locales/pl/messages.po',
      entries: [
        {
          key: 'inbox.count',
          translation: '{count, plural, one {# wiadomość} other {# wiadomości}}',
          line: 2,
        },
        { key: 'inbox.gone', translation: 'Nie ma', line: 5 },
      ],
    })
    const joined = attachSources(pl, en)
    expect(joined.messages).toEqual([
      {
        key: 'inbox.count',
        source: '{count, plural, one {# message} other {# messages}}',
        text: '{count, plural, one {# wiadomość} other {# wiadomości}}',
        line: 2,
      },
    ])
    expect(joined.refusals).toEqual([
      {
        file: 'locales/pl/messages.po',
        line: 5,
        key: 'inbox.gone',
        reason:
          "its key has no message in the source locale's catalog locales/en/messages.po (en), so its source text is unknown",
      },
    ])
  })
})
