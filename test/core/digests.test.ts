import { createHash } from 'node:crypto'
import * as fs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { FileDigests } from '../../src/core/cache/digests'
import { DiskCache } from '../../src/core/cache/index'

/**
 * The digests of the cache files the catalog memos are keyed by: known from a recorded stat without a
 * read, once the file had settled before it was last read; read and hashed on any doubt.
 */

let dir: string | undefined
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true })
  dir = undefined
})

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The cache's file system, counting the reads of each file. */
function countingFs(): { fs: typeof fs; reads: string[] } {
  const reads: string[] = []
  const readFile = ((file: string, ...rest: unknown[]) => {
    reads.push(file)
    return (fs.readFile as (...args: unknown[]) => Promise<unknown>)(file, ...rest)
  }) as typeof fs.readFile
  return { fs: { ...fs, readFile }, reads }
}

/** A clock `ahead` seconds in the future: a file written now counts as settled for it. */
const clock =
  (ahead: number): (() => bigint) =>
  () =>
    (BigInt(Date.now()) + BigInt(ahead * 1000)) * 1_000_000n

it("gives a settled file's digest from its record, and reads again a file changed since", async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tms-digests-'))
  const file = join(dir, 'locales', 'fr-FR.published.json')
  await fs.mkdir(join(dir, 'locales'))
  await fs.writeFile(file, '{"a":"Bonjour"}')
  const first = countingFs()
  const made = new FileDigests(dir, first.fs, clock(10))
  expect(await made.of(file)).toEqual({
    digest: sha256('{"a":"Bonjour"}'),
    bytes: Buffer.from('{"a":"Bonjour"}'),
  })
  await made.save()
  expect(first.reads.filter((f) => f === file)).toHaveLength(1)

  // The next build: the record answers, the file is not read.
  const second = countingFs()
  expect(await new FileDigests(dir, second.fs).of(file)).toEqual({ digest: sha256('{"a":"Bonjour"}') })
  expect(second.reads).not.toContain(file)

  // Rewritten with as many bytes (its ctime changes): read and hashed again.
  await fs.writeFile(file, '{"a":"Bonsoir"}')
  const third = countingFs()
  expect(await new FileDigests(dir, third.fs).of(file)).toEqual({
    digest: sha256('{"a":"Bonsoir"}'),
    bytes: Buffer.from('{"a":"Bonsoir"}'),
  })
  expect(third.reads).toContain(file)
})

it('does not record a file read within the clock margin of its change: the next build reads it again', async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tms-digests-'))
  const file = join(dir, 'manifest.json')
  await fs.writeFile(file, '{}')
  const first = new FileDigests(dir, fs)
  expect((await first.of(file)).bytes?.toString()).toBe('{}')
  await first.save()
  await expect(fs.readdir(dir)).resolves.toEqual(['manifest.json'])
  expect((await new FileDigests(dir, fs).of(file)).bytes?.toString()).toBe('{}')
})

it('reads every file when the record cannot be read, and fails as the file does when it is missing', async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tms-digests-'))
  const file = join(dir, 'manifest.json')
  await fs.writeFile(file, '{}')
  const made = new FileDigests(dir, fs, clock(10))
  await made.of(file)
  await made.save()
  await fs.writeFile(join(dir, 'catalogs', 'digests.json'), '{"schema":1,"records":{"manifest.json":')
  expect((await new FileDigests(dir, fs).of(file)).bytes?.toString()).toBe('{}')
  await expect(new FileDigests(dir, fs).of(join(dir, 'none.json'))).rejects.toMatchObject({ code: 'ENOENT' })
})

it("reads a file's bytes later only when they are still the digest's, else says the file changed", async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tms-digests-'))
  const cache = new DiskCache(dir, 'p1')
  await cache.writeLocale('fr-FR', 'published', { h1: 'Bonjour' })
  const file = cache.localeFile('fr-FR', 'published')
  const digest = sha256(await fs.readFile(file, 'utf8'))
  expect(cache.bytesOf(file, digest).toString()).toContain('"h1":"Bonjour"')
  await cache.writeLocale('fr-FR', 'published', { h1: 'Bonsoir' })
  expect(() => cache.bytesOf(file, digest)).toThrow(
    `[unplugin-tms] ${file} changed during the build (a \`tms pull\` or another build wrote it): build again`,
  )
})
