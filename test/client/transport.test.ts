import { afterEach, describe, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { failure } from '../helpers/failure'
import { envelope, type RawServer, startRawServer } from './raw-server'

const SECRET = 'very-secret-value-42'
const fast = { retries: 3, minDelayMs: 1, maxDelayMs: 5, maxTotalMs: 10_000 }

let server: RawServer | null = null
let client: TmsClient | null = null

afterEach(async () => {
  await client?.close()
  await server?.close()
  client = null
  server = null
})

function connect(
  url: string,
  extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {},
) {
  client = createClient({ baseUrl: url, userIdentifier: 'u1', userSecret: SECRET, retry: fast, ...extra })
  return client
}

const resourceHits = (s: RawServer) => s.hits.filter((h) => !h.url.startsWith('/auth-api'))

describe('non-envelope answers', () => {
  it('an HTML 502 page on a GET is retried, then a clear INVALID_RESPONSE, never data', async () => {
    server = await startRawServer((_hit, res) => {
      res.writeHead(502, { 'content-type': 'text/html' })
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
    })
    const c = connect(server.url)
    const error = await failure(c.glossaries.get('acc', 'g1'))
    expect(error.code).toBe('INVALID_RESPONSE')
    expect(error.status).toBe(502)
    expect(error.attempts).toBe(4)
    expect(error.message).toBe(
      'GET /glossary-api/v2/accounts/acc/glossaries/g1 failed: HTTP 502 answer is not a JSON envelope (text/html, 50 bytes): "<html><body><h1>502 Bad Gateway</h1></body></html>"',
    )
    expect(resourceHits(server)).toHaveLength(4)
    expect(c.stats.retries).toBe(3)
    expect(c.stats.byStatus).toEqual({ '200': 1, '502': 4 })
  })

  it('an HTML 502 on a request that is not safe to repeat is not retried', async () => {
    server = await startRawServer((_hit, res) => {
      res.writeHead(502, { 'content-type': 'text/html' })
      res.end('<html>bad gateway</html>')
    })
    const c = connect(server.url)
    const error = await failure(
      c.issues.create('p1', {
        issueText: 'Typo',
        issueTypeCode: 'SOURCE',
        issueSubTypeCode: 'MISSPELLING',
        string: { hashcode: 'h', localeId: null },
      }),
    )
    expect(error.code).toBe('INVALID_RESPONSE')
    expect(error.attempts).toBe(1)
    expect(resourceHits(server)).toHaveLength(1)
  })

  it('a body cut short by the server is a network error, retried; the retry succeeds', async () => {
    server = await startRawServer((_hit, res, index) => {
      if (index === 0) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' })
        res.write('{"response":{"code":"SUCCESS","data":{"glossaryUid":"g1"')
        setTimeout(() => res.socket?.destroy(), 20)
        return
      }
      envelope(res, 200, { code: 'SUCCESS', data: { glossaryUid: 'g1', name: 'Terms' } })
    })
    const c = connect(server.url)
    expect(await c.glossaries.get('acc', 'g1')).toEqual({ glossaryUid: 'g1', name: 'Terms' })
    expect(resourceHits(server)).toHaveLength(2)
    expect(c.stats.byStatus.network).toBe(1)
  })

  it('a complete 200 whose JSON is truncated is INVALID_RESPONSE, not parsed; a GET asks again', async () => {
    server = await startRawServer((_hit, res, index) => {
      if (index === 1) {
        return envelope(res, 200, {
          code: 'SUCCESS',
          data: { totalCount: 1, items: [{ glossaryUid: 'g1' }] },
        })
      }
      const body = '{"response":{"code":"SUCCESS","data":{"items":['
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
    const c = connect(server.url)
    // The work may have been done, as after a 5xx: a request that is safe to repeat is sent again.
    expect(await c.glossaries.listPage('acc')).toEqual({ totalCount: 1, items: [{ glossaryUid: 'g1' }] })
    expect(c.stats.retries).toBe(1)
    // One that is not (creating a glossary twice makes two) is not.
    const error = await failure(
      c.glossaries.create('acc', { name: 'Terms', description: 'Product terms', sourceLocaleId: 'en-US' }),
    )
    expect(error.code).toBe('INVALID_RESPONSE')
    expect(error.status).toBe(200)
    expect(error.attempts).toBe(1)
  })

  it('a 200 envelope without the items array of a list is asked again, then named', async () => {
    server = await startRawServer((_hit, res) => envelope(res, 200, { code: 'SUCCESS', data: {} }))
    const c = connect(server.url)
    const error = await failure(c.glossaries.listPage('acc'))
    expect(error.code).toBe('INVALID_RESPONSE')
    expect(error.message).toContain('the list answer has no items array')
    expect(error.attempts).toBe(4)
  })
})

describe('retries', () => {
  it('honours Retry-After beyond the backoff', async () => {
    server = await startRawServer((_hit, res, index) => {
      if (index === 0) {
        return envelope(
          res,
          429,
          { code: 'MAX_OPERATIONS_LIMIT_EXCEEDED', errors: [{ key: 'k', message: 'slow down' }] },
          {
            'retry-after': '1',
          },
        )
      }
      envelope(res, 200, { code: 'SUCCESS', data: { count: 3 } })
    })
    const c = connect(server.url)
    expect(await c.issues.count('p1')).toBe(3)
    const [first, second] = resourceHits(server)
    expect(second.at - first.at).toBeGreaterThanOrEqual(990)
  })

  it('gives up at once when Retry-After does not fit in maxTotalMs', async () => {
    server = await startRawServer((_hit, res) =>
      envelope(
        res,
        503,
        { code: 'MAINTENANCE_MODE_ERROR', errors: [{ key: 'm', message: 'maintenance' }] },
        {
          'retry-after': '3600',
        },
      ),
    )
    const c = connect(server.url)
    const error = await failure(c.issues.count('p1'))
    expect(error.code).toBe('MAINTENANCE_MODE_ERROR')
    expect(error.status).toBe(503)
    expect(error.retryAfterMs).toBe(3_600_000)
    expect(resourceHits(server)).toHaveLength(1)
  })

  it('times out a hanging request, retries it a bounded number of times', async () => {
    server = await startRawServer(() => {
      // never answers
    })
    const c = connect(server.url, { timeoutMs: 150, retry: { ...fast, retries: 1 } })
    const error = await failure(c.glossaries.get('acc', 'g1'))
    expect(error.code).toBe('TIMEOUT')
    expect(error.status).toBe(0)
    expect(error.attempts).toBe(2)
    expect(error.message).toBe(
      'GET /glossary-api/v2/accounts/acc/glossaries/g1 failed: no complete answer within 150 ms',
    )
    expect(resourceHits(server)).toHaveLength(2)
  })

  it('a 400 is not retried', async () => {
    server = await startRawServer((_hit, res) =>
      envelope(res, 400, { code: 'VALIDATION_ERROR', errors: [{ key: 'bad', message: 'nope' }] }),
    )
    const c = connect(server.url)
    const error = await failure(c.issues.count('p1'))
    expect(error.attempts).toBe(1)
    expect(resourceHits(server)).toHaveLength(1)
  })
})

describe('errors', () => {
  it('turns a single error object into an array and keeps requestId, details and a blanked request', async () => {
    server = await startRawServer((_hit, res) =>
      envelope(res, 400, {
        code: 'VALIDATION_ERROR',
        errors: { key: 'unknown.field', message: 'Unknown field svc.foo' },
        requestId: 'req-77',
        message: 'Validation failed',
        details: { field: 'svc.foo' },
      }),
    )
    const c = connect(server.url)
    const error = await failure(c.files.rename('p1', 'a.json', 'b.json'))
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.status).toBe(400)
    expect(error.errors).toEqual([{ key: 'unknown.field', message: 'Unknown field svc.foo' }])
    expect(error.requestId).toBe('req-77')
    expect(error.details).toEqual({ field: 'svc.foo' })
    expect(error.request).toEqual({
      method: 'POST',
      url: `${server.url}/files-api/v2/projects/p1/file/rename`,
      headers: { 'user-agent': expect.stringMatching(/^unplugin-tms\//), authorization: '[REDACTED]' },
      body: '[form data]',
    })
    expect(error.message).toBe(
      'POST /files-api/v2/projects/p1/file/rename failed: 400 VALIDATION_ERROR: Unknown field svc.foo',
    )
    // The request really carried the token.
    expect(resourceHits(server)[0].headers.authorization).toBe('Bearer at-0')
  })

  it('never puts the secret or a token in message, errors, stack or request copy', async () => {
    server = await startRawServer((hit, res) =>
      // A service that echoes what it got: the client must scrub it.
      envelope(res, 401, {
        code: 'AUTHENTICATION_ERROR',
        errors: [{ key: 'invalid_token', message: `rejected ${hit.headers.authorization} for ${SECRET}` }],
      }),
    )
    const c = connect(server.url)
    const error = await failure(c.issues.count('p1'))
    expect(error.code).toBe('AUTHENTICATION_ERROR')
    // One refresh-and-retry, then the error.
    expect(server.hits.map((h) => h.url)).toEqual([
      '/auth-api/v2/authenticate',
      '/issues-api/v2/projects/p1/issues/count',
      '/auth-api/v2/authenticate/refresh',
      '/issues-api/v2/projects/p1/issues/count',
    ])
    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack })
    for (const secret of [SECRET, 'at-0', 'at-1', 'rt-0', 'rt-1']) expect(everything).not.toContain(secret)
    expect(error.errors[0].message).toBe('rejected Bearer [REDACTED] for [REDACTED]')
  })

  it('authentication failures carry the request with userSecret blanked', async () => {
    server = await startRawServer(() => {})
    await server.close()
    const c = connect(server.url, { retry: { ...fast, retries: 0 } })
    const error = await failure(c.auth.authenticate())
    expect(error.code).toBe('NETWORK_ERROR')
    expect(error.request.body).toEqual({ userIdentifier: 'u1', userSecret: '[REDACTED]' })
    expect(JSON.stringify(error.request)).not.toContain(SECRET)
    server = null
  })
})

describe('concurrency', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0
    let peak = 0
    server = await startRawServer((_hit, res) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      setTimeout(() => {
        inFlight--
        envelope(res, 200, { code: 'SUCCESS', data: { count: 1 } })
      }, 30)
    })
    const c = connect(server.url, { concurrency: 3 })
    const counts = await Promise.all(Array.from({ length: 12 }, () => c.issues.count('p1')))
    expect(counts).toEqual(Array(12).fill(1))
    expect(peak).toBe(3)
    expect(c.stats.total).toBe(13)
    expect(c.stats.byRoute).toEqual({
      'POST /auth-api/v2/authenticate': 1,
      'POST /issues-api/v2/projects/:projectId/issues/count': 12,
    })
  })

  it('refuses requests after close()', async () => {
    server = await startRawServer((_hit, res) => envelope(res, 200, { code: 'SUCCESS', data: { count: 1 } }))
    const c = connect(server.url)
    await c.close()
    const error = await failure(c.issues.count('p1'))
    expect(error.code).toBe('CLIENT_CLOSED')
    expect(server.hits).toHaveLength(0)
  })
})

describe('options', () => {
  it('names the missing or bad option', () => {
    expect(() => createClient({ baseUrl: '', userIdentifier: 'u', userSecret: 's' })).toThrow(
      '[unplugin-tms] client option baseUrl is required (or set TMS_BASE_URL)',
    )
    expect(() => createClient({ baseUrl: 'http://x', userIdentifier: 'u', userSecret: '' })).toThrow(
      '[unplugin-tms] client option userSecret is required (or set TMS_USER_SECRET)',
    )
    expect(() =>
      createClient({ baseUrl: 'http://x', userIdentifier: 'u', userSecret: 's', concurrency: 0 }),
    ).toThrow('[unplugin-tms] client option concurrency must be a number >= 1, got 0')
    expect(() => createClient({ baseUrl: 'ftp://x', userIdentifier: 'u', userSecret: 's' })).toThrow(
      '[unplugin-tms] client option baseUrl must be an http(s) URL, got ftp:',
    )
  })
})
