import { describe, expect, it } from 'vitest'
import { redactBody, redactHeaders, scrubSecrets } from '../../src/client/errors'
import { paginate, splitByLength } from '../../src/client/paging'
import { buildQuery } from '../../src/client/query'
import { parseEnvelope, parseRetryAfter } from '../../src/client/response'

describe('buildQuery', () => {
  it('repeats array names for the strings and jobs interfaces', () => {
    expect(buildQuery({ hashcodes: ['a', 'b'], targetLocaleId: 'fr-FR', limit: 500 }, 'repeat')).toBe(
      '?hashcodes=a&hashcodes=b&targetLocaleId=fr-FR&limit=500',
    )
  })

  it('suffixes [] for the files interface, even for one value', () => {
    expect(buildQuery({ fileUris: ['a/b.json'], localeIds: ['fr-FR', 'de-DE'] }, 'brackets')).toBe(
      '?fileUris[]=a%2Fb.json&localeIds[]=fr-FR&localeIds[]=de-DE',
    )
  })

  it('joins with commas for glossaryUids', () => {
    expect(buildQuery({ name: 'x y', glossaryUids: ['g1', 'g2'] }, 'comma')).toBe(
      '?name=x%20y&glossaryUids=g1,g2',
    )
  })

  it('leaves out absent values and empty arrays', () => {
    expect(buildQuery({ a: undefined, b: null, c: [], d: false }, 'repeat')).toBe('?d=false')
    expect(buildQuery({}, 'repeat')).toBe('')
  })
})

describe('parseEnvelope', () => {
  it('reads code, data, requestId and the fields beside them', () => {
    const env = parseEnvelope(
      JSON.stringify({
        response: {
          code: 'VALIDATION_ERROR',
          errors: { key: 'k', message: 'm' },
          requestId: 'r1',
          details: { field: 'f' },
        },
      }),
    )
    expect(env).toEqual({
      code: 'VALIDATION_ERROR',
      data: null,
      errors: { key: 'k', message: 'm' },
      requestId: 'r1',
      extra: { details: { field: 'f' } },
    })
  })

  it('refuses HTML, truncated JSON and JSON that is not an envelope', () => {
    expect(parseEnvelope('<html><body>502 Bad Gateway</body></html>')).toBeNull()
    expect(parseEnvelope('{"response":{"code":"SUCCESS","data":{"items":[')).toBeNull()
    expect(parseEnvelope('{"items":[]}')).toBeNull()
    expect(parseEnvelope('{"response":{"data":{}}}')).toBeNull()
    expect(parseEnvelope('')).toBeNull()
  })
})

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000)
    expect(parseRetryAfter('0.5')).toBe(500)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000)
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter(null)).toBeUndefined()
  })
})

describe('redaction', () => {
  it('blanks secrets and tokens at any depth, and the Authorization header', () => {
    expect(
      redactBody({
        userIdentifier: 'u',
        userSecret: 's3cret',
        nested: [{ refreshToken: 'rt', accessToken: 'at', x: 1 }],
      }),
    ).toEqual({
      userIdentifier: 'u',
      userSecret: '[REDACTED]',
      nested: [{ refreshToken: '[REDACTED]', accessToken: '[REDACTED]', x: 1 }],
    })
    expect(redactHeaders({ Authorization: 'Bearer abc', accept: 'application/json' })).toEqual({
      Authorization: '[REDACTED]',
      accept: 'application/json',
    })
  })

  it('scrubs known secret values out of texts', () => {
    expect(scrubSecrets('bad secret hunter22 for token tok-123', ['hunter22', 'tok-123', null])).toBe(
      'bad secret [REDACTED] for token [REDACTED]',
    )
  })
})

describe('splitByLength', () => {
  it('keeps every run within the limit and every value in order', () => {
    const values = Array.from({ length: 50 }, (_, i) => `v${String(i).padStart(2, '0')}`)
    const runs = splitByLength(values, 20, (v) => v.length + 1, 60)
    expect(runs.flat()).toEqual(values)
    for (const run of runs) expect(20 + run.length * 4).toBeLessThanOrEqual(60)
    expect(runs.map((r) => r.length)).toEqual([10, 10, 10, 10, 10])
  })

  it('refuses a value that cannot fit on its own', () => {
    expect(() => splitByLength(['x'.repeat(100)], 20, (v) => v.length, 60)).toThrow(/too long/)
  })
})

describe('paginate', () => {
  it('follows totalCount across short pages', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i)
    const offsets: number[] = []
    const got: number[] = []
    // A service capping pages at 3 though 5 were asked for.
    for await (const item of paginate(async (offset) => {
      offsets.push(offset)
      return { totalCount: 7, items: all.slice(offset, offset + 3) }
    }, 5)) {
      got.push(item)
    }
    expect(got).toEqual(all)
    expect(offsets).toEqual([0, 3, 6])
  })

  it('stops on a short page when there is no totalCount', async () => {
    const offsets: number[] = []
    const got: number[] = []
    for await (const item of paginate(async (offset, limit) => {
      offsets.push(offset)
      return { items: Array.from({ length: Math.min(limit, 12 - offset) }, (_, i) => offset + i) }
    }, 5)) {
      got.push(item)
    }
    expect(got).toHaveLength(12)
    expect(offsets).toEqual([0, 5, 10])
  })
})
