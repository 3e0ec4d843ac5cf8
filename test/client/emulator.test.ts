import { Agent, buildConnector } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, type TmsApiError, type TmsClient } from '../../src/client/index'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'
import { useEmulator } from '../helpers/emulator'
import { failure } from '../helpers/failure'
import { CREDENTIALS, control, PROJECT, requestLog } from './emu'

const emu = useEmulator()
let client: TmsClient

afterEach(async () => {
  await client?.close()
})

function connect(extra: Partial<Parameters<typeof createClient>[0]> = {}): TmsClient {
  client = createClient({ baseUrl: emu.url, ...CREDENTIALS, pollIntervalMs: 20, ...extra })
  return client
}

const strings = (n: number, prefix = 'Message') =>
  Array.from({ length: n }, (_, i) => ({ stringText: `${prefix} ${i} for {name}` }))

const REFRESH = 'POST /auth-api/v2/authenticate/refresh'
const AUTHENTICATE = 'POST /auth-api/v2/authenticate'
const SOURCE = 'GET /strings-api/v2/projects/:projectId/source-strings'
const TRANSLATIONS = 'GET /strings-api/v2/projects/:projectId/translations'
const CREATE = 'POST /strings-api/v2/projects/:projectId'

describe('auth', () => {
  it('authenticates lazily, once, for many concurrent first requests', async () => {
    const c = connect()
    expect((await requestLog(emu)).total).toBe(0)
    await Promise.all(
      Array.from({ length: 20 }, () => c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })),
    )
    const log = await requestLog(emu)
    expect(log.byRoute[AUTHENTICATE]).toBe(1)
    expect(log.byRoute[SOURCE]).toBe(20)
    expect(log.byRoute[REFRESH]).toBeUndefined()
  })

  it('50 parallel calls with a token the client knows to be expired make exactly one refresh', async () => {
    let now = Date.now()
    const c = connect({ now: () => now })
    await c.auth.accessToken()
    now += 481_000
    await control(emu, 'POST', 'clock', { advanceMs: 481_000 })
    await Promise.all(
      Array.from({ length: 50 }, () => c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })),
    )
    const log = await requestLog(emu)
    expect(log.byRoute).toEqual({ [AUTHENTICATE]: 1, [REFRESH]: 1, [SOURCE]: 50 })
  })

  it('50 parallel calls meeting 401 (token expired on the service only) make one refresh and one retry each', async () => {
    const c = connect()
    await c.auth.accessToken()
    await control(emu, 'POST', 'clock', { advanceMs: 481_000 })
    await Promise.all(
      Array.from({ length: 50 }, () => c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })),
    )
    const log = await requestLog(emu)
    expect(log.byRoute).toEqual({ [AUTHENTICATE]: 1, [REFRESH]: 1, [SOURCE]: 100 })
    expect(c.stats.retries).toBe(50)
  })

  it('refreshes shortly before expiry, not after', async () => {
    let now = Date.now()
    const c = connect({ now: () => now })
    await c.auth.accessToken()
    // 480 s lifetime, renewed in its last 48 s.
    now += 420_000
    await c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })
    expect((await requestLog(emu)).byRoute[REFRESH]).toBeUndefined()
    now += 20_000
    await c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })
    expect((await requestLog(emu)).byRoute[REFRESH]).toBe(1)
  })

  it('authenticates again when the refresh token has expired too', async () => {
    let now = Date.now()
    const c = connect({ now: () => now })
    await c.auth.accessToken()
    now += 3_700_000
    await control(emu, 'POST', 'clock', { advanceMs: 3_700_000 })
    await c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })
    expect((await requestLog(emu)).byRoute).toEqual({ [AUTHENTICATE]: 2, [SOURCE]: 1 })
  })

  it('falls back to the secret when the service refuses the refresh token', async () => {
    const c = connect()
    await c.auth.accessToken()
    // The service forgot everything: the client learns it from 401s.
    await control(emu, 'POST', 'clock', { advanceMs: 3_700_000 })
    await c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })
    expect((await requestLog(emu)).byRoute).toEqual({ [AUTHENTICATE]: 2, [REFRESH]: 1, [SOURCE]: 2 })
  })

  it('bad credentials give AUTHENTICATION_ERROR without the secret anywhere', async () => {
    client = createClient({ baseUrl: emu.url, userIdentifier: 'demo-user', userSecret: 'wrong-secret-123' })
    const error = await failure(client.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] }))
    expect(error.code).toBe('AUTHENTICATION_ERROR')
    expect(error.status).toBe(401)
    expect(error.errors).toEqual([
      { key: 'invalid_credentials', message: 'Invalid user identifier or user secret' },
    ])
    expect(error.requestId).toMatch(/^[\w-]{8,}$/)
    expect(error.message).toBe(
      'POST /auth-api/v2/authenticate failed: 401 AUTHENTICATION_ERROR: Invalid user identifier or user secret',
    )
    expect(error.request.body).toEqual({ userIdentifier: 'demo-user', userSecret: '[REDACTED]' })
    expect(JSON.stringify({ ...error, stack: error.stack })).not.toContain('wrong-secret-123')
  })
})

describe('strings', () => {
  it('creates up to 100 strings in one request and returns their hashcodes', async () => {
    const c = connect()
    const result = await c.strings.create(PROJECT, {
      placeholderFormatCustom: APP_PLACEHOLDER_SOURCE,
      namespace: 'app',
      strings: strings(100),
    })
    expect(result.stringCount).toBe(100)
    // The spec returns processUid on a 200 too: the process record of the finished work.
    expect(result.processUid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(await c.strings.process(PROJECT, result.processUid!)).toMatchObject({
      processUid: result.processUid,
      processState: 'closed',
      processStatistics: { requested: 100, processed: 100, errored: 0, skipped: 0 },
    })
    expect(result.items).toHaveLength(100)
    expect(result.items[7]).toEqual({
      variant: null,
      stringText: 'Message 7 for {name}',
      parsedStringText: 'Message 7 for {0}',
      hashcode: expect.stringMatching(/^[0-9a-f]{32}$/),
      overWritten: false,
    })
    expect(new Set(result.items.map((i) => i.hashcode)).size).toBe(100)
    const again = await c.strings.create(PROJECT, {
      placeholderFormatCustom: APP_PLACEHOLDER_SOURCE,
      namespace: 'app',
      strings: strings(1),
    })
    expect(again.items[0].overWritten).toBe(true)
    expect((await requestLog(emu)).byRoute[CREATE]).toBe(2)
  })

  it('refuses 101 strings and a too long text before sending, naming the field', async () => {
    const c = connect()
    const tooMany = await failure(c.strings.create(PROJECT, { strings: strings(101) }))
    expect(tooMany.code).toBe('INVALID_REQUEST')
    expect(tooMany.message).toBe(
      'POST /strings-api/v2/projects/:projectId not sent: strings has 101 items; at most 100 per request',
    )
    const tooLong = await failure(
      c.strings.createInBatches(PROJECT, { strings: [...strings(150), { stringText: 'x'.repeat(10_001) }] }),
    )
    expect(tooLong.errors[0].details).toEqual({ field: 'strings[150].stringText' })
    expect((await requestLog(emu)).total).toBe(0)
  })

  it('createInBatches sends 100 per request, in order', async () => {
    const c = connect()
    const results = await c.strings.createInBatches(PROJECT, { strings: strings(250) })
    expect(results.map((r) => r.items.length)).toEqual([100, 100, 50])
    expect(results.flatMap((r) => r.items.map((i) => i.stringText))).toEqual(
      strings(250).map((s) => s.stringText),
    )
    expect((await requestLog(emu)).byRoute[CREATE]).toBe(3)
  })

  it('follows a 202 through the process endpoint to the end', async () => {
    await control(emu, 'POST', 'config', { syncWindowMs: 0, processingMs: 150 })
    const c = connect()
    const result = await c.strings.create(PROJECT, { strings: strings(5) })
    expect(result.processUid).toMatch(/\S/)
    expect(result.items).toHaveLength(5)
    const process = await c.strings.process(PROJECT, result.processUid!)
    expect(process.processState).toBe('closed')
    expect(process.processStatistics).toEqual({ requested: 5, processed: 5, errored: 0, skipped: 0 })
    // The strings exist once the call returns.
    const stored = []
    for await (const s of c.strings.sourceStrings(PROJECT, {
      hashcodes: result.items.map((i) => i.hashcode),
    })) {
      stored.push(s.hashcode)
    }
    expect(stored.sort()).toEqual(result.items.map((i) => i.hashcode).sort())
    const log = await requestLog(emu)
    expect(log.byRoute[CREATE]).toBe(1)
    expect(
      log.byRoute['GET /strings-api/v2/projects/:projectId/processes/:processUid'],
    ).toBeGreaterThanOrEqual(2)
  })

  it('a failed process is an error', async () => {
    await control(emu, 'POST', 'config', { syncWindowMs: 0, processingMs: 50 })
    await control(emu, 'POST', 'faults', { processFailRate: 1 })
    const c = connect()
    const error = await failure(c.strings.create(PROJECT, { strings: strings(3) }))
    expect(error.code).toBe('PROCESS_FAILED')
    expect(error.message).toMatch(
      /^GET \/strings-api\/v2\/projects\/demo-project\/processes\/\S+ failed: process \S+ failed/,
    )
  })

  it('an expired process is an error', async () => {
    await control(emu, 'POST', 'config', { syncWindowMs: 0, processingMs: 0, processTtlMs: 0 })
    const c = connect()
    const error = await failure(c.strings.create(PROJECT, { strings: strings(2) }))
    expect(error.code).toBe('PROCESS_EXPIRED')
    expect(error.status).toBe(404)
    expect((error.cause as TmsApiError).code).toBe('NOT_FOUND_ERROR')
  })

  it('polling is bounded in time', async () => {
    await control(emu, 'POST', 'config', { syncWindowMs: 0, processingMs: 60_000 })
    const c = connect({ pollIntervalMs: 20, pollTimeoutMs: 200 })
    const error = await failure(c.strings.create(PROJECT, { strings: strings(1) }))
    expect(error.code).toBe('PROCESS_TIMEOUT')
    const polls = (await requestLog(emu)).byRoute[
      'GET /strings-api/v2/projects/:projectId/processes/:processUid'
    ]
    // 20, 30, 45, 67.5 ms waits fit in 200 ms; the 5th poll would not.
    expect(polls).toBeLessThanOrEqual(6)
  })

  it('pulls 1000 translations with hashcode lists split below the default 6 KiB, all pages', async () => {
    await control(emu, 'POST', `projects/${PROJECT}/auto-translate`, { mode: 'pseudo', publishDelayMs: 0 })
    const c = connect()
    const created = await c.strings.createInBatches(PROJECT, { strings: strings(1000) })
    const hashcodes = created.flatMap((r) => r.items.map((i) => i.hashcode))
    await control(emu, 'POST', `projects/${PROJECT}/strings/authorize`, { hashcodes, localeIds: ['fr-FR'] })
    await control(emu, 'DELETE', 'requests')
    const got = new Map<string, string>()
    for await (const item of c.strings.translations(PROJECT, { targetLocaleId: 'fr-FR', hashcodes })) {
      expect(item.translations).toHaveLength(1)
      got.set(item.hashcode, item.translations[0].translation)
    }
    expect(got.size).toBe(1000)
    expect([...got.keys()].sort()).toEqual([...hashcodes].sort())
    // Placeholders come back restored.
    expect([...got.values()].every((t) => t.includes('{name}'))).toBe(true)
    const log = await requestLog(emu)
    // 1000 hashcodes of 43 bytes each: 8 runs under 6 KiB, one page each; no 414.
    expect(log.byRoute).toEqual({ [TRANSLATIONS]: 8 })
    expect(client.stats.byStatus['414']).toBeUndefined()
  })

  it('with showPlaceholderValues=false translations keep the {N} form; pending sees unpublished ones', async () => {
    const c = connect()
    const [{ hashcode }] = (
      await c.strings.create(PROJECT, {
        placeholderFormatCustom: APP_PLACEHOLDER_SOURCE,
        strings: [{ stringText: 'Hi {name}' }],
      })
    ).items
    await control(emu, 'POST', `projects/${PROJECT}/strings/authorize`, { hashcodes: [hashcode] })
    await control(emu, 'POST', `projects/${PROJECT}/translations`, {
      hashcode,
      localeId: 'de-DE',
      translation: 'Hallo {name}',
      published: false,
    })
    const all = async (q: Parameters<TmsClient['strings']['translations']>[1]) => {
      const out = []
      for await (const item of c.strings.translations(PROJECT, q))
        out.push(item.translations.map((t) => t.translation))
      return out
    }
    expect(await all({ targetLocaleId: 'de-DE', hashcodes: [hashcode] })).toEqual([[]])
    expect(await all({ targetLocaleId: 'de-DE', hashcodes: [hashcode], retrievalType: 'pending' })).toEqual([
      ['Hallo {name}'],
    ])
    expect(
      await all({
        targetLocaleId: 'de-DE',
        hashcodes: [hashcode],
        retrievalType: 'pending',
        showPlaceholderValues: false,
      }),
    ).toEqual([['Hallo {0}']])
  })

  it('reads source strings of 700 hashcodes in five runs, in order, with their fields', async () => {
    const c = connect()
    const created = await c.strings.createInBatches(PROJECT, {
      strings: [
        { stringText: 'Save', variant: 'button', maxLength: 20, instruction: 'A verb' },
        ...strings(699, 'Page'),
      ],
    })
    const hashcodes = created.flatMap((r) => r.items.map((i) => i.hashcode))
    await control(emu, 'DELETE', 'requests')
    const seen = []
    for await (const s of c.strings.sourceStrings(PROJECT, { hashcodes })) seen.push(s)
    expect(seen.map((s) => s.hashcode)).toEqual(hashcodes)
    expect(seen[0]).toEqual({
      hashcode: hashcodes[0],
      stringText: 'Save',
      parsedStringText: 'Save',
      stringVariant: 'button',
      maxLength: 20,
      stringInstructions: ['A verb'],
      keys: [],
    })
    // 700 hashcodes of 43 bytes: five request lines under the default 6 KiB.
    expect((await requestLog(emu)).byRoute).toEqual({ [SOURCE]: 5 })
  })

  it('a 414 from the service is a clear error, not retried', async () => {
    const c = connect({ maxRequestLineBytes: 64 * 1024 })
    const hashcodes = Array.from({ length: 600 }, (_, i) => i.toString(16).padStart(32, '0'))
    const error = await failure(c.strings.translationsPage(PROJECT, { targetLocaleId: 'fr-FR', hashcodes }))
    expect(error.status).toBe(414)
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.errors[0].key).toBe('uri_too_long')
    expect(error.attempts).toBe(1)
  })

  it('an unknown target locale names the parameter', async () => {
    const c = connect()
    const error = await failure(
      c.strings.translationsPage(PROJECT, { targetLocaleId: 'xx-XX', hashcodes: ['a'] }),
    )
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.status).toBe(400)
    expect(error.message).toContain('xx-XX is not a target locale of project demo-project')
  })

  it('an unknown project is NOT_FOUND_ERROR', async () => {
    const c = connect()
    const error = await failure(
      c.strings.translationsPage('nope', { targetLocaleId: 'fr-FR', hashcodes: ['a'] }),
    )
    expect(error.code).toBe('NOT_FOUND_ERROR')
    expect(error.status).toBe(404)
  })

  it('reuses keep-alive connections, within the concurrency limit', async () => {
    let sockets = 0
    const connector = buildConnector({})
    const dispatcher = new Agent({
      connections: 2,
      connect: (options, callback) => {
        sockets++
        return connector(options, callback)
      },
    })
    try {
      const c = connect({ concurrency: 2, dispatcher })
      for (let i = 0; i < 10; i++) await c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] })
      await Promise.all(
        Array.from({ length: 10 }, () =>
          c.strings.sourceStringsPage(PROJECT, { hashcodes: ['0'.repeat(32)] }),
        ),
      )
      expect(c.stats.total).toBe(21)
      expect(sockets).toBe(2)
      // An injected dispatcher belongs to the caller: close() leaves it open.
      await c.close()
      expect(dispatcher.closed).toBe(false)
    } finally {
      await dispatcher.close()
    }
  })
})
