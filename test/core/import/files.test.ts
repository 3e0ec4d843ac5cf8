import IntlMessageFormat from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import { escapeIcuLiteral, renameIcu } from '../../../src/core/import/icu-text'
import { readJson } from '../../../src/core/import/json-lines'
import { localeFromPath, localeFromWord, resolveLocale } from '../../../src/core/import/locale'
import { parsePo } from '../../../src/core/import/po'

describe('locale of a file', () => {
  it('reads a language from a base name or its folder, and nothing from folders that are not languages', () => {
    expect(localeFromPath('src/locales/pl/messages.po')).toEqual({ locale: 'pl', inFolder: true })
    expect(localeFromPath('lang/pl.json')).toEqual({ locale: 'pl', inFolder: false })
    expect(localeFromPath('public/locales/zh_Hant_TW/common.json')).toEqual({
      locale: 'zh-Hant-TW',
      inFolder: true,
    })
    expect(localeFromPath('locales/en-US.json')).toEqual({ locale: 'en-US', inFolder: false })
    expect(localeFromPath('src/app/messages.json')).toBeUndefined()
    expect(localeFromPath('locales/dev/translation.json')).toBeUndefined()
    expect(localeFromWord('translation')).toBeUndefined()
  })

  it('prefers the parameter, then the header, and refuses a header that is not a locale', () => {
    expect(resolveLocale('lang/pl.po', 'pl-PL', 'de')).toBe('pl-PL')
    expect(resolveLocale('messages.po', undefined, 'pt_BR')).toBe('pt-BR')
    expect(() => resolveLocale('messages.po', undefined, 'Polish')).toThrow(
      'messages.po:1: its header names the language "Polish", which is not a locale; name the locale with the locale parameter',
    )
  })
})

describe('readJson', () => {
  it('gives the line of every value by key path, through arrays, escapes and keys with dots', () => {
    const text =
      '{\n  "a": {\n    "b.c": "x \\" }",\n    "d": [\n      1,\n      { "e": null }\n    ]\n  },\n  "f": true\n}'
    const json = readJson(text, 'x.json')
    expect(json.lineOf(['a'])).toBe(2)
    expect(json.lineOf(['a', 'b.c'])).toBe(3)
    expect(json.lineOf(['a', 'd'])).toBe(4)
    expect(json.lineOf(['a', 'd', '0'])).toBe(5)
    expect(json.lineOf(['a', 'd', '1', 'e'])).toBe(6)
    expect(json.lineOf(['f'])).toBe(9)
  })
})

describe('parsePo', () => {
  it('reads headers, escapes, flags, references and plural msgstr, dropping obsolete entries', () => {
    const po = [
      'msgid ""',
      'msgstr ""',
      '"Language: pl\\n"',
      '"Plural-Forms: nplurals=3;\\n"',
      '',
      '# translator note',
      '#: src/a.ts:1 src/b.ts:2',
      '#, fuzzy, c-format',
      'msgid "Say \\"hi\\"\\n"',
      'msgstr "Powiedz \\"cześć\\"\\n"',
      '#~ msgid "old"',
      '#~ msgstr "stare"',
      'msgid "file"',
      'msgid_plural "files"',
      'msgstr[0] "plik"',
      'msgstr[1] "pliki"',
    ].join('\n')
    expect(parsePo(po, 'pl.po')).toEqual({
      headers: { Language: 'pl', 'Plural-Forms': 'nplurals=3;' },
      entries: [
        {
          line: 6,
          msgid: 'Say "hi"\n',
          msgstr: ['Powiedz "cześć"\n'],
          extracted: [],
          translator: ['translator note'],
          flags: ['fuzzy', 'c-format'],
          references: ['src/a.ts:1', 'src/b.ts:2'],
        },
        {
          line: 13,
          msgid: 'file',
          msgidPlural: 'files',
          msgstr: ['plik', 'pliki'],
          extracted: [],
          translator: [],
          flags: [],
          references: [],
        },
      ],
    })
  })

  it('names the line of a stray continuation or an unknown keyword', () => {
    expect(() => parsePo('"x"\n', 'a.po')).toThrow('a.po:1: a quoted string continues no msgid or msgstr')
    expect(() => parsePo('msgid "a"\nmsgstr "b"\nmsgfoo "c"\n', 'a.po')).toThrow(
      'a.po:3: expected msgctxt, msgid, msgstr or a comment, found "msgfoo \\"c\\""',
    )
  })
})

describe('ICU text edits', () => {
  it('reads escaped literals back as the same characters, inside and outside plurals', () => {
    const texts = ["It's", "l'ami", "'", "''", "a'{b}'c", '{}', "<'>", "x'#'", "''{''", "50% & <3 '<'"]
    for (const text of texts) {
      expect(new IntlMessageFormat(escapeIcuLiteral(text, false), 'en').format()).toBe(text)
      const plural = `{n, plural, other {${escapeIcuLiteral(`# ${text}`, true)}}}`
      expect(new IntlMessageFormat(plural, 'en').format({ n: 2 })).toBe(`# ${text}`)
    }
  })

  it('renames only tags and arguments, never quoted text or plural selectors', () => {
    expect(
      renameIcu("'{0}' {0} <0>x</0> '<0>' {n, select, other {<0/>}}", {
        tags: { '0': 'b' },
        arguments: { '0': 'who', n: 'kind' },
      }),
    ).toEqual({
      text: "'{0}' {who} <b>x</b> '<0>' {kind, select, other {<b></b>}}",
      problems: [],
    })
    expect(renameIcu('<0>a</0> {1}', { tags: {}, arguments: {} }).problems).toEqual([
      'its tag <0> matches no element of our message',
      'its placeholder {1} matches no value of our message',
    ])
  })
})
