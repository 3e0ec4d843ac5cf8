import * as nodeFs from 'node:fs/promises'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, it } from 'vitest'
import { type CacheFs, DiskCache } from '../../src/core/cache'
import { openCache } from '../../src/core/sync'
import { resolveOptions } from '../../src/options'
import { message, NAMESPACE } from '../helpers/sync'

/**
 * A dev server's build keeps its opened cache for as long as it lasts: once the manifest is parsed, the
 * bytes it was parsed from (some 4 MB at 20,000 messages) are not kept with it. Its own file: it turns
 * on `gc()`.
 */

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

it('an opened cache keeps no manifest bytes once the manifest is parsed', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tms-opened-'))
  const options = resolveOptions(
    { root, projectId: 'p1', locales: ['fr-FR'], namespace: NAMESPACE, push: false },
    { command: 'serve', env: {} },
  )
  const messages = ['One', 'Two'].map((text) => message(text))
  await new DiskCache(options.cacheDir, 'p1').updateManifest(
    Object.fromEntries(
      messages.map((m, i) => [m.key, { hashcode: `h${i}`, parsed: m.parsed, variant: null, meta: 'x' }]),
    ),
  )
  // Told when the manifest's bytes, as the cache read them, are collected.
  const manifestFile = join(options.cacheDir, 'manifest.json')
  let reads = 0
  let collected = false
  const registry = new FinalizationRegistry(() => {
    collected = true
  })
  const fs: CacheFs = {
    ...nodeFs,
    readFile: (async (file: string, ...rest: unknown[]) => {
      const read = await (readFile as (f: string, ...r: unknown[]) => Promise<Buffer>)(file, ...rest)
      if (file === manifestFile) {
        reads++
        registry.register(read, 'manifest')
      }
      return read
    }) as CacheFs['readFile'],
  }
  const opened = await openCache(options, fs, true)
  const parsed = opened.manifest()
  expect(reads).toBe(1)
  expect(parsed.hit && Object.values(parsed.value.entries).map((r) => r.hashcode)).toEqual(['h0', 'h1'])
  for (let i = 0; i < 100 && !collected; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(collected).toBe(true)
  // Still the same manifest, not read again.
  expect(opened.manifest()).toBe(parsed)
  expect(reads).toBe(1)
})
