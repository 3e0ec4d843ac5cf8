import { describe, expect, it } from 'vitest'
import { errorOf, STRINGS, useEmulator } from './helpers'

const t = useEmulator({
  expiresIn: 60,
  refreshExpiresIn: 120,
  seed: {
    users: [
      { userIdentifier: 'demo-user', userSecret: 'demo-secret' },
      { userIdentifier: 'other-user', userSecret: 'other-secret', accountUids: ['other-account'] },
    ],
    accounts: [
      {
        accountUid: 'demo-account',
        projects: [{ projectId: 'demo-project', sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR'] }],
      },
      {
        accountUid: 'other-account',
        projects: [{ projectId: 'other-project', sourceLocaleId: 'en-US', targetLocaleIds: ['de-DE'] }],
      },
    ],
  },
})

const AUTH = '/auth-api/v2/authenticate'
const credentials = { userIdentifier: 'demo-user', userSecret: 'demo-secret' }

describe('authenticate', () => {
  it('returns a token pair with the configured lifetimes in seconds', async () => {
    const r = await t.call('POST', AUTH, { body: credentials })
    expect(r.status).toBe(200)
    expect(r.body.response.code).toBe('SUCCESS')
    const data = r.body.response.data
    expect(Object.keys(data).sort()).toEqual([
      'accessToken',
      'expiresIn',
      'refreshExpiresIn',
      'refreshToken',
      'tokenType',
    ])
    expect(data).toMatchObject({ expiresIn: 60, refreshExpiresIn: 120, tokenType: 'Bearer' })
    expect(data.accessToken).toMatch(/^\S{20,}$/)
    expect(data.refreshToken).not.toBe(data.accessToken)
  })

  it('rejects a wrong secret and an unknown user alike, without echoing the secret', async () => {
    for (const body of [
      { userIdentifier: 'demo-user', userSecret: 'wrong-secret-value' },
      { userIdentifier: 'nobody', userSecret: 'wrong-secret-value' },
    ]) {
      const r = await t.call('POST', AUTH, { body })
      expect(errorOf(r)).toEqual({
        status: 401,
        code: 'AUTHENTICATION_ERROR',
        key: 'invalid_credentials',
        field: undefined,
      })
      expect(JSON.stringify(r.body)).not.toContain('wrong-secret-value')
    }
  })

  it('names a missing or mistyped field', async () => {
    expect(errorOf(await t.call('POST', AUTH, { body: { userSecret: 'x' } }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'userIdentifier',
    })
    expect(errorOf(await t.call('POST', AUTH, { body: { userIdentifier: 'demo-user' } }))).toMatchObject({
      status: 400,
      field: 'userSecret',
    })
    expect(
      errorOf(await t.call('POST', AUTH, { body: { userIdentifier: 'demo-user', userSecret: 42 } })),
    ).toMatchObject({
      status: 400,
      field: 'userSecret',
    })
    expect(errorOf(await t.call('POST', AUTH, { body: '[1]' }))).toMatchObject({ status: 400, field: 'body' })
    expect(errorOf(await t.call('POST', AUTH, { body: '{not json' }))).toMatchObject({
      status: 400,
      field: 'body',
    })
  })
})

describe('access tokens', () => {
  it('are required on spec endpoints: missing, malformed and unknown tokens give invalid_token', async () => {
    const path = `${STRINGS}/source-strings?hashcodes=x`
    const expected = { status: 401, code: 'AUTHENTICATION_ERROR', key: 'invalid_token', field: undefined }
    expect(errorOf(await t.call('GET', path))).toEqual(expected)
    expect(errorOf(await t.call('GET', path, { headers: { authorization: 'Basic abc' } }))).toEqual(expected)
    expect(errorOf(await t.call('GET', path, { token: 'not-a-token' }))).toEqual(expected)
    const token = await t.login()
    expect((await t.call('GET', path, { token })).status).toBe(200)
    expect((await t.call('GET', path, { headers: { authorization: `bearer ${token}` } })).status).toBe(200)
  })

  it('expire after expiresIn seconds', async () => {
    const token = await t.login()
    const path = `${STRINGS}/source-strings?hashcodes=x`
    await t.control('POST', '/clock', { advanceMs: 59_000 })
    expect((await t.call('GET', path, { token })).status).toBe(200)
    await t.control('POST', '/clock', { advanceMs: 1_000 })
    const r = await t.call('GET', path, { token })
    expect(errorOf(r)).toEqual({
      status: 401,
      code: 'AUTHENTICATION_ERROR',
      key: 'invalid_token',
      field: undefined,
    })
    expect(r.body.response.errors[0].message).toBe('The access token has expired')
  })

  it('follow lifetimes changed through the control API', async () => {
    await t.control('POST', '/config', { expiresIn: 5, refreshExpiresIn: 7 })
    const r = await t.call('POST', AUTH, { body: credentials })
    expect(r.body.response.data).toMatchObject({ expiresIn: 5, refreshExpiresIn: 7 })
    await t.control('POST', '/clock', { advanceMs: 5_000 })
    const path = `${STRINGS}/source-strings?hashcodes=x`
    expect((await t.call('GET', path, { token: r.body.response.data.accessToken })).status).toBe(401)
  })

  it('survive a reset of the emulator', async () => {
    const token = await t.login()
    await t.control('POST', '/reset')
    expect((await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token })).status).toBe(200)
  })
})

describe('refresh', () => {
  const REFRESH = '/auth-api/v2/authenticate/refresh'

  it('exchanges a refresh token for a new working pair', async () => {
    const first = (await t.call('POST', AUTH, { body: credentials })).body.response.data
    await t.control('POST', '/clock', { advanceMs: 61_000 })
    const r = await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } })
    expect(r.status).toBe(200)
    const pair = r.body.response.data
    expect(pair).toMatchObject({ expiresIn: 60, refreshExpiresIn: 120, tokenType: 'Bearer' })
    expect(pair.accessToken).not.toBe(first.accessToken)
    expect(
      (await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token: pair.accessToken })).status,
    ).toBe(200)
    expect(
      (await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token: first.accessToken })).status,
    ).toBe(401)
  })

  it('fails once the refresh token expired, and for an unknown or missing one', async () => {
    const first = (await t.call('POST', AUTH, { body: credentials })).body.response.data
    await t.control('POST', '/clock', { advanceMs: 120_000 })
    const expired = await t.call('POST', REFRESH, { body: { refreshToken: first.refreshToken } })
    expect(errorOf(expired)).toEqual({
      status: 401,
      code: 'AUTHENTICATION_ERROR',
      key: 'invalid_token',
      field: undefined,
    })
    expect(expired.body.response.errors[0].message).toBe('The refresh token has expired')
    expect(errorOf(await t.call('POST', REFRESH, { body: { refreshToken: 'nope' } }))).toMatchObject({
      status: 401,
      key: 'invalid_token',
    })
    expect(errorOf(await t.call('POST', REFRESH, { body: {} }))).toMatchObject({
      status: 400,
      field: 'refreshToken',
    })
  })

  it('does not accept an access token as a refresh token', async () => {
    const first = (await t.call('POST', AUTH, { body: credentials })).body.response.data
    expect((await t.call('POST', REFRESH, { body: { refreshToken: first.accessToken } })).status).toBe(401)
  })
})

describe('projects', () => {
  it('unknown project is NOT_FOUND_ERROR with HTTP 404', async () => {
    const r = await t.api('GET', '/strings-api/v2/projects/nope/source-strings?hashcodes=x')
    expect(errorOf(r)).toEqual({
      status: 404,
      code: 'NOT_FOUND_ERROR',
      key: 'project_not_found',
      field: undefined,
    })
  })

  it("a user limited to other accounts gets AUTHORIZATION_ERROR (401) on this account's project", async () => {
    const login = await t.call('POST', AUTH, {
      body: { userIdentifier: 'other-user', userSecret: 'other-secret' },
    })
    const token = login.body.response.data.accessToken
    const denied = await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token })
    expect(errorOf(denied)).toEqual({
      status: 401,
      code: 'AUTHORIZATION_ERROR',
      key: 'forbidden',
      field: undefined,
    })
    const own = await t.call('GET', '/strings-api/v2/projects/other-project/source-strings?hashcodes=x', {
      token,
    })
    expect(own.status).toBe(200)
  })
})
