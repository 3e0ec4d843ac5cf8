import { describe, expect, test } from 'vitest'
import { compiledLiteral, compileMessage, IcuSyntaxError, isIcuMessage } from '../../src/core/icu/compile'
import { compileText } from '../../src/runtime/parse'
import { CORPUS, LOCALES, SOURCE_LOCALE } from './corpus'

describe('compileMessage', () => {
  test('a plain text stays the same string (same output, same hashcode as before ICU)', () => {
    for (const text of [
      'Hello',
      'Hello {name}!',
      "It's {name}",
      'a } b',
      'a < b {0}',
      '<br/> x',
      '#1 {a}{b}',
    ]) {
      expect(compileMessage(text)).toBe(text)
      expect(isIcuMessage(text)).toBe(false)
    }
  })

  test('ICU messages become nested arrays', () => {
    expect(compileMessage('You have {count, plural, =0 {no files} one {# file} other {# files}}')).toEqual([
      'You have ',
      ['count', 4, 0, { 0: 'no files', one: [0, ' file'], other: [0, ' files'] }],
    ])
    expect(compileMessage("It''s '{'literal'}'")).toEqual(["It's {literal}"])
    expect(compileMessage('{n, plural, offset:1 other {#}}')).toEqual([['n', 4, 1, { other: [0] }]])
    expect(compileMessage('{p, selectordinal, one {#st} other {#th}}')).toEqual([
      ['p', 5, 0, { one: [0, 'st'], other: [0, 'th'] }],
    ])
    expect(compileMessage('{g, select, a {A} other {B}}')).toEqual([['g', 3, { a: 'A', other: 'B' }]])
    expect(compileMessage('{n, number, ::currency/EUR}')).toEqual([
      ['n', 1, { style: 'currency', currency: 'EUR' }],
    ])
    expect(compileMessage('{d, date, short}')).toEqual([
      ['d', 2, { month: 'numeric', day: 'numeric', year: '2-digit' }],
    ])
  })

  test('tags become a part with their children, numbered tags and tags in plural branches too', () => {
    expect(compileMessage('x <b>bold</b> {0}')).toEqual(['x ', ['b', 6, 'bold'], ' ', ['0']])
    expect(compileMessage('Read <0>the <1>new</1> terms</0>')).toEqual([
      'Read ',
      ['0', 6, ['the ', ['1', 6, 'new'], ' terms']],
    ])
    expect(compileMessage('{n, plural, one {<b>#</b> file} other {<b>#</b> files}}')).toEqual([
      ['n', 4, 0, { one: [['b', 6, [0]], ' file'], other: [['b', 6, [0]], ' files'] }],
    ])
    expect(compileMessage('<my-tag_2></my-tag_2>')).toEqual([['my-tag_2', 6, '']])
    // Quoted, a tag is text; self-closing, it is text (as intl-messageformat reads it).
    expect(compileMessage("'<0>'<b>x</b> <br/>")).toEqual(['<0>', ['b', 6, 'x'], ' <br/>'])
    expect(isIcuMessage('Read <link>terms</link>')).toBe(true)
  })

  test('a tag not closed, or closed by another, is a syntax error at its place in the message as written', () => {
    const problem = (text: string): [string, number] => {
      try {
        compileMessage(text)
      } catch (error) {
        return [(error as IcuSyntaxError).message, (error as IcuSyntaxError).offset]
      }
      return ['parsed', -1]
    }
    expect(problem('Press <Enter> to go on')).toEqual(["a tag is not closed (a literal < is written '<')", 6])
    // At the closing tag's name.
    expect(problem('<a>x</b>')).toEqual(['a closing tag does not match the open tag', 6])
    expect(problem('<0>x</1>')).toEqual(['a closing tag does not match the open tag', 6])
    expect(problem('<0>a</0> <1>x</2>')).toEqual(['a closing tag does not match the open tag', 15])
    expect(problem('a </b> c')).toEqual(['a closing tag does not match the open tag', 2])
  })

  test('a message that does not parse throws with the offset inside the message', () => {
    expect(() => compileMessage('Hi {name')).toThrow(IcuSyntaxError)
    try {
      compileMessage('ok {n, plural, one {x}}')
    } catch (error) {
      expect((error as IcuSyntaxError).message).toBe('a plural or select has no `other` branch')
      expect((error as IcuSyntaxError).offset).toBe(22)
    }
  })

  test('the literal quotes every string: a hostile translation cannot leave it', () => {
    const form = compileMessage("{g, select, other {\"'</script>'<script>x=1</script>'' ${y} \u2028}}")
    const literal = compiledLiteral(form)
    expect(literal).not.toContain('</script')
    expect(literal).not.toContain('\u2028')
    expect(new Function(`return ${literal}`)()).toEqual(form)
  })
})

describe('the runtime reader of untransformed t', () => {
  test('gives the compiled form of the build for every corpus text in every locale', () => {
    let compared = 0
    for (const m of CORPUS) {
      for (const locale of LOCALES) {
        const text = locale === SOURCE_LOCALE ? m.source : m.translate(locale)
        expect(compileText(text), text).toEqual(compileMessage(text, locale))
        compared++
      }
    }
    expect(compared).toBe(CORPUS.length * LOCALES.length)
  })

  test('reads a text that is not ICU as plain text, as a build does', () => {
    expect(compileText('.NET {0} and {0:N2}')).toBe('.NET {0} and {0:N2}')
    expect(isIcuMessage('.NET {0} and {0:N2}')).toBe(false)
  })
})
