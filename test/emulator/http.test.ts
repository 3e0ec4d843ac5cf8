import { describe, expect, it } from 'vitest'
import { errorOf, STRINGS, useEmulator } from './helpers'

const t = useEmulator()

describe('HTTP conventions', () => {
  it('binds 127.0.0.1 and gives a url without a trailing slash', () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(t.emulator.port).toBe(Number(new URL(t.url).port))
  })

  it('answers 414 to a request line over 16 KiB, and serves one just under it', async () => {
    const token = await t.login()
    const path = `${STRINGS}/source-strings?hashcodes=`
    // "GET " + path + " HTTP/1.1" must stay within 16384 bytes.
    const fits = 16 * 1024 - 'GET '.length - ' HTTP/1.1'.length - path.length
    const ok = await t.call('GET', path + 'a'.repeat(fits), { token })
    expect(ok.status).toBe(200)
    const tooLong = await t.call('GET', path + 'a'.repeat(fits + 1), { token })
    expect(errorOf(tooLong)).toEqual({
      status: 414,
      code: 'VALIDATION_ERROR',
      key: 'uri_too_long',
      field: undefined,
    })
    // Far past Node's own 16 KiB header limit: still our 414, not Node's 431.
    expect((await t.call('GET', path + 'a'.repeat(100_000), { token })).status).toBe(414)
  })

  it('wraps unknown endpoints in the envelope as NOT_FOUND_ERROR 404', async () => {
    const r = await t.call('GET', '/strings-api/v2/nothing/here')
    expect(r.body).toEqual({
      response: {
        code: 'NOT_FOUND_ERROR',
        errors: [{ key: 'endpoint_not_found', message: 'No endpoint GET /strings-api/v2/nothing/here' }],
        requestId: r.headers.get('x-sl-requestid'),
      },
    })
  })

  it('gives every response a requestId and an X-SL-RequestId header, echoing a caller-supplied one', async () => {
    const a = await t.call('POST', '/auth-api/v2/authenticate', { body: {} })
    const b = await t.call('POST', '/auth-api/v2/authenticate', { body: {} })
    expect(a.headers.get('x-sl-requestid')).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.body.response.requestId).toBe(a.headers.get('x-sl-requestid'))
    expect(b.body.response.requestId).not.toBe(a.body.response.requestId)
    const mine = await t.call('GET', '/nope', { headers: { 'X-SL-RequestId': 'client-req-1' } })
    expect(mine.headers.get('x-sl-requestid')).toBe('client-req-1')
    expect(mine.body.response.requestId).toBe('client-req-1')
    const bogus = await t.call('GET', '/nope', { headers: { 'X-SL-RequestId': 'a b<c>' } })
    expect(bogus.headers.get('x-sl-requestid')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers a non-JSON body with VALIDATION_ERROR naming the body', async () => {
    const r = await t.call('POST', '/auth-api/v2/authenticate', {
      body: 'userIdentifier=demo-user',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(r.body.response.code).toBe('VALIDATION_ERROR')
    expect(r.body.response.errors[0].details).toEqual({ field: 'body' })
    const text = await t.call('POST', '/auth-api/v2/authenticate', {
      body: 'hi',
      headers: { 'content-type': 'text/plain' },
    })
    expect(errorOf(text)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'body' })
  })

  it("answers a Content-Type it does not take in the spec's envelope: VALIDATION_ERROR 400, no fastify key", async () => {
    const token = await t.login()
    const answers = []
    for (const type of ['application/x-www-form-urlencoded', 'application/xml']) {
      const r = await t.call('POST', `${STRINGS}`, {
        body: '<strings/>',
        headers: { 'content-type': type },
        token,
      })
      answers.push([r.status, r.body.response.code, r.body.response.errors])
    }
    const refused = (type: string) => [
      400,
      'VALIDATION_ERROR',
      [
        {
          key: 'invalid_parameter',
          message: `body: Content-Type "${type}" is not accepted: send application/json (multipart/form-data for file uploads and imports)`,
          details: { field: 'body' },
        },
      ],
    ]
    expect(answers).toEqual([refused('application/x-www-form-urlencoded'), refused('application/xml')])
  })

  it('accepts a JSON content type with a charset', async () => {
    const r = await t.call('POST', '/auth-api/v2/authenticate', {
      body: { userIdentifier: 'demo-user', userSecret: 'demo-secret' },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(r.status).toBe(200)
  })
})
