import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type SyncClient, syncTranslations } from '../../src/core/sync'
import { resolveOptions } from '../../src/options'
import { memoryLogger, message, NAMESPACE } from '../helpers/sync'

/**
 * A pull that fails part-way, through an injected client: the translations that arrived are used and
 * written to the cache, nothing cached is dropped, and the one warning says what was kept.
 */

const messages = ['One', 'Two', 'Three', 'Four'].map((text) => message(text))

function failingAfter(delivered: number): SyncClient {
  return {
    strings: {
      createInBatches: async () => [],
      async *translations(_projectId, query) {
        const hashcodes = query.hashcodes ?? []
        for (const hashcode of hashcodes.slice(0, delivered)) {
          yield {
            hashcode,
            translations: [{ translation: `${query.targetLocaleId} ${hashcode}`, pluralForm: null }],
          }
        }
        throw new Error(
          'GET /strings-api/v2/projects/p1/translations failed: HTTP 200 answer is not a JSON envelope',
        )
      },
    },
  }
}

it('a pull that fails after 2 of 4 translations keeps those 2 and the cached third', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tms-partial-'))
  const options = resolveOptions(
    { root, projectId: 'p1', locales: ['fr-FR'], namespace: NAMESPACE, push: false },
    { command: 'build', env: {} },
  )
  const cache = new DiskCache(options.cacheDir, 'p1')
  const hashcodes = ['h1', 'h2', 'h3', 'h4']
  await cache.updateManifest(
    Object.fromEntries(
      messages.map((m, i) => [
        m.key,
        { hashcode: hashcodes[i]!, parsed: m.parsed, variant: null, meta: 'x' },
      ]),
    ),
  )
  // An earlier pull had h3; another app sharing the cache has h9.
  await cache.writeLocale('fr-FR', 'published', { h3: 'Trois', h9: 'Neuf' })
  const logger = memoryLogger()
  const result = await syncTranslations({ options, messages, client: failingAfter(2), logger, push: false })
  expect([...result.translations.get('fr-FR')!.values()]).toEqual(['fr-FR h1', 'fr-FR h2', 'Trois'])
  expect(result.coverage['fr-FR']).toEqual({ messages: 4, translated: 3, missing: 1, coverage: 75 })
  const read = await cache.readLocale('fr-FR', 'published')
  expect(read.hit && read.value.translations).toEqual({
    h1: 'fr-FR h1',
    h2: 'fr-FR h2',
    h3: 'Trois',
    h9: 'Neuf',
  })
  expect(logger.lines).toHaveLength(1)
  expect(logger.lines[0]).toMatch(
    /^warn: the service could not be reached \(.*not a JSON envelope\); the build goes on with fr-FR: cached translations of \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ and 2 answers received before the failure$/,
  )
})
