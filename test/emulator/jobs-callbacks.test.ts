import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Receiver, startReceiver } from '../helpers/receiver'
import { eventually, PROJECT, sleep, useEmulator } from './helpers'

const t = useEmulator({ callbackRetryBaseMs: 10 })

const J = `/jobs-api/v3/projects/${PROJECT}/jobs`

interface Received {
  method: string
  url: URL
  body: string
}

let receiver: Receiver
let base: string
let received: Received[] = []
/** Statuses to answer, in order; once used up, 200. */
let script: number[] = []

beforeAll(async () => {
  receiver = await startReceiver((req) => {
    received.push({ method: req.method, url: new URL(req.url, base), body: req.body })
    return script.shift()
  })
  base = receiver.base
})
afterAll(() => receiver.close())
beforeEach(() => {
  received = []
  script = []
})

async function jobWithContent(extra: Record<string, unknown>, texts = ['One']) {
  const hashcodes = await t.createStrings(texts.map((stringText) => ({ stringText })))
  const r = await t.api('POST', J, { jobName: 'J', targetLocaleIds: ['fr-FR', 'de-DE'], ...extra })
  const uid: string = r.body.response.data.translationJobUid
  await t.api('POST', `${J}/${uid}/strings/add`, { hashcodes })
  return { uid, hashcodes }
}

async function publish(hashcode: string, localeId: string) {
  await t.control('POST', `/projects/${PROJECT}/translations`, {
    hashcode,
    localeId,
    translation: 'T',
    published: true,
  })
}

const arrived = (n: number) => eventually(async () => (received.length >= n ? true : undefined))

describe('job callbacks', () => {
  it('GET (the default): job.localeCompleted per locale, then job.completed, as query parameters', async () => {
    const { uid, hashcodes } = await jobWithContent({ callbackUrl: `${base}/job?secret=s1` })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(hashcodes[0], 'fr-FR')
    await arrived(1)
    expect(received[0].method).toBe('GET')
    expect(received[0].url.pathname).toBe('/job')
    expect(Object.fromEntries(received[0].url.searchParams)).toEqual({
      secret: 's1',
      translationJobUid: uid,
      type: 'job.localeCompleted',
      localeId: 'fr-FR',
    })
    await publish(hashcodes[0], 'de-DE')
    await arrived(3)
    await sleep(30)
    expect(received.map((r) => Object.fromEntries(r.url.searchParams))).toEqual([
      { secret: 's1', translationJobUid: uid, type: 'job.localeCompleted', localeId: 'fr-FR' },
      { secret: 's1', translationJobUid: uid, type: 'job.localeCompleted', localeId: 'de-DE' },
      { secret: 's1', translationJobUid: uid, type: 'job.completed' },
    ])
    expect(received.every((r) => r.body === '')).toBe(true)
  })

  it('POST sends the same fields as JSON', async () => {
    const { uid, hashcodes } = await jobWithContent({ callbackUrl: `${base}/post`, callbackMethod: 'POST' })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(hashcodes[0], 'fr-FR')
    await publish(hashcodes[0], 'de-DE')
    await arrived(3)
    expect(received.map((r) => [r.method, r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['POST', '/post', { translationJobUid: uid, type: 'job.localeCompleted', localeId: 'fr-FR' }],
      ['POST', '/post', { translationJobUid: uid, type: 'job.localeCompleted', localeId: 'de-DE' }],
      ['POST', '/post', { translationJobUid: uid, type: 'job.completed' }],
    ])
  })

  it("job.cancelled carries ts, the time of cancellation in the spec's ISO 8601 form (POST and GET)", async () => {
    const now = async (): Promise<string> => (await t.control('GET', '/state')).body.response.data.now
    const post = await jobWithContent({ jobName: 'P', callbackUrl: `${base}/c`, callbackMethod: 'POST' }, [
      'One',
    ])
    const get = await jobWithContent({ jobName: 'G', callbackUrl: `${base}/g` }, ['Two'])
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    const before = await now()
    await t.api('POST', `${J}/${post.uid}/cancel`, { reason: 'no longer needed' })
    await t.api('POST', `${J}/${get.uid}/cancel`, {})
    const after = await now()
    await arrived(2)
    const body = JSON.parse(received.find((r) => r.url.pathname === '/c')!.body)
    expect(body).toEqual({ translationJobUid: post.uid, type: 'job.cancelled', ts: expect.any(String) })
    const query = received.find((r) => r.url.pathname === '/g')!.url.searchParams
    expect([...query.keys()]).toEqual(['translationJobUid', 'type', 'ts'])
    for (const ts of [body.ts, query.get('ts')]) {
      expect(ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
      // The emulator's time (a minute ahead here), read just before and after the cancellations.
      expect(ts >= before && ts <= after).toBe(true)
    }
  })

  it('a failed job callback is retried', async () => {
    script = [500, 503]
    const { uid } = await jobWithContent({ callbackUrl: `${base}/flaky` })
    await t.api('POST', `${J}/${uid}/cancel`, {})
    await arrived(3)
    await sleep(60)
    expect(received).toHaveLength(3)
    const deliveries = (await t.control('GET', '/callbacks')).body.response.data.items
    expect(deliveries).toEqual([
      expect.objectContaining({
        event: 'job.cancelled',
        method: 'GET',
        attempts: 3,
        delivered: true,
        lastStatus: 200,
      }),
    ])
  })

  it('the auto-translator finishing the job sends the callbacks; no callbackUrl, no callback', async () => {
    await t.control('POST', `/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
    const { uid } = await jobWithContent({ callbackUrl: `${base}/auto` }, ['One', 'Two'])
    await t.api('POST', `${J}/${uid}/authorize`, {})
    expect((await t.api('GET', `${J}/${uid}`)).body.response.data.jobStatus).toBe('COMPLETE')
    await arrived(3)
    expect(received.map((r) => r.url.searchParams.get('type'))).toEqual([
      'job.localeCompleted',
      'job.localeCompleted',
      'job.completed',
    ])

    received = []
    const hashcodes = await t.createStrings([{ stringText: 'Three' }])
    const quiet = (await t.api('POST', J, { jobName: 'Quiet', targetLocaleIds: ['fr-FR'] })).body.response
      .data
    await t.api('POST', `${J}/${quiet.translationJobUid}/strings/add`, { hashcodes })
    await t.api('POST', `${J}/${quiet.translationJobUid}/authorize`, {})
    expect((await t.api('GET', `${J}/${quiet.translationJobUid}`)).body.response.data.jobStatus).toBe(
      'COMPLETE',
    )
    await sleep(50)
    expect(received).toEqual([])
  })

  it('a locale completes once per content: new content for it sends job.localeCompleted again', async () => {
    const { uid, hashcodes } = await jobWithContent({
      callbackUrl: `${base}/again`,
      targetLocaleIds: ['fr-FR'],
    })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(hashcodes[0], 'fr-FR')
    // Publishing the same string again does not repeat the callbacks.
    await t.control('POST', `/projects/${PROJECT}/translations`, {
      hashcode: hashcodes[0],
      localeId: 'fr-FR',
      translation: 'T2',
      published: true,
    })
    await arrived(2)
    const [h2] = await t.createStrings([{ stringText: 'Two' }])
    await t.api('POST', `${J}/${uid}/strings/add`, { hashcodes: [h2] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h2, 'fr-FR')
    await arrived(4)
    await sleep(30)
    expect(received.map((r) => r.url.searchParams.get('type'))).toEqual([
      'job.localeCompleted',
      'job.completed',
      'job.localeCompleted',
      'job.completed',
    ])
  })
})
