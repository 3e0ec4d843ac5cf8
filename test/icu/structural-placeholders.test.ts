import { describe, expect, test } from 'vitest'
import { checkMessageTranslation } from '../../src/core/check/message'
import { checkIcuTranslationPlaceholders } from '../../src/core/check/translation'
import { appMessageSpec, messagePlaceholders } from '../../src/core/icu/placeholders'
import {
  APP_PLACEHOLDER_SOURCE,
  type PlaceholderSpec,
  parsePlaceholders,
} from '../../src/core/model/placeholders'
import { bySpec } from '../../src/core/sync/push'

/**
 * Under the app's own placeholder spec, an ICU message's placeholders are its simple arguments and
 * tags as its structure has them: a one-word branch body (`one {file}`) is the translator's text.
 * A message the app's regex reads otherwise gets a spec of its own under which the service's own
 * regex scan finds exactly the same placeholders; every other message keeps the app's spec.
 */
const app = { format: null, custom: APP_PLACEHOLDER_SOURCE }
const NONE: PlaceholderSpec = { format: 'none', custom: null }
const custom = (source: string): PlaceholderSpec => ({ format: null, custom: source })

/** What the service stores for the text: its regex scan under the spec the message is created with. */
const serviceReading = (text: string) => parsePlaceholders(text, appMessageSpec(text, app))

const MISREAD: [name: string, text: string, parsed: string, placeholders: string[], spec: PlaceholderSpec][] =
  [
    [
      'a plural with one-word bodies',
      '{count, plural, one {file} other {files}}',
      '{count, plural, one {file} other {files}}',
      [],
      NONE,
    ],
    [
      'a select with one-word bodies',
      '{gender, select, male {He} female {She} other {They}} should get reading!',
      '{gender, select, male {He} female {She} other {They}} should get reading!',
      [],
      NONE,
    ],
    [
      'a selectordinal with one-word bodies',
      'You came {place, selectordinal, one {first} two {second} other {later}}',
      'You came {place, selectordinal, one {first} two {second} other {later}}',
      [],
      NONE,
    ],
    [
      'nested, with real arguments beside one-word bodies',
      '{count, plural, one {{gender, select, male {his} other {their}} file} other {{name} and {count} files}}',
      '{count, plural, one {{gender, select, male {his} other {their}} file} other {{0} and {1} files}}',
      ['{name}', '{count}'],
      custom(String.raw`\{name\}|\{count\}`),
    ],
    [
      'a body that is also an argument elsewhere',
      '{kind, select, file {file} other {{file}}}',
      '{kind, select, file {file} other {{0}}}',
      ['{file}'],
      custom(String.raw`(?<!file )\{file\}`),
    ],
    [
      'an argument name that is also a body further on',
      '{file}: {count, plural, one {file} other {files}}',
      '{0}: {count, plural, one {file} other {files}}',
      ['{file}'],
      custom(String.raw`(?<!one )\{file\}`),
    ],
    [
      'a body that is also an argument after the same selector word',
      '{kind, select, file {file} other {the file {file}}}',
      '{kind, select, file {file} other {the file {0}}}',
      ['{file}'],
      custom(String.raw`(?<!, file )\{file\}`),
    ],
    [
      'tags inside a branch whose other body is one word',
      '{count, plural, one {<b>file</b>} other {files}}',
      '{count, plural, one {{0}file{1}} other {files}}',
      ['<b>', '</b>'],
      custom(String.raw`<b>|<\/b>`),
    ],
    [
      'a numbered tag around a plural',
      '<0>{n, plural, one {file} other {files}}</0>',
      '{0}{n, plural, one {file} other {files}}{1}',
      ['<0>', '</0>'],
      custom(String.raw`<0>|<\/0>`),
    ],
    [
      'apostrophe-quoted braces',
      "Type '{name}' for your name: {name}",
      "Type '{name}' for your name: {0}",
      ['{name}'],
      custom(String.raw`(?<!')\{name\}`),
    ],
  ]

describe('a message the app regex misreads', () => {
  test.each(MISREAD)(
    '%s: its structure decides, and its own spec makes the service agree',
    (_, text, parsed, placeholders, spec) => {
      expect(messagePlaceholders(text, app)).toEqual({ parsed, placeholders })
      expect(appMessageSpec(text, app)).toEqual(spec)
      expect(serviceReading(text)).toEqual({ parsed, placeholders })
      // The app's regex alone reads something else: that is the misreading.
      expect(parsePlaceholders(text, app).parsed).not.toBe(parsed)
    },
  )

  test('a translation of one-word bodies passes; one that drops a real placeholder does not', () => {
    const source = '{count, plural, one {file} other {files}}'
    const { placeholders } = messagePlaceholders(source, app)
    const translation = '{count, plural, one {fichier} other {fichiers}}'
    // German needs only one and other (French also wants many: a note, not a refusal).
    const german = '{count, plural, one {Datei} other {Dateien}}'
    expect(checkMessageTranslation(german, { text: source, placeholders }, app, 'de-DE')).toEqual({
      ok: true,
      parsed: german,
    })
    expect(checkIcuTranslationPlaceholders(translation, { placeholders }, app)).toEqual({
      ok: true,
      parsed: translation,
    })
    // The service reads the translation with the message's own spec: no placeholder in it either.
    expect(parsePlaceholders(translation, appMessageSpec(source, app)).placeholders).toEqual([])

    const nested =
      '{count, plural, one {{gender, select, male {his} other {their}} file} other {{name} and {count} files}}'
    const real = messagePlaceholders(nested, app).placeholders
    expect(
      checkIcuTranslationPlaceholders(
        '{count, plural, one {{gender, select, male {son} other {leur}} fichier} other {{name} et {count} fichiers}}',
        { placeholders: real },
        app,
      ),
    ).toEqual({
      ok: true,
      parsed:
        '{count, plural, one {{gender, select, male {son} other {leur}} fichier} other {{0} et {1} fichiers}}',
    })
    expect(
      checkIcuTranslationPlaceholders(
        '{count, plural, one {{gender, select, male {son} other {leur}} fichier} other {{count} fichiers}}',
        { placeholders: real },
        app,
      ),
    ).toEqual({ ok: false, reason: 'it drops the placeholder {name}' })
  })

  test("a translation keeps the selector, so the guard of a body's own spec still reads it right", () => {
    const source = '{kind, select, file {file} other {{file}}}'
    const spec = appMessageSpec(source, app)
    expect(parsePlaceholders('{kind, select, file {fichier} other {le {file}}}', spec)).toEqual({
      parsed: '{kind, select, file {fichier} other {le {0}}}',
      placeholders: ['{file}'],
    })
  })
})

describe('a message the app regex reads right keeps everything', () => {
  test.each([
    ['Hello {name}!', 'Hello {0}!', ['{name}']],
    [
      '{count, plural, one {# file} other {# files}} in {folder}',
      '{count, plural, one {# file} other {# files}} in {0}',
      ['{folder}'],
    ],
    [
      '{count, plural, one {<b>#</b> file} other {<b>#</b> files}}',
      '{count, plural, one {{0}#{1} file} other {{2}#{3} files}}',
      ['<b>', '</b>', '<b>', '</b>'],
    ],
    ['Read the <link>terms</link>, {name}', 'Read the {0}terms{1}, {2}', ['<link>', '</link>', '{name}']],
    ['{when, date, short} at {n, number}', '{when, date, short} at {n, number}', []],
    // Not valid ICU: the extraction refuses it; the regex reading stands.
    ['{count, plural, one {file}', '{count, plural, one {0}', ['{file}']],
  ])('%s', (text, parsed, placeholders) => {
    expect(messagePlaceholders(text, app)).toEqual({ parsed, placeholders })
    expect(messagePlaceholders(text, app)).toEqual(parsePlaceholders(text, app))
    // The very spec object of the app: the same request as before.
    expect(appMessageSpec(text, app)).toBe(app)
  })

  test('another placeholder format is read by its regex alone', () => {
    const python = { format: 'python' as const, custom: null }
    const text = '{count, plural, one {file} other {files}}'
    expect(messagePlaceholders(text, python)).toEqual(parsePlaceholders(text, python))
    expect(appMessageSpec(text, python)).toBe(python)
  })
})

test('messages are grouped per spec for the create-strings requests, the app spec first', () => {
  const texts = [
    '{count, plural, one {file} other {files}}',
    'Hello {name}!',
    '{gender, select, male {He} other {They}}',
    '{count, plural, one {<b>file</b>} other {files}}',
    'Bye',
  ]
  const groups = bySpec(
    texts.map((text) => ({ text })),
    app,
  )
  expect(groups.map((g) => [g.spec, g.messages.map((m) => m.text)])).toEqual([
    [app, ['Hello {name}!', 'Bye']],
    [NONE, ['{count, plural, one {file} other {files}}', '{gender, select, male {He} other {They}}']],
    [custom(String.raw`<b>|<\/b>`), ['{count, plural, one {<b>file</b>} other {files}}']],
  ])
})
