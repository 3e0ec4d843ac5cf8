import type { ServerResponse } from 'node:http'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { listsInParallel } from '../../src/client/paging'
import { failure } from '../helpers/failure'
import { envelope, type Hit, type RawServer, startRawServer } from './raw-server'

// A pull of many hashcodes goes out as several runs (each request line under 16 KiB): the first run
// alone, then the others at once.

const fast = { retries: 2, minDelayMs: 1, maxDelayMs: 5, maxTotalMs: 10_000 }
// 1000 hashcodes of 32 characters: 3 runs of 16 KiB request lines.
const HASHCODES = Array.from({ length: 1000 }, (_, i) => i.toString(16).padStart(32, '0'))

/** A raw server answering with `handle`, and a client of it; both closed when the test ends. */
async function serve(
  handle: Parameters<typeof startRawServer>[0],
): Promise<{ server: RawServer; client: TmsClient }> {
  const server = await startRawServer(handle)
  const client = createClient({
    baseUrl: server.url,
    userIdentifier: 'u1',
    userSecret: 's',
    retry: fast,
    maxRequestLineBytes: 16 * 1024,
  })
  onTestFinished(async () => {
    await client.close()
    await server.close()
  })
  return { server, client }
}

function hashcodesOf(hit: Hit): string[] {
  return new URL(hit.url, 'http://x').searchParams.getAll('hashcodes')
}

/** A page with one translation per hashcode asked for, in the order asked. */
function answer(res: ServerResponse, hit: Hit): void {
  const items = hashcodesOf(hit).map((hashcode) => ({
    hashcode,
    translations: [{ translation: `T-${hashcode.slice(-4)}`, pluralForm: null }],
  }))
  envelope(res, 200, { code: 'SUCCESS', data: { totalCount: items.length, items } })
}

async function pull(c: TmsClient): Promise<string[]> {
  const got: string[] = []
  for await (const item of c.strings.translations('p1', { targetLocaleId: 'fr-FR', hashcodes: HASHCODES }))
    got.push(item.hashcode)
  return got
}

describe('a pull of several runs of hashcodes', () => {
  it('asks the first run alone, then every other run before any of them is answered', async () => {
    const events: string[] = []
    const held: { hit: Hit; res: ServerResponse }[] = []
    let alone = false
    const { server, client } = await serve((hit, res, index) => {
      events.push(`asked ${index}`)
      if (index === 0) {
        // Held a moment: a run asked alongside the first would show up before this answer.
        setTimeout(() => {
          events.push('answered 0')
          answer(res, hit)
        }, 150)
        return
      }
      if (alone) {
        events.push(`answered ${index}`)
        return answer(res, hit)
      }
      held.push({ hit, res })
      // Answered once both later runs are in. Asked one after the other, the second would never
      // come: after 2 s the first is answered alone, and the events tell.
      if (held.length === 1) {
        setTimeout(() => {
          if (held.length > 1) return
          alone = true
          answer(res, hit)
          events.push(`answered ${index} alone`)
        }, 2000)
      }
      if (held.length === 2) {
        for (const h of held) answer(h.res, h.hit)
        events.push('answered 1 and 2')
      }
    })
    const got = await pull(client)
    expect(events).toEqual(['asked 0', 'answered 0', 'asked 1', 'asked 2', 'answered 1 and 2'])
    // Items in the order of the hashcodes, whatever order the runs' answers came in.
    expect(got).toEqual(HASHCODES)
    const runs = server.hits.filter((h) => !h.url.startsWith('/auth-api')).map((h) => hashcodesOf(h))
    expect(runs.map((r) => r.length)).toEqual([378, 378, 244])
    expect(runs.flat()).toEqual(HASHCODES)
  })

  it('asks for no other run when the service fails the first one', async () => {
    const { server, client } = await serve((_hit, res) =>
      envelope(res, 503, { code: 'MAINTENANCE_MODE_ERROR', errors: [{ key: 'x', message: 'down' }] }),
    )
    const error = await failure(pull(client))
    expect(error.code).toBe('MAINTENANCE_MODE_ERROR')
    const asked = server.hits.filter((h) => !h.url.startsWith('/auth-api')).map((h) => hashcodesOf(h)[0])
    // The first run and its 2 retries; nothing of the other runs.
    expect(asked).toEqual([HASHCODES[0], HASHCODES[0], HASHCODES[0]])
  })

  it('throws a later run failure after the items before it', async () => {
    const { client } = await serve((hit, res) => {
      // The second run is refused for good (a 400 is not retried); the first and third are served.
      if (hashcodesOf(hit)[0] === HASHCODES[378])
        return envelope(res, 400, { code: 'VALIDATION_ERROR', errors: [{ key: 'x', message: 'bad run' }] })
      answer(res, hit)
    })
    const got: string[] = []
    const error = await failure(
      (async () => {
        for await (const item of client.strings.translations('p1', {
          targetLocaleId: 'fr-FR',
          hashcodes: HASHCODES,
        }))
          got.push(item.hashcode)
      })(),
    )
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(got).toEqual(HASHCODES.slice(0, 378))
  })
})

describe('listsInParallel', () => {
  async function* list(name: string, log: string[], items: string[], fail?: string) {
    log.push(`start ${name}`)
    for (const item of items) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      yield item
    }
    if (fail) throw new Error(fail)
    log.push(`end ${name}`)
  }

  it('reads the first list alone, then the others at once, and yields in list order', async () => {
    const log: string[] = []
    const out: string[] = []
    for await (const item of listsInParallel([
      () => list('a', log, ['a1', 'a2']),
      () => list('b', log, ['b1', 'b2', 'b3']),
      () => list('c', log, ['c1']),
    ]))
      out.push(item)
    expect(out).toEqual(['a1', 'a2', 'b1', 'b2', 'b3', 'c1'])
    expect(log.slice(0, 4)).toEqual(['start a', 'end a', 'start b', 'start c'])
  })

  it('starts no other list when the first fails', async () => {
    const log: string[] = []
    const out: string[] = []
    await expect(
      (async () => {
        for await (const item of listsInParallel([
          () => list('a', log, ['a1'], 'first failed'),
          () => list('b', log, ['b1']),
        ]))
          out.push(item)
      })(),
    ).rejects.toThrow('first failed')
    expect(out).toEqual(['a1'])
    expect(log).toEqual(['start a'])
  })

  it('a list that fails before its turn fails in its turn, and nothing goes unhandled', async () => {
    const log: string[] = []
    const out: string[] = []
    await expect(
      (async () => {
        for await (const item of listsInParallel([
          () => list('a', log, ['a1']),
          () => list('b', log, ['b1', 'b2', 'b3', 'b4', 'b5']),
          () => list('c', log, [], 'third failed'),
        ]))
          out.push(item)
      })(),
    ).rejects.toThrow('third failed')
    // The third list failed at once, while the second was still reading: its items come first.
    expect(out).toEqual(['a1', 'b1', 'b2', 'b3', 'b4', 'b5'])
  })
})
