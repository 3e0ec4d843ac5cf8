import { describe, expect, test } from 'vitest'
import { checkMessageTranslation } from '../../src/core/check/message'
import { compileMessage } from '../../src/core/icu/compile'
import { APP_PLACEHOLDER_SOURCE, parsePlaceholders } from '../../src/core/model/placeholders'
import { _f } from '../../src/runtime/index'

/**
 * A branch body written as a bare number (`one {1}`) is the translator's text, not the service's `{N}`
 * form of a placeholder: the restore of a pulled ICU translation leaves it.
 */
const spec = { custom: APP_PLACEHOLDER_SOURCE }

function checked(source: string, translation: string, locale: string): string {
  const { placeholders } = parsePlaceholders(source, spec)
  const result = checkMessageTranslation(translation, { text: source, placeholders }, spec, locale)
  if (!result.ok) throw new Error(result.reason)
  return result.parsed
}

describe('a translation whose branch body is a bare number', () => {
  const source = '{name}: {count, plural, one {# file} other {# files}} in {folder}'

  test('keeps the number, in the app spelling and in the {N} form', () => {
    expect(parsePlaceholders(source, spec).placeholders).toEqual(['{name}', '{folder}'])
    for (const translation of [
      '{name} : {count, plural, one {1} other {#}} dans {folder}',
      '{0} : {count, plural, one {1} other {#}} dans {1}',
    ]) {
      const text = checked(source, translation, 'fr-FR')
      expect(text).toBe('{name} : {count, plural, one {1} other {#}} dans {folder}')
      const values = { name: 'Ada', count: 1, folder: 'Docs' }
      expect(_f(compileMessage(text, 'fr-FR'), values, 'fr-FR')).toBe('Ada : 1 dans Docs')
      expect(_f(compileMessage(text, 'fr-FR'), { ...values, count: 3 }, 'fr-FR')).toBe('Ada : 3 dans Docs')
    }
  })

  test('at any depth, in a select and beside a numbered tag', () => {
    const tagged =
      '<0>{count, plural, one {{kind, select, a {an A file} other {a file}}} other {# files}}</0> by {author}'
    expect(parsePlaceholders(tagged, spec).placeholders).toEqual(['<0>', '</0>', '{author}'])
    const restored = '<0>{count, plural, one {{kind, select, a {0} other {1}}} other {#}}</0> par {author}'
    // The numbered tag is read under a stand-in name: the branches' places are those of the text as written.
    for (const translation of [
      '{0}{count, plural, one {{kind, select, a {0} other {1}}} other {#}}{1} par {2}',
      restored,
    ])
      expect(checked(tagged, translation, 'fr-FR')).toBe(restored)
  })

  test('a source whose own body is a bare number gets it back from the {N} form', () => {
    const numbered = '{count, plural, one {1} other {#}} by {author}'
    const { parsed, placeholders } = parsePlaceholders(numbered, spec)
    // The source scan takes the body for a placeholder: the service sends it back as `{0}`.
    expect({ parsed, placeholders }).toEqual({
      parsed: '{count, plural, one {0} other {#}} by {1}',
      placeholders: ['{1}', '{author}'],
    })
    expect(checked(numbered, '{count, plural, one {0} other {#}} par {1}', 'fr-FR')).toBe(
      '{count, plural, one {1} other {#}} par {author}',
    )
  })
})
