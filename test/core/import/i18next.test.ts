import IntlMessageFormat from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import { convertI18next, i18nextText } from '../../../src/core/import/convert-i18next'
import { attachSources } from '../../../src/core/import/finish'
import { readI18next } from '../../../src/core/import/i18next'

// Resources written for these tests, in i18next's JSON v4 shape.
const PL = `{
  "inbox": {
    "title": "Skrzynka {{name}}",
    "files_one": "{{count}} plik",
    "files_few": "{{count}} pliki",
    "files_many": "{{count}} plików",
    "files_other": "{{count}} pliku",
    "files_zero": "Brak plików"
  },
  "friend": "Przyjaciel",
  "friend_male": "Kolega",
  "friend_female": "Koleżanka",
  "tags": ["a", "b"],
  "count": 3
}
`

describe('readI18next', () => {
  it('flattens nested keys with their lines, takes locale and namespace from the path, refuses arrays and numbers', () => {
    expect(readI18next(PL, 'public/locales/pl/common.json')).toEqual({
      catalog: {
        locale: 'pl',
        file: 'public/locales/pl/common.json',
        namespace: 'common',
        entries: [
          { key: 'inbox.title', translation: 'Skrzynka {{name}}', line: 3 },
          { key: 'inbox.files_one', translation: '{{count}} plik', line: 4 },
          { key: 'inbox.files_few', translation: '{{count}} pliki', line: 5 },
          { key: 'inbox.files_many', translation: '{{count}} plików', line: 6 },
          { key: 'inbox.files_other', translation: '{{count}} pliku', line: 7 },
          { key: 'inbox.files_zero', translation: 'Brak plików', line: 8 },
          { key: 'friend', translation: 'Przyjaciel', line: 10 },
          { key: 'friend_male', translation: 'Kolega', line: 11 },
          { key: 'friend_female', translation: 'Koleżanka', line: 12 },
        ],
      },
      refusals: [
        {
          file: 'public/locales/pl/common.json',
          line: 13,
          key: 'tags',
          reason:
            'it is an array (read with returnObjects), which has no message form; make each item its own key',
        },
        {
          file: 'public/locales/pl/common.json',
          line: 14,
          key: 'count',
          reason: 'its value is 3, not a text',
        },
      ],
    })
  })

  it('reads lang/pl.json with no namespace, and a folder that is not a language gives no locale', () => {
    expect(readI18next('{"a": "b"}', 'lang/pt_BR.json').catalog).toEqual({
      locale: 'pt-BR',
      file: 'lang/pt_BR.json',
      entries: [{ key: 'a', translation: 'b', line: 1 }],
    })
    expect(() => readI18next('{}', 'src/app/common.json')).toThrow(
      'src/app/common.json:1: neither its header nor its path names a locale (lang/pl.json, locales/pl/messages.po); name the locale with the locale parameter',
    )
    expect(readI18next('{}', 'src/app/common.json', { locale: 'de', namespace: 'ns' }).catalog).toEqual({
      locale: 'de',
      file: 'src/app/common.json',
      namespace: 'ns',
      entries: [],
    })
  })

  it('names the line of a JSON syntax error', () => {
    expect(() => readI18next('{\n  "a": "b",\n  "c" "d"\n}', 'lang/pl.json')).toThrow(
      /^lang\/pl\.json:3: it is not valid JSON: /,
    )
  })

  it('reads an empty file (a namespace never filled) as no keys, as i18next loads nothing from it', () => {
    for (const text of ['', '\n', '\uFEFF  \n'])
      expect(readI18next(text, 'public/locales/es/glossary.json')).toEqual({
        catalog: {
          locale: 'es',
          file: 'public/locales/es/glossary.json',
          namespace: 'glossary',
          entries: [],
        },
        refusals: [],
      })
    expect(() => readI18next('{', 'public/locales/es/glossary.json')).toThrow('not valid JSON')
  })
})

describe('i18nextText', () => {
  it('turns {{x}} and {{- x}} into {x}, escapes ICU syntax in the text, opens self-closing tags', () => {
    expect(i18nextText("{{- who}} wrote {{ what }} l'ami '{x}' <1>link</1><br/> a < b", false)).toEqual({
      text: "{who} wrote {what} l'ami '''{'x'}''' <1>link</1><br></br> a '<' b",
    })
    expect(i18nextText('# {{count}}', true)).toEqual({ text: "'#' {count}" })
    // The escaped text reads back as the characters i18next would show.
    const text = "{{who}} wrote l'ami '{x}' a < b ''"
    const converted = i18nextText(text, false)
    if (!('text' in converted)) throw new Error(converted.problem)
    expect(new IntlMessageFormat(converted.text, 'en').format({ who: 'Ann' })).toBe(
      "Ann wrote l'ami '{x}' a < b ''",
    )
    expect(i18nextText('<1>x</1>', false, { tags: { '1': 'link' } })).toEqual({ text: '<link>x</link>' })
    // react-i18next counts again inside an element: the inner <1> is another element than the outer.
    expect(i18nextText('<1>a <1>b</1><0/></1> <2>c</2>', false)).toEqual({
      text: '<1>a <1-1>b</1-1><1-0></1-0></1> <2>c</2>',
    })
  })

  it('refuses what has no ICU form', () => {
    expect(i18nextText('{{n, number}} items', false)).toEqual({
      problem:
        'its value {{n, number}} is formatted by i18next (number); write it as ICU ({x, number}, {x, date}) by hand',
    })
    expect(i18nextText('Hi {{user.name}}', false)).toEqual({
      problem: 'its value {{user.name}} is not a plain name (ICU arguments have no paths or spaces)',
    })
    expect(i18nextText('See $t(other.key)', false)).toEqual({
      problem: 'it nests another key with $t(other.key), which has no ICU form; write the text out',
    })
    expect(i18nextText('<2>x</2>', false, { tags: { '1': 'link' } })).toEqual({
      problem: 'its tag <2> matches no element of our message',
    })
  })
})

describe('convertI18next', () => {
  it('makes one plural per suffix family; a context family is each key and also one select', () => {
    const converted = convertI18next(readI18next(PL, 'locales/pl/common.json').catalog)
    expect(converted.refusals).toEqual([])
    expect(converted.messages).toEqual([
      { key: 'inbox.title', text: 'Skrzynka {name}', line: 3 },
      {
        key: 'inbox.files',
        text: '{count, plural, =0 {Brak plików} one {{count} plik} few {{count} pliki} many {{count} plików} other {{count} pliku}}',
        line: 4,
        reading: 'inbox.files',
      },
      // Each form is also its own key: t('inbox.files_one') without count reads it as written.
      { key: 'inbox.files_one', text: '{count} plik', line: 4, reading: 'inbox.files' },
      { key: 'inbox.files_few', text: '{count} pliki', line: 5, reading: 'inbox.files' },
      { key: 'inbox.files_many', text: '{count} plików', line: 6, reading: 'inbox.files' },
      { key: 'inbox.files_other', text: '{count} pliku', line: 7, reading: 'inbox.files' },
      { key: 'inbox.files_zero', text: 'Brak plików', line: 8, reading: 'inbox.files' },
      { key: 'friend', text: 'Przyjaciel', line: 10, reading: 'friend' },
      {
        key: 'friend{context}',
        text: '{context, select, male {Kolega} female {Koleżanka} other {Przyjaciel}}',
        line: 10,
        reading: 'friend',
      },
      { key: 'friend_male', text: 'Kolega', line: 11, reading: 'friend' },
      { key: 'friend_female', text: 'Koleżanka', line: 12, reading: 'friend' },
    ])
  })

  it('nests plurals in contexts, and keeps a suffix with no base key as its own key', () => {
    const catalog = {
      locale: 'en',
      file: 'lang/en.json',
      entries: [
        { key: 'friend_one', translation: 'A friend', line: 2 },
        { key: 'friend_other', translation: '{{count}} friends', line: 3 },
        { key: 'friend_male_one', translation: 'A boyfriend', line: 4 },
        { key: 'friend_male_other', translation: '{{count}} boyfriends', line: 5 },
        { key: 'user_name', translation: 'Name', line: 6 },
      ],
    }
    expect(convertI18next(catalog).messages).toEqual([
      {
        key: 'friend',
        text: '{count, plural, one {A friend} other {{count} friends}}',
        line: 2,
        reading: 'friend',
      },
      { key: 'friend_one', text: 'A friend', line: 2, reading: 'friend' },
      { key: 'friend_other', text: '{count} friends', line: 3, reading: 'friend' },
      {
        key: 'friend{context}',
        text: '{context, select, male {{count, plural, one {A boyfriend} other {{count} boyfriends}}} other {{count, plural, one {A friend} other {{count} friends}}}}',
        line: 2,
        reading: 'friend',
      },
      {
        key: 'friend_male',
        text: '{count, plural, one {A boyfriend} other {{count} boyfriends}}',
        line: 4,
        reading: 'friend',
      },
      { key: 'friend_male_one', text: 'A boyfriend', line: 4, reading: 'friend' },
      { key: 'friend_male_other', text: '{count} boyfriends', line: 5, reading: 'friend' },
      { key: 'user_name', text: 'Name', line: 6 },
    ])
    const separate = convertI18next(
      {
        ...catalog,
        entries: [
          { key: 't', translation: 'T', line: 1 },
          { key: 't_short', translation: 'S', line: 2 },
        ],
      },
      { contexts: false },
    )
    expect(separate.messages.map((m) => m.key)).toEqual(['t', 't_short'])
  })

  it('reads a family without _other as its keys; refuses ordinal forms, a key with text and forms, and bad values, with file:line', () => {
    const catalog = {
      locale: 'pl',
      file: 'lang/pl.json',
      entries: [
        { key: 'a_one', translation: 'jeden', line: 2 },
        { key: 'place_ordinal_one', translation: '{{count}}.', line: 3 },
        { key: 'b', translation: 'B', line: 4 },
        { key: 'b_other', translation: 'Bs', line: 5 },
        { key: 'c_other', translation: '{{n, number}}', line: 6 },
        { key: 'd', translation: '', line: 7 },
      ],
    }
    const converted = convertI18next(catalog)
    // a_one alone is no plural i18next could show for every count: only its key is read.
    expect(converted.messages).toEqual([
      { key: 'a_one', text: 'jeden', line: 2, reading: 'a' },
      { key: 'b', text: '{count, plural, other {Bs}}', line: 4, reading: 'b' },
      { key: 'b_other', text: 'Bs', line: 5, reading: 'b' },
    ])
    expect(converted.untranslated).toEqual([{ key: 'd', line: 7 }])
    expect(converted.refusals).toEqual([
      {
        file: 'lang/pl.json',
        line: 3,
        key: 'place_ordinal_one',
        reason:
          'it is an ordinal plural form (_ordinal_...), which is not converted yet; write it as {count, selectordinal, ...} by hand',
      },
      {
        file: 'lang/pl.json',
        line: 4,
        key: 'b',
        reason: 'the key has a text of its own and plural forms (_other); one message cannot be both',
      },
      {
        file: 'lang/pl.json',
        line: 6,
        key: 'c',
        reason:
          'its _other form: its value {{n, number}} is formatted by i18next (number); write it as ICU ({x, number}, {x, date}) by hand',
      },
    ])
  })

  it("leaves out the forms of categories the file's locale never picks (i18next never shows them), keeps _zero", () => {
    const forms = (locale: string) =>
      convertI18next({
        locale,
        file: `locales/${locale}/app.json`,
        entries: [
          { key: 'songs_zero', translation: 'no songs', line: 2 },
          { key: 'songs_one', translation: 'one song', line: 3 },
          { key: 'songs_few', translation: '-', line: 4 },
          { key: 'songs_many', translation: 'lots of songs', line: 5 },
          { key: 'songs_other', translation: '{{count}} songs', line: 6 },
        ],
      }).messages.find((m) => m.key === 'songs')?.text
    expect(forms('en')).toBe('{count, plural, =0 {no songs} one {one song} other {{count} songs}}')
    // Spanish picks many (a million) but never few.
    expect(forms('es')).toBe(
      '{count, plural, =0 {no songs} one {one song} many {lots of songs} other {{count} songs}}',
    )
    expect(forms('pl')).toBe(
      '{count, plural, =0 {no songs} one {one song} few {-} many {lots of songs} other {{count} songs}}',
    )
    // A locale Intl has no rules for: nothing is sure, every form stays.
    expect(forms('tlh')).toBe(
      '{count, plural, =0 {no songs} one {one song} few {-} many {lots of songs} other {{count} songs}}',
    )
  })

  it('checks the key reading of a plural form only once it matches a message, not against a source form never shown', () => {
    const en = convertI18next({
      locale: 'en',
      file: 'locales/en/app.json',
      entries: [
        { key: 'songs_one', translation: 'one song', line: 2 },
        { key: 'songs_few', translation: 'TODO', line: 3 },
        { key: 'songs_other', translation: '{{count}} songs', line: 4 },
      ],
    })
    const pl = convertI18next({
      locale: 'pl',
      file: 'locales/pl/app.json',
      entries: [
        { key: 'songs_one', translation: 'jedna piosenka', line: 2 },
        { key: 'songs_few', translation: '{{count}} piosenki', line: 3 },
        { key: 'songs_other', translation: '{{count}} piosenek', line: 4 },
      ],
    })
    const joined = attachSources(pl, en)
    expect(joined.refusals).toEqual([])
    expect(joined.messages.map((m) => [m.key, m.source, m.text])).toEqual([
      [
        'songs',
        '{count, plural, one {one song} other {{count} songs}}',
        '{count, plural, one {jedna piosenka} few {{count} piosenki} other {{count} piosenek}}',
      ],
      ['songs_one', 'one song', 'jedna piosenka'],
      ['songs_few', 'TODO', '{count} piosenki'],
      ['songs_other', '{count} songs', '{count} piosenek'],
    ])
  })

  it('joins a locale with the source locale by key after grouping, so their plural forms may differ', () => {
    const en = convertI18next({
      locale: 'en',
      file: 'locales/en/common.json',
      entries: [
        { key: 'files_one', translation: '{{count}} file', line: 2 },
        { key: 'files_other', translation: '{{count}} files', line: 3 },
        { key: 'hello', translation: 'Hello {{name}}', line: 4 },
      ],
    })
    const pl = convertI18next({
      locale: 'pl',
      file: 'locales/pl/common.json',
      entries: [
        { key: 'files_one', translation: '{{count}} plik', line: 2 },
        { key: 'files_few', translation: '{{count}} pliki', line: 3 },
        { key: 'files_many', translation: '{{count}} plików', line: 4 },
        { key: 'files_other', translation: '{{count}} pliku', line: 5 },
        { key: 'hello', translation: 'Cześć {{imie}}', line: 6 },
      ],
    })
    const joined = attachSources(pl, en)
    expect(joined.messages).toEqual([
      {
        key: 'files',
        source: '{count, plural, one {{count} file} other {{count} files}}',
        text: '{count, plural, one {{count} plik} few {{count} pliki} many {{count} plików} other {{count} pliku}}',
        line: 2,
        reading: 'files',
      },
      // files_few and files_many have no key in English: only their plural reading carries them.
      { key: 'files_one', source: '{count} file', text: '{count} plik', line: 2, reading: 'files' },
      { key: 'files_other', source: '{count} files', text: '{count} pliku', line: 5, reading: 'files' },
    ])
    expect(joined.refusals).toEqual([
      {
        file: 'locales/pl/common.json',
        line: 6,
        key: 'hello',
        reason:
          'its translation "Cześć {imie}" would be rejected against the source "Hello {name}": it uses the argument {imie}, which the source does not',
      },
    ])
  })
})
