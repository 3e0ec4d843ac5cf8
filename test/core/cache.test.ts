import * as fs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type CacheFs, DiskCache, type ManifestRecord } from '../../src/core/cache'

const entry = (hashcode: string): ManifestRecord => ({
  hashcode,
  parsed: `text ${hashcode}`,
  variant: null,
  meta: 'm',
})
const tempDir = () => fs.mkdtemp(join(tmpdir(), 'tms-cache-'))

describe('DiskCache', () => {
  it('round-trips the manifest and a locale, recording schema, tool and project', async () => {
    const dir = await tempDir()
    const cache = new DiskCache(dir, 'p1')
    await cache.updateManifest({ a: entry('h1') })
    await cache.writeLocale('fr-FR', 'published', { h1: 'Bonjour {0}' })
    const manifest = await cache.readManifest()
    expect(manifest).toMatchObject({
      hit: true,
      value: { schema: 1, projectId: 'p1', entries: { a: entry('h1') } },
    })
    const locale = await cache.readLocale('fr-FR', 'published')
    expect(locale).toMatchObject({
      hit: true,
      value: { locale: 'fr-FR', translations: { h1: 'Bonjour {0}' } },
    })
    expect(await cache.readLocale('fr-FR', 'pending')).toEqual({ hit: false, reason: 'no file' })
    expect((await fs.readdir(dir)).sort()).toEqual(['locales', 'manifest.json'])
  })

  it('treats a truncated, foreign or malformed file as a miss, never an error', async () => {
    const dir = await tempDir()
    const cache = new DiskCache(dir, 'p1')
    await cache.updateManifest({ a: entry('h1') })
    const text = await fs.readFile(cache.manifestFile, 'utf8')
    await fs.writeFile(cache.manifestFile, text.slice(0, text.length / 2))
    expect(await cache.readManifest()).toEqual({ hit: false, reason: 'invalid JSON' })
    await new DiskCache(dir, 'other').updateManifest({ a: entry('h1') })
    expect(await cache.readManifest()).toEqual({ hit: false, reason: 'other project' })
    await fs.writeFile(cache.manifestFile, JSON.stringify({ schema: 99, projectId: 'p1', entries: {} }))
    expect(await cache.readManifest()).toEqual({ hit: false, reason: 'other schema' })
    await fs.writeFile(
      cache.manifestFile,
      JSON.stringify({ schema: 1, projectId: 'p1', entries: { a: { hashcode: 1 } } }),
    )
    expect(await cache.readManifest()).toEqual({ hit: false, reason: 'malformed' })
    // A truncated manifest is replaced whole by the next update.
    await cache.updateManifest({ b: entry('h2') })
    expect(await cache.readManifest()).toMatchObject({ hit: true, value: { entries: { b: entry('h2') } } })
  })

  it('merges a pull into a locale file: drops only what was asked and not returned, keeps the rest', async () => {
    const dir = await tempDir()
    const cache = new DiskCache(dir, 'p1')
    // Another app's h9 and this app's h1, h2, h3.
    await cache.writeLocale('fr-FR', 'published', { h1: 'un', h2: 'deux', h3: 'trois', h9: 'neuf' })
    // This app asks for h1, h2, h3, h4; the service returns h1 (changed) and h4, not h2 or h3.
    const merged = await cache.mergeLocale('fr-FR', 'published', { h1: 'UN', h4: 'quatre' }, [
      'h1',
      'h2',
      'h3',
      'h4',
    ])
    expect(merged).toEqual({ h1: 'UN', h4: 'quatre', h9: 'neuf' })
    const read = await cache.readLocale('fr-FR', 'published')
    expect(read.hit && read.value.translations).toEqual({ h1: 'UN', h4: 'quatre', h9: 'neuf' })
    // A pull that failed part-way asks nothing to be dropped.
    await cache.mergeLocale('fr-FR', 'published', { h5: 'cinq' }, [])
    const after = await cache.readLocale('fr-FR', 'published')
    expect(after.hit && after.value.translations).toEqual({ h1: 'UN', h4: 'quatre', h5: 'cinq', h9: 'neuf' })
    // Another project's file is not merged into this one's.
    await new DiskCache(dir, 'p2').writeLocale('de-DE', 'published', { x: 'fremd' })
    expect(await cache.mergeLocale('de-DE', 'published', { h1: 'eins' }, ['h1'])).toEqual({ h1: 'eins' })
    expect((await fs.readdir(dir)).sort()).toEqual(['locales'])
  })

  it('records manifest entries given during a write in the next one, and all of them', async () => {
    const cache = new DiskCache(await tempDir(), 'p1')
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => cache.recordManifest({ [`k${i}`]: entry(`h${i}`) })),
    )
    const read = await cache.readManifest()
    expect(read.hit && Object.keys(read.value.entries).length).toBe(50)
  })

  it('refuses locale ids that would leave the cache directory', async () => {
    const cache = new DiskCache(await tempDir(), 'p1')
    expect(() => cache.localeFile('../../etc/passwd', 'published')).toThrow(/refusing locale id/)
    await expect(cache.writeLocale('fr-FR/../../x', 'published', {})).rejects.toThrow(/refusing locale id/)
  })

  it('keeps every entry when many writers update the manifest at once', async () => {
    const dir = await tempDir()
    const writers = Array.from({ length: 8 }, () => new DiskCache(dir, 'p1'))
    await Promise.all(
      writers.flatMap((w, i) =>
        Array.from({ length: 5 }, (_, j) => w.updateManifest({ [`k${i}-${j}`]: entry(`h${i}-${j}`) })),
      ),
    )
    const m = await writers[0]!.readManifest()
    expect(m.hit && Object.keys(m.value.entries).length).toBe(40)
    expect((await fs.readdir(dir)).sort()).toEqual(['manifest.json'])
  })

  it('reports an unreadable file as a miss and cleans its temp file when a write fails', async () => {
    const dir = await tempDir()
    const failing: CacheFs = {
      ...fs,
      readFile: (async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' })
      }) as CacheFs['readFile'],
      rename: async () => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' })
      },
    }
    const cache = new DiskCache(dir, 'p1', failing)
    expect(await cache.readManifest()).toEqual({ hit: false, reason: 'unreadable' })
    await expect(cache.writeLocale('fr-FR', 'published', {})).rejects.toThrow('disk full')
    expect(await fs.readdir(join(dir, 'locales'))).toEqual([])
  })

  it('takes over a stale lock left by a dead process', async () => {
    const dir = await tempDir()
    await fs.writeFile(join(dir, '.lock'), '999999\n')
    const old = new Date(Date.now() - 60_000)
    await fs.utimes(join(dir, '.lock'), old, old)
    await new DiskCache(dir, 'p1').updateManifest({ a: entry('h1') })
    expect((await fs.readdir(dir)).sort()).toEqual(['manifest.json'])
  })
})
