import { describe, expect, it } from 'vitest'
import { checkAppText, checkTranslation } from '../../src/core/check/translation'
import { jsString } from '../../src/core/js-string'
import { APP_PLACEHOLDER_SOURCE, restorePlaceholders } from '../../src/core/model/placeholders'

const app = { custom: APP_PLACEHOLDER_SOURCE }

describe('checkTranslation', () => {
  const source = { placeholders: ['{name}', '{count}'] }
  it('accepts the {N} form and the restored form, reordered', () => {
    expect(checkTranslation('{1} pour {0}', source, app)).toEqual({ ok: true, parsed: '{1} pour {0}' })
    expect(checkTranslation('{count} pour {name}', source, app)).toEqual({ ok: true, parsed: '{1} pour {0}' })
  })
  it('rejects a dropped or an added placeholder, saying which', () => {
    expect(checkTranslation('pour {name}', source, app)).toEqual({
      ok: false,
      reason: 'it drops the placeholder {count}',
    })
    expect(checkTranslation('{name} {count} {evil}', source, app)).toEqual({
      ok: false,
      reason: 'it has the placeholder {evil}, which the source does not',
    })
    expect(checkTranslation('{0} {1} {2}', source, app)).toEqual({
      ok: false,
      reason: 'it has the placeholder {2}, which the source does not',
    })
  })
  it('works for printf sources, where {N} is not the format’s own spelling', () => {
    const c = { format: 'c' as const }
    expect(checkTranslation('%d fichiers de %s (100%%)', { placeholders: ['%s', '%d'] }, c)).toEqual({
      ok: true,
      parsed: '{1} fichiers de {0} (100%%)',
    })
    expect(checkTranslation('{1} de {0}', { placeholders: ['%s', '%d'] }, c)).toEqual({
      ok: true,
      parsed: '{1} de {0}',
    })
  })
  it('accepts a text without placeholders for a source without any', () => {
    expect(checkTranslation('Bonjour', { placeholders: [] }, app)).toEqual({ ok: true, parsed: 'Bonjour' })
    expect(restorePlaceholders('{1} pour {0}', ['{name}', '{count}'])).toBe('{count} pour {name}')
  })
})

describe('checkAppText', () => {
  it('gives what checkTranslation then restorePlaceholders give, for every spec and for hostile texts', () => {
    // A seeded generator: texts built from placeholder spellings, indexed forms, braces and percent
    // signs, so that pieces next to a placeholder could look like one.
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const parts = [
      '{name}',
      '{count}',
      '{0}',
      '{1}',
      '{2}',
      '{',
      '}',
      '{{',
      '}}',
      '1',
      '%s',
      '%d',
      '%%',
      '%1$s',
      ' ',
      'é',
      'x',
    ]
    const specs = [
      app,
      { format: 'c' as const },
      { format: 'python' as const },
      { format: 'none' as const },
      { format: 'java' as const },
    ]
    const sources = [[], ['{name}'], ['{name}', '{count}'], ['%s', '%d'], ['{0}']]
    let compared = 0
    for (let i = 0; i < 20000; i++) {
      const text = Array.from({ length: random(7) }, () => parts[random(parts.length)]).join('')
      const source = { placeholders: sources[random(sources.length)]! }
      const spec = specs[random(specs.length)]!
      const two = checkTranslation(text, source, spec)
      const one = checkAppText(text, source, spec)
      expect(one).toEqual(
        two.ok ? { ok: true, parsed: restorePlaceholders(two.parsed, source.placeholders) } : two,
      )
      if (two.ok) compared++
    }
    // Enough accepted texts to have compared the app spellings, not only the rejections.
    expect(compared).toBeGreaterThan(3000)
  })

  it('takes a text without any placeholder character as it is, or says what it drops', () => {
    expect(checkAppText('Bonjour', { placeholders: [] }, app)).toEqual({ ok: true, parsed: 'Bonjour' })
    expect(checkAppText('Bonjour', { placeholders: ['{name}'] }, app)).toEqual({
      ok: false,
      reason: 'it drops the placeholder {name}',
    })
    expect(checkAppText('{0} pour {1}', { placeholders: ['{name}', '{count}'] }, app)).toEqual({
      ok: true,
      parsed: '{name} pour {count}',
    })
  })
})

describe('jsString', () => {
  it('quotes text with nothing to escape exactly as JSON does', () => {
    for (const text of ['', 'Hello {name}!', 'Grüße, 日本語, 😀', "it's $1 `x` ${y}", '\u007f>']) {
      expect(jsString(text)).toBe(JSON.stringify(text))
    }
  })

  it('yields a literal that evaluates to exactly the input, for hostile input', () => {
    const hostile = [
      `"'\`\\`,
      '${alert(1)}',
      '</script><script>alert(1)</script>',
      '<!-- x',
      'line\u2028sep\u2029para\n\r',
      'lone \ud800 surrogate \udfff',
      'x'.repeat(100_000),
    ]
    for (const text of hostile) {
      const literal = jsString(text)
      expect(literal).not.toMatch(/[\u2028\u2029\n\r]|<\/script|<!--/i)
      expect(new Function(`return ${literal}`)()).toBe(text)
    }
  })
})
