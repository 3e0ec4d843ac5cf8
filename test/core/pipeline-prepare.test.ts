import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import type { ExtractResult } from '../../src/core/extract/types'
import {
  prepareSync,
  releasePrepared,
  type ServiceConnection,
  type ServiceConnector,
  syncExtraction,
} from '../../src/core/pipeline'
import type { SyncClient } from '../../src/core/sync'
import { resolveOptions } from '../../src/options'
import { memoryLogger, message, NAMESPACE } from '../helpers/sync'

/**
 * A build prepares its sync (the connection, the cache's manifest) while it extracts: the sync then
 * uses that connection and that manifest, asks for no second connection, and closes the one it had.
 */

const messages = ['One', 'Two'].map((text) => message(text))

async function setUp() {
  const root = await mkdtemp(join(tmpdir(), 'tms-prepare-'))
  const options = resolveOptions(
    { root, projectId: 'p1', locales: ['fr-FR'], namespace: NAMESPACE, push: false },
    { command: 'build', env: {} },
  )
  const cache = new DiskCache(options.cacheDir, 'p1')
  const manifestOf = (hashcodes: string[]) =>
    Object.fromEntries(
      messages.map((m, i) => [
        m.key,
        { hashcode: hashcodes[i]!, parsed: m.parsed, variant: null, meta: 'x' },
      ]),
    )
  await cache.updateManifest(manifestOf(['h1', 'h2']))
  const asked: string[][] = []
  const closed: string[] = []
  const client: SyncClient = {
    strings: {
      createInBatches: async () => [],
      async *translations(_projectId, query) {
        asked.push([...(query.hashcodes ?? [])])
        for (const hashcode of query.hashcodes ?? []) {
          yield { hashcode, translations: [{ translation: `fr ${hashcode}`, pluralForm: null }] }
        }
      },
    },
  }
  const connection: ServiceConnection = {
    client,
    requests: () => asked.length,
    close: async () => void closed.push('closed'),
  }
  let connects = 0
  const connect: ServiceConnector = async () => {
    connects++
    return connection
  }
  const extraction = {
    messages,
    files: new Map([[join(root, 'src/a.ts'), {}]]),
    diagnostics: [],
    stats: {},
  } as unknown as ExtractResult
  return { options, cache, manifestOf, asked, closed, connect, connects: () => connects, extraction }
}

it('a prepared sync pulls with the manifest read when it was prepared, over the prepared connection', async () => {
  const t = await setUp()
  const prepared = prepareSync(t.options, t.connect)
  await prepared.cache
  // Written after the prepare: the sync works with the manifest it read then.
  await t.cache.updateManifest(t.manifestOf(['h8', 'h9']))
  const unused: ServiceConnector = async () => {
    throw new Error('a prepared sync connects no second time')
  }
  const { sync, report } = await syncExtraction(
    { options: t.options, logger: memoryLogger(), push: false, connect: unused, prepared },
    t.extraction,
  )
  expect(t.connects()).toBe(1)
  expect(t.asked).toEqual([['h1', 'h2']])
  expect([...sync.translations.get('fr-FR')!.values()]).toEqual(['fr h1', 'fr h2'])
  expect(report.requests).toBe(1)
  expect(t.closed).toEqual(['closed'])
})

it('a prepared sync that does not run is released: its connection is closed once', async () => {
  const t = await setUp()
  const prepared = prepareSync(t.options, t.connect)
  await releasePrepared(prepared)
  expect(t.connects()).toBe(1)
  expect(t.closed).toEqual(['closed'])
  expect(t.asked).toEqual([])
})

it('an include that matched no file closes the prepared connection before it fails', async () => {
  const t = await setUp()
  const prepared = prepareSync(t.options, t.connect)
  const empty = { ...t.extraction, files: new Map() } as ExtractResult
  await expect(
    syncExtraction({ options: t.options, logger: memoryLogger(), connect: t.connect, prepared }, empty),
  ).rejects.toThrow(/^\[unplugin-tms\] include matched no file under .*tms-prepare-/)
  expect(t.connects()).toBe(1)
  expect(t.closed).toEqual(['closed'])
})
