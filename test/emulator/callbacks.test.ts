import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Receiver, startReceiver } from '../helpers/receiver'
import { eventually, ISO_DATE, PROJECT, useEmulator } from './helpers'

/** The emulator's log lines: one per callback attempt, written as its outcome is known. */
let logs: string[] = []
const t = useEmulator({ callbackRetryBaseMs: 10, log: (line) => logs.push(line) })

interface Received {
  method: string
  url: URL
  body: string
  contentType: string | undefined
}

let receiver: Receiver
let base: string
let received: Received[] = []
/** Statuses to answer, in order; once used up, 200. */
let script: number[] = []

beforeAll(async () => {
  receiver = await startReceiver((req) => {
    received.push({
      method: req.method,
      url: new URL(req.url, base),
      body: req.body,
      contentType: req.headers['content-type'],
    })
    return script.shift()
  })
  base = receiver.base
})
afterAll(() => receiver.close())
beforeEach(() => {
  received = []
  script = []
  logs = []
})

/**
 * Resolves once the emulator has logged `line`'s attempt: the sender decides then, in the same turn,
 * whether to try again, so a retry not planned by then never comes.
 */
async function attemptLogged(line: RegExp): Promise<void> {
  await eventually(async () => (logs.some((l) => line.test(l)) ? true : undefined))
}

/** Timers the emulator still holds (publish delays, callback retries): none means no more attempts. */
async function pendingTimers(): Promise<number> {
  return (await t.control('GET', '/state')).body.response.data.pendingTimers
}

const CUSTOM = { placeholderFormatCustom: String.raw`\{\w+\}` }

async function publish(hashcode: string, localeId: string, translation: string) {
  await t.control('POST', `/projects/${PROJECT}/translations`, {
    hashcode,
    localeId,
    translation,
    published: true,
  })
}

describe('string.localeCompleted callbacks', () => {
  it('GET carries projectId, hashcode, localeId and type as query parameters', async () => {
    const [h] = await t.createStrings([
      { stringText: 'Hi', callbackUrl: `${base}/hook?token=abc`, callbackMethod: 'GET' },
    ])
    await publish(h, 'fr-FR', 'Salut')
    await eventually(async () => (received.length === 1 ? true : undefined))
    const [call] = received
    expect(call.method).toBe('GET')
    expect(call.url.pathname).toBe('/hook')
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      token: 'abc',
      projectId: PROJECT,
      hashcode: h,
      localeId: 'fr-FR',
      type: 'string.localeCompleted',
    })
    expect(call.body).toBe('')
  })

  it('POST carries the same fields and the translations, placeholders restored', async () => {
    const [h] = await t.createStrings(
      [{ stringText: 'Hi {name}', callbackUrl: `${base}/post`, callbackMethod: 'POST' }],
      CUSTOM,
    )
    await publish(h, 'de-DE', 'Hallo {0}')
    await eventually(async () => (received.length === 1 ? true : undefined))
    const [call] = received
    expect(call.method).toBe('POST')
    expect(call.contentType).toBe('application/json')
    const body = JSON.parse(call.body)
    expect(body).toEqual({
      projectId: PROJECT,
      hashcode: h,
      localeId: 'de-DE',
      type: 'string.localeCompleted',
      translations: [
        { translation: 'Hallo {name}', pluralForm: null, modifiedDate: expect.stringMatching(ISO_DATE) },
      ],
    })
  })

  it('defaults to GET and is not sent for a pending (unpublished) translation', async () => {
    const [h] = await t.createStrings([{ stringText: 'Hi', callbackUrl: `${base}/default` }])
    await t.control('POST', `/projects/${PROJECT}/translations`, {
      hashcode: h,
      localeId: 'fr-FR',
      translation: 'x',
    })
    // A delivery is recorded as soon as it is decided, in the request that caused it: none for this one.
    expect((await t.control('GET', '/callbacks')).body.response.data.items).toEqual([])
    expect(await pendingTimers()).toBe(0)
    await publish(h, 'fr-FR', 'Salut')
    await eventually(async () => (received.length === 1 ? true : undefined))
    expect(received[0].method).toBe('GET')
  })

  it('is sent when the auto-translator publishes', async () => {
    await t.control('POST', `/projects/${PROJECT}/auto-translate`, { mode: 'memory', publishDelayMs: 20 })
    await t.createStrings([{ stringText: 'Save', callbackUrl: `${base}/auto` }])
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, { localeIds: ['fr-FR', 'de-DE'] })
    await eventually(async () => (received.length === 2 ? true : undefined))
    expect(received.map((r) => r.url.searchParams.get('localeId')).sort()).toEqual(['de-DE', 'fr-FR'])
  })

  it('retries a failed callback with backoff until it succeeds', async () => {
    script = [500, 503]
    const [h] = await t.createStrings([{ stringText: 'Hi', callbackUrl: `${base}/flaky` }])
    await publish(h, 'fr-FR', 'Salut')
    await attemptLogged(/\/flaky\S* attempt 3: 200$/)
    expect(await pendingTimers()).toBe(0)
    expect(received).toHaveLength(3)
    const deliveries = (await t.control('GET', '/callbacks')).body.response.data.items
    expect(deliveries).toEqual([
      expect.objectContaining({
        event: 'string.localeCompleted',
        attempts: 3,
        delivered: true,
        lastStatus: 200,
      }),
    ])
  })

  it('gives up after callbackRetries retries', async () => {
    await t.control('POST', '/config', { callbackRetries: 2, callbackRetryBaseMs: 5 })
    script = [500, 500, 500, 500, 500, 500]
    const [h] = await t.createStrings([{ stringText: 'Hi', callbackUrl: `${base}/down` }])
    await publish(h, 'fr-FR', 'Salut')
    await attemptLogged(/\/down\S* attempt 3: 500$/)
    expect(await pendingTimers()).toBe(0)
    expect(received).toHaveLength(3)
    const [delivery] = (await t.control('GET', '/callbacks')).body.response.data.items
    expect(delivery).toMatchObject({ attempts: 3, delivered: false, lastStatus: 500 })
  })

  it('retries when nothing listens', async () => {
    await t.control('POST', '/config', { callbackRetries: 1, callbackRetryBaseMs: 5 })
    const [h] = await t.createStrings([{ stringText: 'Hi', callbackUrl: 'http://127.0.0.1:9/closed' }])
    await publish(h, 'fr-FR', 'Salut')
    const delivery = await eventually(async () => {
      const [d] = (await t.control('GET', '/callbacks')).body.response.data.items
      return d?.attempts === 2 ? d : undefined
    })
    expect(delivery).toMatchObject({ delivered: false, lastStatus: null })
  })
})
