import { describe, expect, it } from 'vitest'
import { createClient, type RetryEvent } from '../../src/client/index'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'
import { useEmulator } from '../helpers/emulator'
import { CREDENTIALS, control, LOCALES, PROJECT, requestLog } from './emu'

/**
 * Reliability against the emulator's fault injection: 10% each of 429, 503 and 500 plus 5% dropped
 * connections (35% of requests fail), a fixed dice seed. The emulator rolls once per request, in
 * arrival order, so however the client's parallel requests interleave, the run ends at the roll that
 * gives the last needed success: with seed 13 the first 36 rolls hold 20 successes and 16 faults
 * (4 drops, 6 x 429, 4 x 503, 2 x 500), so a push and pull of 20 logical requests makes exactly 36.
 */
const FAULTS = { rates: { '429': 0.1, '503': 0.1, '500': 0.1 }, dropRate: 0.05, seed: 13 }
const RETRY = { retries: 10, minDelayMs: 2, maxDelayMs: 40, maxTotalMs: 20_000 }
const COUNT = 1000

const emu = useEmulator()

interface StateString {
  hashcode: string
  stringText: string
}

async function storedStrings(): Promise<StateString[]> {
  const state = (await control(emu, 'GET', 'state')) as {
    projects: Array<{ projectId: string; strings: StateString[] }>
  }
  return state.projects.find((p) => p.projectId === PROJECT)!.strings
}

const texts = Array.from({ length: COUNT }, (_, i) => `Item ${i} of {total}`)

async function pushAndPull(syncWindowMs: number) {
  await control(emu, 'POST', 'config', { syncWindowMs })
  await control(emu, 'POST', `projects/${PROJECT}/auto-translate`, { mode: 'pseudo', publishDelayMs: 0 })
  await control(emu, 'POST', 'faults', FAULTS)
  const retries: RetryEvent[] = []
  const client = createClient({
    baseUrl: emu.url,
    ...CREDENTIALS,
    retry: RETRY,
    pollIntervalMs: 5,
    // The request counts below (and so where the seeded faults strike) were set with 16 KiB lines.
    maxRequestLineBytes: 16 * 1024,
    onRetry: (event) => retries.push(event),
  })
  try {
    const results = await client.strings.createInBatches(PROJECT, {
      placeholderFormatCustom: APP_PLACEHOLDER_SOURCE,
      namespace: 'shop',
      strings: texts.map((stringText) => ({ stringText })),
    })
    const items = results.flatMap((r) => r.items)
    // The dashboard authorizes everything; the pseudo translator publishes at once. Faults never hit
    // the control API.
    await control(emu, 'POST', `projects/${PROJECT}/strings/authorize`, {})
    const hashcodes = items.map((i) => i.hashcode)
    const pulled = await Promise.all(
      LOCALES.map(async (targetLocaleId) => {
        const got = new Map<string, string>()
        for await (const item of client.strings.translations(PROJECT, { targetLocaleId, hashcodes })) {
          expect(item.translations).toHaveLength(1)
          got.set(item.hashcode, item.translations[0].translation)
        }
        return got
      }),
    )
    return { client, items, hashcodes, pulled, retries, stats: client.stats, log: await requestLog(emu) }
  } finally {
    await control(emu, 'POST', 'faults', {})
    await client.close()
  }
}

describe('push and pull under injected faults', () => {
  it('1000 strings pushed once, every translation received, retries bounded (synchronous creates)', async () => {
    const { items, hashcodes, pulled, retries, stats, log } = await pushAndPull(60_000)

    // Every string created once: 1000 distinct strings stored, none reported as overwritten.
    expect(items.map((i) => i.stringText)).toEqual(texts)
    expect(items.every((i) => !i.overWritten)).toBe(true)
    const stored = await storedStrings()
    expect(stored).toHaveLength(COUNT)
    expect(new Set(stored.map((s) => s.hashcode))).toEqual(new Set(hashcodes))

    // Every translation of every locale received, placeholders restored.
    for (const got of pulled) {
      expect(got.size).toBe(COUNT)
      expect([...got.keys()].sort()).toEqual([...hashcodes].sort())
      expect([...got.values()].every((t) => t.includes('{total}'))).toBe(true)
    }

    // The logical requests: 1 authenticate, 10 creates, 3 locales x 3 hashcode runs.
    const logical = 1 + 10 + 9
    // The service saw exactly what the client sent, and each extra request is a counted retry.
    expect(log.total).toBe(stats.total)
    expect(stats.total - stats.retries).toBe(logical)
    expect(retries).toHaveLength(stats.retries)
    // Faults did strike, and each kind was retried.
    expect(new Set(retries.map((r) => r.code))).toEqual(
      new Set(['MAX_OPERATIONS_LIMIT_EXCEEDED', 'MAINTENANCE_MODE_ERROR', 'GENERAL_ERROR', 'NETWORK_ERROR']),
    )
    expect(retries.filter((r) => r.code === 'NETWORK_ERROR')).toHaveLength(4)
    expect(retries.filter((r) => r.status === 429)).toHaveLength(6)
    expect(retries.filter((r) => r.status === 503)).toHaveLength(4)
    expect(retries.filter((r) => r.status === 500)).toHaveLength(2)
    // Bounded: each fault cost exactly one retry, no request went past its budget.
    expect(log.total).toBe(36)
    expect(Math.max(...retries.map((r) => r.attempt))).toBeLessThanOrEqual(RETRY.retries)
    expect(log.byRoute['POST /strings-api/v2/projects/:projectId']).toBeGreaterThanOrEqual(10)
    expect(log.byRoute['POST /strings-api/v2/projects/:projectId']).toBeLessThanOrEqual(
      10 * (RETRY.retries + 1),
    )
  })

  it('the same through asynchronous creates: 202s and process polls survive the faults', async () => {
    const { items, hashcodes, pulled, stats, log } = await pushAndPull(0)
    expect(items.map((i) => i.stringText)).toEqual(texts)
    const stored = await storedStrings()
    expect(stored).toHaveLength(COUNT)
    expect(new Set(stored.map((s) => s.hashcode))).toEqual(new Set(hashcodes))
    for (const got of pulled) expect(got.size).toBe(COUNT)
    expect(log.total).toBe(stats.total)
    const polls = log.byRoute['GET /strings-api/v2/projects/:projectId/processes/:processUid']
    expect(polls).toBeGreaterThanOrEqual(10)
    expect(log.byRoute['POST /strings-api/v2/projects/:projectId']).toBeLessThanOrEqual(
      10 * (RETRY.retries + 1),
    )
  })

  it('a service that keeps failing costs exactly retries + 1 requests, then the error', async () => {
    await control(emu, 'POST', 'faults', { rates: { '503': 1 } })
    const client = createClient({ baseUrl: emu.url, ...CREDENTIALS, retry: { ...RETRY, retries: 4 } })
    try {
      const error = await client.auth.authenticate().catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'MAINTENANCE_MODE_ERROR', status: 503, attempts: 5 })
      expect((await requestLog(emu)).byRoute).toEqual({ 'POST /auth-api/v2/authenticate': 5 })
    } finally {
      await control(emu, 'POST', 'faults', {})
      await client.close()
    }
  })

  it('maxTotalMs bounds the time spent retrying whatever the retry count', async () => {
    await control(emu, 'POST', 'faults', { rates: { '429': 1 } })
    const client = createClient({
      baseUrl: emu.url,
      ...CREDENTIALS,
      retry: { retries: 1000, minDelayMs: 20, maxDelayMs: 20, maxTotalMs: 200 },
    })
    try {
      const error = await client.auth.authenticate().catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'MAX_OPERATIONS_LIMIT_EXCEEDED', status: 429 })
      // Waits of at least 10 ms (jitter) within 200 ms: at most 21 tries, however slow the machine is,
      // and far fewer than the 1001 the count allows. No lower bound: on a loaded machine the first
      // answer alone can take the 200 ms (that retries happen is the test above's).
      const tries = (await requestLog(emu)).byRoute['POST /auth-api/v2/authenticate']
      expect(tries).toBeGreaterThanOrEqual(1)
      expect(tries).toBeLessThanOrEqual(21)
    } finally {
      await control(emu, 'POST', 'faults', {})
      await client.close()
    }
  })

  it("waits the emulator's Retry-After before retrying a 503, beyond its own backoff", async () => {
    // Seed 8 rolls 0.16 (a 503) and then 0.63 (through): one refusal, then the answer.
    await control(emu, 'POST', 'config', { retryAfterSeconds: 1 })
    await control(emu, 'POST', 'faults', { rates: { '503': 0.5 }, seed: 8 })
    const retries: RetryEvent[] = []
    const client = createClient({
      baseUrl: emu.url,
      ...CREDENTIALS,
      retry: RETRY,
      onRetry: (event) => retries.push(event),
    })
    try {
      const started = Date.now()
      expect((await client.auth.authenticate()).tokenType).toBe('Bearer')
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
      // Its own backoff would have been 1 or 2 ms (minDelayMs 2, jitter).
      expect(retries).toEqual([
        {
          method: 'POST',
          route: '/auth-api/v2/authenticate',
          attempt: 1,
          delayMs: 1000,
          code: 'MAINTENANCE_MODE_ERROR',
          status: 503,
        },
      ])
      expect((await requestLog(emu)).byRoute).toEqual({ 'POST /auth-api/v2/authenticate': 2 })
    } finally {
      await control(emu, 'POST', 'faults', {})
      await client.close()
    }
  })

  it('gives up at once, and says why, when the Retry-After is past retry.maxTotalMs', async () => {
    await control(emu, 'POST', 'config', { retryAfterSeconds: 3600 })
    await control(emu, 'POST', 'faults', { rates: { '429': 1 } })
    const client = createClient({ baseUrl: emu.url, ...CREDENTIALS })
    try {
      const error = await client.auth.authenticate().catch((e: unknown) => e)
      expect(error).toMatchObject({
        code: 'MAX_OPERATIONS_LIMIT_EXCEEDED',
        status: 429,
        attempts: 1,
        retryAfterMs: 3_600_000,
        message:
          'POST /auth-api/v2/authenticate failed: 429 MAX_OPERATIONS_LIMIT_EXCEEDED: Too many simultaneous ' +
          "requests; wait and retry (the service asked to retry after 3600 s, past the client's " +
          'retry.maxTotalMs of 60000 ms)',
      })
      expect((await requestLog(emu)).byRoute).toEqual({ 'POST /auth-api/v2/authenticate': 1 })
    } finally {
      await control(emu, 'POST', 'faults', {})
      await client.close()
    }
  })
})
