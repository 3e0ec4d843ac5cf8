import { describe, expect, expectTypeOf, test } from 'vitest'
import { checkMessageTranslation } from '../../src/core/check/message'
import { compileMessage } from '../../src/core/icu/compile'
import { APP_PLACEHOLDER_SOURCE, parsePlaceholders } from '../../src/core/model/placeholders'
import { _f, _l, t } from '../../src/runtime/index'
import { compileText } from '../../src/runtime/parse'

/** The runtime's formatting of tagged messages, untransformed (`t`) and compiled (`_l`, `_f`). */

const el = (name: string) => (chunks: unknown[]) => ({ [name]: chunks })

describe('tagged messages at run time', () => {
  test('a string when every piece is a string, else the array of pieces (strings joined, none empty)', () => {
    expect(t('Read the <link>terms</link>', { link: (c: unknown[]) => `[${c.join('')}]` })).toBe(
      'Read the [terms]',
    )
    expect(t('Read the <link>terms</link>', { link: el('a') })).toEqual(['Read the ', { a: ['terms'] }])
    expect(t('<link>terms</link>', { link: el('a') })).toEqual([{ a: ['terms'] }])
    expect(t('<b></b>{name} <i>{name}</i>', { b: el('b'), i: el('i'), name: 'Ada' })).toEqual([
      { b: [] },
      'Ada ',
      { i: ['Ada'] },
    ])
    // Children are the formatted pieces in order: strings joined, and what nested tags returned.
    expect(t('<a>x {n} <b>y</b> z</a>!', { a: el('a'), b: el('b'), n: 2 })).toEqual([
      { a: ['x 2 ', { b: ['y'] }, ' z'] },
      '!',
    ])
  })

  test('what a tag function returns as an array is spread into the pieces', () => {
    expect(t('a <b>x</b> c', { b: (chunks: unknown[]) => ['<', ...chunks, '>'] })).toBe('a <x> c')
    expect(t('a <b>x</b> c', { b: () => [1, 'y'] })).toEqual(['a ', 1, 'y c'])
  })

  test('a tag without a function renders its children as text', () => {
    expect(
      // A text typed as a plain string: its literal type would ask for every tag's function.
      t('Read the <link>terms</link> {n, plural, one {<b>#</b> time} other {<b>#</b> times}}' as string, {
        n: 2,
      }),
    ).toBe('Read the terms 2 times')
    expect(t('Read <0>the <1>new</1> terms</0>' as string, { 1: el('b') })).toEqual([
      'Read the ',
      { b: ['new'] },
      ' terms',
    ])
  })

  test('# inside a tag inside a plural is the plural number; numbered tags take array values too', () => {
    const files = '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <0>the folder</0>'
    expect(t(files, { count: 1234, b: el('b'), 0: el('a') })).toEqual([
      { b: ['1,234'] },
      ' files in ',
      { a: ['the folder'] },
    ])
    expect(t('<0>x</0> {1}', [el('a'), 'y'])).toEqual([{ a: ['x'] }, ' y'])
  })

  test('untransformed t reads tags into the compiled form the build makes', () => {
    for (const text of [
      'Read the <link>terms</link>',
      '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <0>the <1>folder</1></0>',
      "Quoted '<b>' and self-closing <br/> and a < b <my-tag_2></my-tag_2>",
      '{g, select, female {<b>She</b>} other {<i>They {n, number}</i>}}',
    ]) {
      expect(compileText(text)).toEqual(compileMessage(text))
    }
    // Not valid ICU (a tag not closed): the build refuses it at extraction; untransformed t says so
    // rather than print the source. A .NET text stays plain, as with placeholderFormat 'resx'.
    expect(() => compileText('Press <Enter> now')).toThrow(
      '[unplugin-tms] expected </Enter> at character 18 of "Press <Enter> now"',
    )
    expect(compileText('{0:N2} of {1,-8}')).toBe('{0:N2} of {1,-8}')
  })

  test('the lookup and inline formatting give the same shapes', () => {
    const form = compileMessage('Read the <link>terms</link>')
    expect(_l('id', form, { link: el('a') })).toEqual(['Read the ', { a: ['terms'] }])
    expect(_l('id', form, {})).toBe('Read the terms')
    expect(_f(form, { link: (c: unknown[]) => `<a>${c.join('')}</a>` }, 'fr-FR')).toBe(
      'Read the <a>terms</a>',
    )
  })
})

describe('tags as placeholders of the string', () => {
  const spec = { custom: APP_PLACEHOLDER_SOURCE }

  test('the pushed text has each open and close as {N}; a pulled {N} form gets the tags back', () => {
    const source = 'See <link>the <b>new</b> terms</link> for {name}, <br/> a < b'
    const parsed = parsePlaceholders(source, spec)
    expect(parsed).toEqual({
      parsed: 'See {0}the {1}new{2} terms{3} for {4}, <br/> a < b',
      placeholders: ['<link>', '<b>', '</b>', '</link>', '{name}'],
    })
    const message = { text: source, placeholders: parsed.placeholders }
    // The service sends the original spelling, or the `{N}` form (showPlaceholderValues=false).
    for (const translation of [
      'Voir <link>les <b>nouvelles</b> conditions</link> pour {name}, <br/>',
      'Voir {0}les {1}nouvelles{2} conditions{3} pour {4}, <br/>',
    ]) {
      expect(checkMessageTranslation(translation, message, spec, 'fr-FR')).toEqual({
        ok: true,
        parsed: 'Voir <link>les <b>nouvelles</b> conditions</link> pour {name}, <br/>',
      })
    }
    expect(
      checkMessageTranslation('Voir {0}les {2}nouvelles{1} conditions{3} pour {4}', message, spec, 'fr-FR'),
    ).toEqual({
      ok: false,
      reason: 'it does not parse: a closing tag does not match the open tag (at character 17)',
    })
  })

  test('a translation that adds a tag to a message without tags is rejected like an extra placeholder', () => {
    expect(
      checkMessageTranslation(
        'Bonjour <b>{name}</b>',
        { text: 'Hello {name}', placeholders: ['{name}'] },
        spec,
        'fr-FR',
      ),
    ).toEqual({ ok: false, reason: 'it has the placeholder <b>, which the source does not' })
  })
})

// Checked by tsc (npm run lint): `t` is declared a string unless a tag function returns something else.
test('the declared result of t follows its tag functions', () => {
  expectTypeOf(t('Hello {name}', { name: 'Ada' })).toEqualTypeOf<string>()
  expectTypeOf(t`Hello ${'Ada'}`).toEqualTypeOf<string>()
  expectTypeOf(
    t('Read <link>terms</link>', { link: (chunks) => `<a>${chunks.join('')}</a>` }),
  ).toEqualTypeOf<string>()
  expectTypeOf(t('Read <link>terms</link>', { link: (chunks) => ({ chunks }) })).toEqualTypeOf<
    string | (string | { chunks: unknown[] })[]
  >()
  const loose: Record<string, unknown> = {}
  expectTypeOf(t('Hello {name}' as string, loose)).toEqualTypeOf<string>()
})
