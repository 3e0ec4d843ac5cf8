import { describe, expect, it } from 'vitest'
import { pseudoLocalize, segmentPseudoMessage } from '../../src/core/model/pseudo'

const RLO = '\u202E'
const PDF = '\u202C'
const RLM = '\u200F'

describe('pseudoLocalize en-XA', () => {
  it('accents letters and brackets the message', () => {
    expect(pseudoLocalize('Hello', 'en-XA')).toBe('[Ĥéļļö]')
    expect(pseudoLocalize('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'en-XA')).toBe('[ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ one two]')
    expect(pseudoLocalize('abcdefghijklmnopqrstuvwxyz', 'en-XA')).toBe('[áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýž one two]')
    expect(pseudoLocalize('', 'en-XA')).toBe('')
  })

  it('grows the text by at least 35% with whole filler words', () => {
    const source = 'You have new messages in your inbox'
    const out = pseudoLocalize(source, 'en-XA')
    expect(out).toBe('[Ýöû ĥáṽé ñéŵ ɱéššáĝéš îñ ýöûŕ îñƀöẋ one two three]')
    expect(out.length / source.length).toBeGreaterThanOrEqual(1.35)
    expect(out.length / source.length).toBeLessThanOrEqual(1.5)
  })

  it('keeps placeholders of every format intact', () => {
    expect(pseudoLocalize('Hello {name}!', 'en-XA')).toBe('[Ĥéļļö {name}!]')
    expect(pseudoLocalize('%1$s has %d new %(thing)s and %{x} %@ %1 %% done', 'en-XA')).toBe(
      '[%1$s ĥáš %d ñéŵ %(thing)s áñð %{x} %@ %1 %% ðöñé one two]',
    )
    expect(pseudoLocalize('{0} of {1,number} {n, date, short} {value:N2}', 'en-XA')).toBe(
      '[{0} öƒ {1,number} {n, date, short} {value:N2}]',
    )
  })

  it('keeps HTML tags, their attributes and entities intact', () => {
    expect(
      pseudoLocalize('Go <a href="/cart" title="Cart">to cart</a>&nbsp;now &#169; &#x1F600;', 'en-XA'),
    ).toBe('[Ĝö <a href="/cart" title="Cart">ţö çáŕţ</a>&nbsp;ñöŵ &#169; &#x1F600; one]')
    expect(pseudoLocalize('a<br/>b <!-- note -->', 'en-XA')).toBe('[á<br/>ƀ <!-- note -->]')
  })

  it('transforms only the message text inside ICU plural and select', () => {
    expect(pseudoLocalize('{count, plural, one {# item} other {# items}}', 'en-XA')).toBe(
      '[{count, plural, one {# îţéɱ} other {# îţéɱš}} one]',
    )
    expect(
      pseudoLocalize('{count, plural, offset:1 =0 {none} one {one {name}} other {# more}}', 'en-XA'),
    ).toBe('[{count, plural, offset:1 =0 {ñöñé} one {öñé {name}} other {# ɱöŕé}} one]')
    expect(pseudoLocalize('{g, select, male {He} female {She} other {They}} said #1', 'en-XA')).toBe(
      '[{g, select, male {Ĥé} female {Šĥé} other {Ţĥéý}} šáîð #1 one]',
    )
    expect(pseudoLocalize('{n, selectordinal, one {#st} other {#th}}', 'en-XA')).toBe(
      '[{n, selectordinal, one {#šţ} other {#ţĥ}}]',
    )
  })

  it('treats unbalanced braces as text', () => {
    expect(pseudoLocalize('Unclosed { brace', 'en-XA')).toBe('[Ûñçļöšéð { ƀŕáçé one]')
    expect(pseudoLocalize('a } b', 'en-XA')).toBe('[á } ƀ]')
  })

  it('rejects an unknown pseudo locale', () => {
    expect(() => pseudoLocalize('x', 'xx-XX' as 'en-XA')).toThrow(
      '[unplugin-tms] unknown pseudo locale "xx-XX"',
    )
  })
})

describe('pseudoLocalize ar-XB', () => {
  it('wraps each word right-to-left and the message in RLMs', () => {
    expect(pseudoLocalize('Hello world', 'ar-XB')).toBe(`${RLM}${RLO}Hello${PDF} ${RLO}world${PDF}${RLM}`)
  })

  it('leaves placeholders, tags, entities and ICU syntax outside the overrides', () => {
    expect(pseudoLocalize('Hi {name}, <b>now</b>&amp;', 'ar-XB')).toBe(
      `${RLM}${RLO}Hi${PDF} {name}${RLO},${PDF} <b>${RLO}now${PDF}</b>&amp;${RLM}`,
    )
    expect(pseudoLocalize('{count, plural, one {# item} other {# items}}', 'ar-XB')).toBe(
      `${RLM}{count, plural, one {# ${RLO}item${PDF}} other {# ${RLO}items${PDF}}}${RLM}`,
    )
  })
})

describe('segmentPseudoMessage', () => {
  it('splits text from protected parts', () => {
    expect(segmentPseudoMessage('Hi {n}, %s')).toEqual([
      { kind: 'text', value: 'Hi ' },
      { kind: 'keep', value: '{n}' },
      { kind: 'text', value: ', ' },
      { kind: 'keep', value: '%s' },
    ])
  })
})
