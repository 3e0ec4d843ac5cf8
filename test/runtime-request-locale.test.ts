import { describe, expect, it, vi } from 'vitest'
import { parseAcceptLanguage, pickRequestLocale } from '../src/runtime/request-locale'

/**
 * The server's choice of a request's locale (`negotiateRequestLocale`, src/runtime/request-locale.ts):
 * exact picks for many `Accept-Language` headers and cookies against one list of locales.
 */

const LOCALES = ['en-US', 'fr-FR', 'fr-CA', 'de-DE', 'ja-JP', 'en-XA', 'ar-XB']
const pick = (acceptLanguage: string | null | undefined, cookie?: string | null) =>
  pickRequestLocale({ acceptLanguage, cookie }, LOCALES)

describe('parseAcceptLanguage', () => {
  it('reads ranges and weights, orders by weight with ties in header order, keeps q=0', () => {
    expect(parseAcceptLanguage('fr-CA;q=0.8, de , EN_gb;Q=1.0,*;q=0.1, ja ; q = 0 ,es;q=0.8')).toEqual([
      { range: 'de', q: 1 },
      { range: 'en-gb', q: 1 },
      { range: 'fr-ca', q: 0.8 },
      { range: 'es', q: 0.8 },
      { range: '*', q: 0.1 },
      { range: 'ja', q: 0 },
    ])
  })

  it('skips each entry that does not parse and keeps the rest', () => {
    const header =
      'fr;q=2, de;q=0.5x, ;q=0.3, ja;q=, it;q=0.1234, es-;q=0.5, x y, pt;level=1, nl;q=.5, sv;q=0.7'
    expect(parseAcceptLanguage(header)).toEqual([{ range: 'sv', q: 0.7 }])
    expect(parseAcceptLanguage('')).toEqual([])
    expect(parseAcceptLanguage(',,, ;;; ===')).toEqual([])
  })
})

describe('negotiateRequestLocale: Accept-Language', () => {
  it('takes the most wanted range that names a locale: same tag, its language, a locale of its language', () => {
    const headers = [
      'fr-FR',
      'fr-ca',
      'fr-BE',
      'fr',
      'de-AT',
      'ja',
      'es, de;q=0.5',
      'es-MX, pt',
      'en-GB',
      'en',
    ]
    expect(headers.map((h) => [h, pick(h)])).toEqual([
      ['fr-FR', 'fr-FR'],
      ['fr-ca', 'fr-CA'],
      ['fr-BE', 'fr-FR'],
      ['fr', 'fr-FR'],
      ['de-AT', 'de-DE'],
      ['ja', 'ja-JP'],
      ['es, de;q=0.5', 'de-DE'],
      ['es-MX, pt', 'en-US'],
      ['en-GB', 'en-US'],
      ['en', 'en-US'],
    ])
  })

  it('orders by q-value, not by place in the header; equal weights keep the header order', () => {
    const headers = [
      'fr;q=0.5, de;q=0.9',
      'de;q=0.5, ja',
      'ja;q=0.8, fr-CA;q=0.8, de;q=0.8',
      'fr-CA;q=0.8, ja;q=0.8',
      'en;q=0.001, de;q=0.002',
      'fr-CA, en;q=0.5',
      'es;q=1, ja;q=0.1',
    ]
    expect(headers.map((h) => [h, pick(h)])).toEqual([
      ['fr;q=0.5, de;q=0.9', 'de-DE'],
      ['de;q=0.5, ja', 'ja-JP'],
      ['ja;q=0.8, fr-CA;q=0.8, de;q=0.8', 'ja-JP'],
      ['fr-CA;q=0.8, ja;q=0.8', 'fr-CA'],
      ['en;q=0.001, de;q=0.002', 'de-DE'],
      ['fr-CA, en;q=0.5', 'fr-CA'],
      ['es;q=1, ja;q=0.1', 'ja-JP'],
    ])
  })

  it('q=0 refuses a language or a tag; the most specific range decides', () => {
    const headers = [
      'fr;q=0, de;q=0.5',
      'fr-FR;q=0, fr',
      'fr-FR;q=0, fr-CA;q=0, fr, ja;q=0.1',
      'fr-CA, fr;q=0',
      'en-US, en;q=0',
      'en;q=0',
      'de;q=0',
      'de;q=0, de-DE',
    ]
    expect(headers.map((h) => [h, pick(h)])).toEqual([
      ['fr;q=0, de;q=0.5', 'de-DE'],
      ['fr-FR;q=0, fr', 'fr-CA'],
      ['fr-FR;q=0, fr-CA;q=0, fr, ja;q=0.1', 'ja-JP'],
      ['fr-CA, fr;q=0', 'fr-CA'],
      ['en-US, en;q=0', 'en-US'],
      // Nothing accepted: the source locale, as for a header naming no configured language.
      ['en;q=0', 'en-US'],
      ['de;q=0', 'en-US'],
      ['de;q=0, de-DE', 'de-DE'],
    ])
  })

  it('`*` takes the first locale not refused and not a pseudo-locale, at its own weight', () => {
    const headers = [
      '*',
      'en;q=0, *',
      'en;q=0, fr;q=0, *;q=0.5',
      'es, *;q=0.1',
      '*;q=0.5, ja',
      'ja, *;q=0',
      '*;q=0',
    ]
    expect(headers.map((h) => [h, pick(h)])).toEqual([
      ['*', 'en-US'],
      ['en;q=0, *', 'fr-FR'],
      ['en;q=0, fr;q=0, *;q=0.5', 'de-DE'],
      ['es, *;q=0.1', 'en-US'],
      ['*;q=0.5, ja', 'ja-JP'],
      ['ja, *;q=0', 'ja-JP'],
      ['*;q=0', 'en-US'],
    ])
    const onlyPseudoLeft = ['en-US', 'en-XA', 'ar-XB']
    expect(pickRequestLocale({ acceptLanguage: 'en-US;q=0, *' }, onlyPseudoLeft)).toBe('en-US')
  })

  it('never picks a pseudo-locale for a language, only for its exact tag', () => {
    const headers = [
      'ar',
      'ar-EG',
      'ar-XB',
      'AR-xb',
      'ar_XB',
      'en-XA',
      'ar, en-XA;q=0.5',
      'ar-XB;q=0.1, es',
      'ar-XB;q=0, ar',
    ]
    expect(headers.map((h) => [h, pick(h)])).toEqual([
      ['ar', 'en-US'],
      ['ar-EG', 'en-US'],
      ['ar-XB', 'ar-XB'],
      ['AR-xb', 'ar-XB'],
      ['ar_XB', 'ar-XB'],
      ['en-XA', 'en-XA'],
      ['ar, en-XA;q=0.5', 'en-XA'],
      ['ar-XB;q=0.1, es', 'ar-XB'],
      ['ar-XB;q=0, ar', 'en-US'],
    ])
    // With only the source locale and the pseudo-locales, English readers get the source, not en-XA.
    expect(
      ['en-GB', 'en', '*'].map((h) => pickRequestLocale({ acceptLanguage: h }, ['en', 'en-XA'])),
    ).toEqual(['en', 'en', 'en'])
    expect(pickRequestLocale({ acceptLanguage: 'en-GB' }, ['de', 'en-XA'])).toBe('de')
  })

  it('a missing, empty or malformed header gives the source locale; a bad entry does not spoil the rest', () => {
    const headers = [
      undefined,
      null,
      '',
      ' ',
      ',',
      ';q=1',
      'q=0.5',
      '*;q=abc',
      'fr;q=1.5',
      'zz-ZZ-ZZZZZZZZZ',
      'fr;q=1.5, de;q=0.2',
    ]
    expect(headers.map((h) => pick(h))).toEqual([
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'de-DE',
    ])
    // A header as long as a server lets through: still answered.
    expect(pick(`${'xx;q=0.5, '.repeat(1500)}ja;q=0.6`)).toBe('ja-JP')
  })
})

describe('negotiateRequestLocale: the cookie', () => {
  it('the cookie wins over Accept-Language when it names a configured locale', () => {
    const cases: [string, string][] = [
      ['lang=ja-JP', 'fr'],
      ['theme=dark; lang=de-de', 'fr'],
      ['lang=de', 'fr'],
      ['lang=fr-CA', 'fr;q=0, de'],
      ['lang=es', 'fr'],
      ['lang=', 'de'],
      ['lang=%E0%A4%A', 'de'],
      ['language=ja-JP', 'de'],
      ['xlang=ja-JP', 'de'],
      ['lang=es; lang=ja-JP', 'de'],
    ]
    expect(cases.map(([cookie, header]) => [cookie, pick(header, cookie)])).toEqual([
      ['lang=ja-JP', 'ja-JP'],
      ['theme=dark; lang=de-de', 'de-DE'],
      ['lang=de', 'de-DE'],
      ['lang=fr-CA', 'fr-CA'],
      ['lang=es', 'fr-FR'],
      ['lang=', 'de-DE'],
      ['lang=%E0%A4%A', 'de-DE'],
      ['language=ja-JP', 'de-DE'],
      ['xlang=ja-JP', 'de-DE'],
      ['lang=es; lang=ja-JP', 'ja-JP'],
    ])
  })

  it('a cookie names a pseudo-locale only exactly; its name is the key', () => {
    expect([
      pick('de', 'lang=ar'),
      pick('de', 'lang=ar-XB'),
      pick('de', 'lang=en-xa'),
      pick(null, 'lang=ar'),
    ]).toEqual(['de-DE', 'ar-XB', 'en-XA', 'en-US'])
    expect(
      pickRequestLocale({ acceptLanguage: 'de', cookie: 'lang=fr; locale=ja-JP', key: 'locale' }, LOCALES),
    ).toBe('ja-JP')
  })
})

describe('negotiateRequestLocale in the server runtime', () => {
  it('chooses among the configured locales by default (getLocales), or the ones given', async () => {
    vi.resetModules()
    const rt = await import('../src/runtime/node')
    const none = async () => ({ default: {} })
    rt._r('en', { fr: none, 'de-CH': none, 'ar-XB': none })
    expect([
      rt.negotiateRequestLocale({ acceptLanguage: 'ar, de;q=0.5' }),
      rt.negotiateRequestLocale({ acceptLanguage: 'ar' }),
      rt.negotiateRequestLocale({ acceptLanguage: 'fr-BE', cookie: 'lang=de-CH' }),
      rt.negotiateRequestLocale({}),
      rt.negotiateRequestLocale({ acceptLanguage: 'de', locales: ['it', 'de-AT'] }),
    ]).toEqual(['de-CH', 'en', 'de-CH', 'en', 'de-AT'])
  })
})
