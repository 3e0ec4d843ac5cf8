import { describe, expect, it } from 'vitest'
import { errorOf, PROJECT, STRINGS, useEmulator } from './helpers'

const t = useEmulator()
const CUSTOM = { placeholderFormatCustom: String.raw`\{\w+\}` }

async function project() {
  const r = await t.control('GET', '/state')
  return r.body.response.data.projects.find((p: { projectId: string }) => p.projectId === PROJECT)
}
const published = async (hashcode: string, localeId: string) => {
  const r = await t.api('GET', `${STRINGS}/translations?targetLocaleId=${localeId}&hashcodes=${hashcode}`)
  return r.body.response.data.items[0]?.translations[0]?.translation
}

describe('reset', () => {
  it('empties the content and takes an optional new seed', async () => {
    await t.createStrings([{ stringText: 'a' }])
    expect((await project()).strings).toHaveLength(1)
    expect((await t.control('POST', '/reset')).body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect((await project()).strings).toHaveLength(0)
    const seed = {
      users: [{ userIdentifier: 'u', userSecret: 's' }],
      accounts: [
        { accountUid: 'a', projects: [{ projectId: 'p', sourceLocaleId: 'en', targetLocaleIds: ['it'] }] },
      ],
    }
    await t.control('POST', '/reset', { seed })
    const projects = (await t.control('GET', '/state')).body.response.data.projects
    expect(projects.map((p: { projectId: string }) => p.projectId)).toEqual(['p'])
    const bad = await t.control('POST', '/reset', {
      seed: { users: [{ userIdentifier: 'u' }], accounts: [] },
    })
    expect(errorOf(bad)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'seed' })
    expect(bad.body.response.errors[0].message).toContain('users[0].userSecret')
  })
})

describe('authorize', () => {
  it('authorizes all strings for all target locales when hashcodes and localeIds are omitted', async () => {
    await t.createStrings([{ stringText: 'a' }, { stringText: 'b' }])
    const r = await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    expect(r.body.response.data.authorizedCount).toBe(6)
    for (const s of (await project()).strings)
      expect(s.authorizedLocaleIds).toEqual(['fr-FR', 'de-DE', 'ja-JP'])
    expect(
      (await t.control('POST', `/projects/${PROJECT}/strings/authorize`, {})).body.response.data
        .authorizedCount,
    ).toBe(0)
  })

  it('authorizes only the given hashcodes and locales', async () => {
    const [a, b] = await t.createStrings([{ stringText: 'a' }, { stringText: 'b' }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, {
      hashcodes: [b],
      localeIds: ['de-DE'],
    })
    const strings = (await project()).strings
    expect(strings.find((s: { hashcode: string }) => s.hashcode === a).authorizedLocaleIds).toEqual([])
    expect(strings.find((s: { hashcode: string }) => s.hashcode === b).authorizedLocaleIds).toEqual(['de-DE'])
  })

  it('rejects unknown hashcodes, locales outside the project and an unknown project', async () => {
    const [a] = await t.createStrings([{ stringText: 'a' }])
    const path = `/projects/${PROJECT}/strings/authorize`
    expect(errorOf(await t.control('POST', path, { hashcodes: [a, 'nope'] }))).toMatchObject({
      status: 400,
      field: 'hashcodes[1]',
    })
    expect(errorOf(await t.control('POST', path, { localeIds: ['es-ES'] }))).toMatchObject({
      status: 400,
      field: 'localeIds[0]',
    })
    expect(errorOf(await t.control('POST', path, { localeIds: 'fr-FR' }))).toMatchObject({
      status: 400,
      field: 'localeIds',
    })
    expect(errorOf(await t.control('POST', '/projects/nope/strings/authorize'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND_ERROR',
    })
    expect((await project()).strings[0].authorizedLocaleIds).toEqual([])
  })

  it('unauthorize takes strings out of translation queries again', async () => {
    const [a] = await t.createStrings([{ stringText: 'a' }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    await t.control('POST', `/projects/${PROJECT}/translations`, {
      hashcode: a,
      localeId: 'fr-FR',
      translation: 'à',
      published: true,
    })
    expect(await published(a, 'fr-FR')).toBe('à')
    await t.control('POST', `/projects/${PROJECT}/strings/unauthorize`, { localeIds: ['fr-FR'] })
    expect(await published(a, 'fr-FR')).toBeUndefined()
  })
})

describe('set a translation', () => {
  it('accepts the {N} form or the source placeholders, and answers the restored text', async () => {
    const [h] = await t.createStrings([{ stringText: 'Hi {name}, {count}' }], CUSTOM)
    const path = `/projects/${PROJECT}/translations`
    const r = await t.control('POST', path, {
      hashcode: h,
      localeId: 'fr-FR',
      translation: '{count}, salut {name}',
    })
    expect(r.body.response.data).toEqual({
      hashcode: h,
      localeId: 'fr-FR',
      pending: '{count}, salut {name}',
      published: null,
    })
    await t.control('POST', path, {
      hashcode: h,
      localeId: 'de-DE',
      translation: 'Hallo {0}, {1}',
      published: true,
    })
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    const raw = await t.api(
      'GET',
      `${STRINGS}/translations?targetLocaleId=fr-FR&hashcodes=${h}&retrievalType=pending&showPlaceholderValues=false`,
    )
    expect(raw.body.response.data.items[0].translations[0].translation).toBe('{1}, salut {0}')
    expect(await published(h, 'de-DE')).toBe('Hallo {name}, {count}')
  })

  it('validates hashcode, localeId, translation and published', async () => {
    const [h] = await t.createStrings([{ stringText: 'x' }])
    const path = `/projects/${PROJECT}/translations`
    const field = async (body: Record<string, unknown>) => errorOf(await t.control('POST', path, body)).field
    expect(await field({ localeId: 'fr-FR', translation: 'y' })).toBe('hashcode')
    expect(await field({ hashcode: 'nope', localeId: 'fr-FR', translation: 'y' })).toBe('hashcode')
    expect(await field({ hashcode: h, translation: 'y' })).toBe('localeId')
    expect(await field({ hashcode: h, localeId: 'es-ES', translation: 'y' })).toBe('localeId[0]')
    expect(await field({ hashcode: h, localeId: 'fr-FR' })).toBe('translation')
    expect(await field({ hashcode: h, localeId: 'fr-FR', translation: 'y', published: 'yes' })).toBe(
      'published',
    )
    expect((await project()).strings[0].translations).toEqual({})
  })
})

describe('auto-translate', () => {
  const path = `/projects/${PROJECT}/auto-translate`

  it('memory: fills from the seed translation memory on authorization, publishes after the delay', async () => {
    expect(
      (await t.control('POST', path, { mode: 'memory', publishDelayMs: 60_000 })).body.response.data,
    ).toEqual({
      mode: 'memory',
      publishDelayMs: 60_000,
    })
    const [hello, unknown] = await t.createStrings(
      [{ stringText: 'Hello {user}!' }, { stringText: 'Not in memory' }],
      CUSTOM,
    )
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, { localeIds: ['fr-FR', 'ja-JP'] })
    const strings = (await project()).strings
    expect(strings[0].translations['fr-FR']).toMatchObject({ pending: 'Bonjour {user} !', published: null })
    expect(strings[0].translations['ja-JP']).toMatchObject({
      pending: 'こんにちは、{user}！',
      published: null,
    })
    expect(strings[1].translations).toEqual({})
    expect(await published(hello, 'fr-FR')).toBeUndefined()
    // The emulator's clock moved past the delay publishes at once, whatever the machine's speed.
    // One publication for the authorized batch (both locales).
    const moved = await t.control('POST', '/clock', { advanceMs: 60_000 })
    expect(moved.body.response.data).toMatchObject({ offsetMs: 60_000, ran: 1 })
    expect(await published(hello, 'fr-FR')).toBe('Bonjour {user} !')
    expect(await published(hello, 'ja-JP')).toBe('こんにちは、{user}！')
    expect(await published(unknown, 'fr-FR')).toBeUndefined()
    expect((await t.control('POST', '/clock', { advanceMs: 60_000 })).body.response.data.ran).toBe(0)
  })

  it('pseudo: pseudo-translates every authorized string and publishes at once with delay 0', async () => {
    await t.control('POST', path, { mode: 'pseudo' })
    const [h] = await t.createStrings([{ stringText: 'Hello {name}' }], CUSTOM)
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, { localeIds: ['de-DE'] })
    expect(await published(h, 'de-DE')).toBe('[Ĥéļļö {name}]')
  })

  it('off (the default): authorization leaves strings untranslated', async () => {
    const [h] = await t.createStrings([{ stringText: 'Save' }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    expect((await project()).autoTranslate).toEqual({ mode: 'off', publishDelayMs: 0 })
    expect(await published(h, 'fr-FR')).toBeUndefined()
    await t.control('POST', path, { mode: 'memory' })
    await t.control('POST', path, { mode: 'off' })
    const [h2] = await t.createStrings([{ stringText: 'Cancel' }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    expect(await published(h2, 'fr-FR')).toBeUndefined()
  })

  it('does not replace a translation a translator already saved', async () => {
    await t.control('POST', path, { mode: 'memory' })
    const [h] = await t.createStrings([{ stringText: 'Save' }])
    await t.control('POST', `/projects/${PROJECT}/translations`, {
      hashcode: h,
      localeId: 'fr-FR',
      translation: 'Sauver',
    })
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    expect((await project()).strings[0].translations['fr-FR'].pending).toBe('Sauver')
    expect(await published(h, 'de-DE')).toBe('Speichern')
  })

  it('cancels pending publications on reset', async () => {
    await t.control('POST', path, { mode: 'memory', publishDelayMs: 60_000 })
    await t.createStrings([{ stringText: 'Save' }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`)
    // One pending publication for the authorized batch of 3 locales.
    expect((await t.control('GET', '/state')).body.response.data.pendingTimers).toBe(1)
    await t.control('POST', '/reset')
    expect((await t.control('GET', '/state')).body.response.data.pendingTimers).toBe(0)
  })

  it('validates mode and publishDelayMs', async () => {
    expect(errorOf(await t.control('POST', path, { mode: 'magic' }))).toMatchObject({
      status: 400,
      field: 'mode',
    })
    expect(errorOf(await t.control('POST', path, { mode: 'memory', publishDelayMs: -1 }))).toMatchObject({
      status: 400,
      field: 'publishDelayMs',
    })
    expect(
      errorOf(await t.control('POST', '/projects/nope/auto-translate', { mode: 'memory' })),
    ).toMatchObject({
      status: 404,
    })
  })
})

describe('faults', () => {
  const injected = [
    ['429', 'MAX_OPERATIONS_LIMIT_EXCEEDED'],
    ['423', 'RESOURCE_LOCKED'],
    ['500', 'GENERAL_ERROR'],
    ['503', 'MAINTENANCE_MODE_ERROR'],
  ] as const

  for (const [status, code] of injected) {
    it(`rate ${status}: answers HTTP ${status} ${code} in the envelope and changes nothing`, async () => {
      const token = await t.login()
      await t.control('POST', '/faults', { rates: { [status]: 1 } })
      const r = await t.call('POST', STRINGS, { token, body: { strings: [{ stringText: 'faulted' }] } })
      expect(r.status).toBe(Number(status))
      expect(r.body.response.code).toBe(code)
      expect(r.body.response.errors[0].message).toEqual(expect.any(String))
      expect(r.headers.get('x-sl-requestid')).toBe(r.body.response.requestId)
      // "Wait and retry" (the spec): 429 and 503 say how long, by default not at all.
      expect(r.headers.get('retry-after')).toBe(status === '429' || status === '503' ? '0' : null)
      expect((await project()).strings).toHaveLength(0)
      // The control API is never faulted.
      expect((await t.control('GET', '/requests')).status).toBe(200)
    })
  }

  it('sends the configured Retry-After with 429 and 503', async () => {
    const token = await t.login()
    await t.control('POST', '/config', { retryAfterSeconds: 7 })
    for (const status of ['429', '503']) {
      await t.control('POST', '/faults', { rates: { [status]: 1 } })
      const r = await t.call('GET', `${STRINGS}/source-strings`, { token })
      expect([r.status, r.headers.get('retry-after')]).toEqual([Number(status), '7'])
    }
    expect(errorOf(await t.control('POST', '/config', { retryAfterSeconds: 86_401 }))).toMatchObject({
      field: 'retryAfterSeconds',
    })
  })

  it('is reproducible with a seed and hits about the given share', async () => {
    const token = await t.login()
    const run = async () => {
      await t.control('POST', '/faults', { rates: { '503': 0.5 }, seed: 42 })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) {
        statuses.push((await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token })).status)
      }
      return statuses
    }
    const first = await run()
    expect(await run()).toEqual(first)
    const failures = first.filter((s) => s === 503).length
    expect(failures).toBeGreaterThan(8)
    expect(failures).toBeLessThan(32)
    expect(new Set(first)).toEqual(new Set([200, 503]))
  })

  it('dropRate destroys the connection without an answer', async () => {
    await t.control('POST', '/faults', { dropRate: 1 })
    await expect(t.call('POST', '/auth-api/v2/authenticate', { body: {} })).rejects.toThrow()
    await t.control('POST', '/faults', {})
    expect((await t.call('POST', '/auth-api/v2/authenticate', { body: {} })).status).toBe(400)
  })

  it('latencyMs delays spec requests', async () => {
    await t.control('POST', '/faults', { latencyMs: 150 })
    const start = Date.now()
    await t.call('POST', '/auth-api/v2/authenticate', { body: {} })
    expect(Date.now() - start).toBeGreaterThanOrEqual(140)
    expect((await t.control('GET', '/faults')).body.response.data.latencyMs).toBe(150)
  })

  it('validates the settings', async () => {
    const field = async (body: unknown) => errorOf(await t.control('POST', '/faults', body)).field
    expect(await field({ rates: { '404': 0.1 } })).toBe('rates.404')
    expect(await field({ rates: { '429': 2 } })).toBe('rates.429')
    expect(await field({ rates: { '429': 0.6, '500': 0.6 } })).toBe('rates')
    expect(await field({ dropRate: -0.1 })).toBe('dropRate')
    expect(await field({ latencyMs: 'slow' })).toBe('latencyMs')
    expect(await field({ seed: 1.5 })).toBe('seed')
    expect(await field({ jitter: 1 })).toBe('jitter')
  })
})

describe('request log', () => {
  it('counts spec requests by method and route pattern, not control calls, and can be cleared', async () => {
    const token = await t.login()
    await t.call('POST', STRINGS, { token, body: { strings: [{ stringText: 'a' }] } })
    await t.call('POST', STRINGS, { token, body: { strings: [{ stringText: 'b' }] } })
    await t.call('GET', `${STRINGS}/source-strings?hashcodes=x`, { token })
    await t.call('GET', '/strings-api/v2/projects/other/translations?targetLocaleId=fr-FR', { token })
    await t.call('GET', '/no/such/route')
    await t.control('GET', '/state')
    const r = await t.control('GET', '/requests')
    expect(r.body.response.data).toEqual({
      total: 5,
      byRoute: {
        'POST /auth-api/v2/authenticate': 1,
        'POST /strings-api/v2/projects/:projectId': 2,
        'GET /strings-api/v2/projects/:projectId/source-strings': 1,
        'GET /strings-api/v2/projects/:projectId/translations': 1,
      },
    })
    expect((await t.control('DELETE', '/requests')).body.response.data).toEqual({ total: 0, byRoute: {} })
    expect((await t.control('GET', '/requests')).body.response.data.total).toBe(0)
  })

  it('counts faulted requests too (a client made them)', async () => {
    await t.control('POST', '/faults', { rates: { '500': 1 } })
    await t.call('POST', '/auth-api/v2/authenticate', { body: {} })
    expect((await t.control('GET', '/requests')).body.response.data.total).toBe(1)
  })
})

describe('config and clock', () => {
  it('reads and changes settings, rejecting unknown and out-of-range ones', async () => {
    const initial = (await t.control('GET', '/config')).body.response.data
    expect(initial).toEqual({
      expiresIn: 480,
      refreshExpiresIn: 3660,
      syncWindowMs: 60000,
      processingMs: 0,
      processTtlMs: 3600000,
      callbackRetries: 3,
      callbackRetryBaseMs: 1000,
      jobSyncMaxHashcodes: 100,
      jobProcessMs: 0,
      fileOperationMs: 0,
      fileDeleteMs: 60000,
      retryAfterSeconds: 0,
    })
    expect((await t.control('POST', '/config', { syncWindowMs: 0 })).body.response.data.syncWindowMs).toBe(0)
    expect(errorOf(await t.control('POST', '/config', { syncWindow: 0 }))).toMatchObject({
      status: 400,
      field: 'syncWindow',
    })
    expect(errorOf(await t.control('POST', '/config', { expiresIn: 0 }))).toMatchObject({
      status: 400,
      field: 'expiresIn',
    })
    await t.control('POST', '/reset')
    expect((await t.control('GET', '/config')).body.response.data).toEqual(initial)
  })

  it('moves the clock forward only', async () => {
    const r = await t.control('POST', '/clock', { advanceMs: 86_400_000 })
    expect(r.body.response.data.offsetMs).toBe(86_400_000)
    expect(Date.parse(r.body.response.data.now) - Date.now()).toBeGreaterThan(86_000_000)
    expect(errorOf(await t.control('POST', '/clock', { advanceMs: -1 }))).toMatchObject({
      field: 'advanceMs',
    })
    expect(errorOf(await t.control('POST', '/clock', {}))).toMatchObject({ field: 'advanceMs' })
  })
})
