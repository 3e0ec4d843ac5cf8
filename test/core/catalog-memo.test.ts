import { createHash } from 'node:crypto'
import * as fs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import type { IdSource } from '../../src/core/catalog/index'
import { type CheckedMessage, checkLocale } from '../../src/core/check/locale'
import { textOf } from '../../src/core/stored-text'
import { CatalogMemos, type MemoOptions, memoMessagesOf, rowsKey } from '../../src/core/sync/catalog-memo'

/**
 * The catalog memo's keys and its file: what a memo answers, and that every memo it cannot trust
 * (other inputs, a problem naming no message, bytes missing or added) is a miss. The plugin's tests
 * (test/plugin/catalog-memo.test.ts) build real bundles over it.
 */

const options: MemoOptions = {
  sourceLocale: 'en-US',
  placeholder: { format: null, custom: null },
  retrievalType: 'published',
  root: '/app',
}
const messages: (CheckedMessage & { instruction?: string })[] = [
  {
    key: '\u0000\u0000Hello {0}',
    text: 'Hello {name}',
    placeholders: ['{name}'],
    locations: [{ file: '/app/a.js', line: 1, column: 1 }],
  },
  {
    key: '\u0000\u0000Bye',
    text: 'Bye',
    placeholders: [],
    locations: [{ file: '/app/b.js', line: 2, column: 3 }],
  },
]
const hashcodes = ['h1', 'h2']
const check = (locale: string) => (byHashcode: Readonly<Record<string, string>>) =>
  checkLocale(byHashcode, messages, hashcodes, locale, options.placeholder)
const record = (hashcode: string) => ({ hashcode, parsed: '', variant: null, meta: 'm' })

/** A build's memos over the cache's manifest, each locale's read; `keepTexts`: an inline build's. */
async function memosOf(
  cache: DiskCache,
  opts = options,
  msgs = messages,
  keepTexts = false,
): Promise<CatalogMemos> {
  const manifest = await cache.manifestDigest()
  if (!manifest.hit) throw new Error('no manifest')
  const memos = new CatalogMemos(
    cache,
    opts,
    memoMessagesOf(() => msgs),
    { digest: manifest.value.digest },
    keepTexts,
  )
  await memos.probe(['fr-FR'])
  return memos
}

async function setup() {
  const dir = await fs.mkdtemp(join(tmpdir(), 'tms-memo-'))
  const cache = new DiskCache(dir, 'p1')
  await cache.updateManifest({ [messages[0]!.key]: record('h1'), [messages[1]!.key]: record('h2') })
  // h1's translation drops its placeholder: a problem the memo keeps.
  await cache.writeLocale('fr-FR', 'published', { h1: 'Bonjour', h2: 'Au revoir' })
  const first = await memosOf(cache)
  const made = first.checkCached('fr-FR', check('fr-FR'))
  first.remember({ unknown: 0, absent: -1 })
  first.record('fr-FR', 'rows-1', '{"x":"Au revoir"}')
  await first.settled()
  const [file] = (await fs.readdir(join(dir, 'catalogs'))).filter((f) => f.endsWith('.memo'))
  return { cache, made, file: join(dir, 'catalogs', file!) }
}

/** A memo or texts file as the plugin writes it: the digest of the rest on its first line. */
const seal = (rest: string): string => `${createHash('sha1').update(rest).digest('hex')}\n${rest}`

it('answers the same inputs with the outcome and literal it was written with', async () => {
  const { cache, made } = await setup()
  expect(made).toEqual({
    problems: [{ index: 0, hashcode: 'h1', reason: 'it drops the placeholder {name}' }],
    incomplete: [],
    translated: 1,
    texts: new Map([['\u0000\u0000Bye', 'Au revoir']]),
  })
  const second = new CatalogMemos(
    cache,
    options,
    memoMessagesOf(() => messages),
    { digest: ((await cache.manifestDigest()) as { value: { digest: string } }).value.digest },
  )
  // Every locale's memo answers: what they remember of the manifest, which then need not be parsed.
  expect(await second.probe(['fr-FR'])).toEqual({ unknown: 0, absent: -1 })
  const { texts, ...outcome } = made!
  expect(second.checkCached('fr-FR', check('fr-FR'))).toEqual(outcome)
  expect(second.literal('fr-FR', 'rows-1')).toBe('{"x":"Au revoir"}')
  expect(second.literal('fr-FR', 'rows-2')).toBeUndefined()
  // The translations wait in the file's bytes until a catalog asks.
  expect(second.defers('fr-FR')).toBe(true)
  expect(second.translations('fr-FR')).toEqual(texts)
})

it('answers from the recorded digests of settled cache files, which it reads only when a catalog asks', async () => {
  const { cache: written, made } = await setup()
  // A build whose clock is ahead takes the files it reads as settled and records their digests.
  const ahead = (): bigint => (BigInt(Date.now()) + 10_000n) * 1_000_000n
  const recording = await memosOf(new DiskCache(written.dir, 'p1', fs, ahead))
  await recording.settled()
  const reads: string[] = []
  const readFile = ((file: string, ...rest: unknown[]) => {
    reads.push(file)
    return (fs.readFile as (...args: unknown[]) => Promise<unknown>)(file, ...rest)
  }) as typeof fs.readFile
  const cache = new DiskCache(written.dir, 'p1', { ...fs, readFile })
  const memos = await memosOf(cache)
  const { texts, ...outcome } = made!
  expect(memos.checkCached('fr-FR', check('fr-FR'))).toEqual(outcome)
  expect(reads).not.toContain(cache.manifestFile)
  expect(reads).not.toContain(cache.localeFile('fr-FR', 'published'))
  expect(memos.translations('fr-FR')).toEqual(texts)
})

it('keeps the bytes a lasting build started from: its refresh after a pull compares against them', async () => {
  const { cache: written, made } = await setup()
  const ahead = (): bigint => (BigInt(Date.now()) + 10_000n) * 1_000_000n
  await (await memosOf(new DiskCache(written.dir, 'p1', fs, ahead))).settled()
  const lasting = new DiskCache(written.dir, 'p1')
  lasting.digests.readEvery()
  const served = await memosOf(lasting)
  const built = await memosOf(new DiskCache(written.dir, 'p1'))
  for (const memos of [served, built]) expect(memos.checkCached('fr-FR', check('fr-FR'))?.translated).toBe(1)
  // A pull rewrites the file: the dev server's build still gives the translations its catalogs were made of.
  await written.writeLocale('fr-FR', 'published', { h1: 'Salut {0}', h2: 'Adieu' })
  expect(served.translations('fr-FR')).toEqual(made!.texts)
  // A production build that took the file's digest from its record cannot, and says so.
  const file = written.localeFile('fr-FR', 'published')
  expect(() => built.translations('fr-FR')).toThrow(`[unplugin-tms] ${file} changed during the build`)
})

it('misses for another manifest, message, option (formats too) or cache file', async () => {
  const { cache } = await setup()
  const misses = [
    await memosOf(cache, options, [messages[0]!, { ...messages[1]!, text: 'Bye!' }]),
    await memosOf(cache, options, [messages[0]!, { ...messages[1]!, instruction: 'A farewell' }]),
    await memosOf(cache, { ...options, placeholder: { format: 'c', custom: null } }),
    await memosOf(cache, { ...options, sourceLocale: 'en-GB' }),
    // Named formats are compiled into the literals and read by the checks.
    await memosOf(cache, {
      ...options,
      formats: { number: { GBP: { style: 'currency', currency: 'GBP' } } },
    }),
  ]
  for (const memos of misses) {
    expect(memos.checkCached('fr-FR', check('fr-FR'))?.texts).toBeDefined()
    expect(memos.literal('fr-FR', 'rows-1')).toBeUndefined()
  }
  await cache.updateManifest({ [messages[1]!.key]: record('h3') })
  const manifest = await memosOf(cache)
  expect(manifest.checkCached('fr-FR', check('fr-FR'))?.texts).toBeDefined()
  await cache.updateManifest({ [messages[1]!.key]: record('h2') })
  await cache.writeLocale('fr-FR', 'published', { h1: 'Bonjour {0}', h2: 'Au revoir' })
  const edited = await memosOf(cache)
  expect(edited.checkCached('fr-FR', check('fr-FR'))?.translated).toBe(2)
  expect(edited.literal('fr-FR', 'rows-1')).toBeUndefined()
})

it('misses, never fails, for a memo it cannot trust', async () => {
  const { cache, file } = await setup()
  const text = await fs.readFile(file, 'utf8')
  const body = text.slice(text.indexOf('\n') + 1)
  const line = body.indexOf('\n')
  const header = JSON.parse(body.slice(0, line))
  const literals = body.slice(line)
  // A memo's first line is the digest of the rest: these are whole, but say what cannot be.
  const sealed = (changed: object) => seal(`${JSON.stringify({ ...header, ...changed })}${literals}`)
  expect(sealed({})).toBe(text)
  const untrusted = [
    // A character of a literal changed on the disk, one added, one lost.
    `${text.slice(0, -3)}X${text.slice(-2)}`,
    `${text}x`,
    text.slice(0, -1),
    text.slice(text.indexOf('\n') + 1),
    sealed({ problems: [{ index: 2, hashcode: 'h1', reason: 'r' }] }),
    sealed({ literals: [{ rows: 'rows-1', length: -1 }] }),
    sealed({ literals: [{ rows: 'rows-1', length: 3 }] }),
    sealed({ literals: [{ ...header.literals[0], modules: 7 }] }),
    sealed({ schema: 0 }),
    sealed({ manifest: { unknown: '0', absent: -1 } }),
  ]
  for (const bad of untrusted) {
    await fs.writeFile(file, bad)
    const memos = await memosOf(cache)
    expect(memos.checkCached('fr-FR', check('fr-FR'))?.texts).toBeDefined()
    expect(memos.literal('fr-FR', 'rows-1')).toBeUndefined()
  }
})

it('writes a plain id alone in the rows key, any other with what it stands for', () => {
  const sources = new Map<string, IdSource>([
    ['aaaaaa', { key: 'k1' }],
    ['bbbbbbbb', { key: 'k1', spelling: ['{n}'] }],
  ])
  const described = (of: Map<string, IdSource>) => (id: string) =>
    id === 'aaaaaa' ? ('plain' as const) : of.get(id)
  const key = rowsKey(['aaaaaa', 'bbbbbbbb'], described(sources), undefined)
  expect(rowsKey(['aaaaaa', 'bbbbbbbb'], described(sources), undefined)).toBe(key)
  expect(rowsKey(['aaaaaa'], described(sources), undefined)).not.toBe(key)
  expect(rowsKey(['aaaaaa', 'bbbbbbbb'], described(sources), 'en-US')).not.toBe(key)
  const respelled = new Map([...sources, ['bbbbbbbb', { key: 'k1', spelling: ['{m}'] }]])
  expect(rowsKey(['aaaaaa', 'bbbbbbbb'], described(respelled), undefined)).not.toBe(key)
  const otherKey = new Map([...sources, ['bbbbbbbb', { key: 'k2', spelling: ['{n}'] }]])
  expect(rowsKey(['aaaaaa', 'bbbbbbbb'], described(otherKey), undefined)).not.toBe(key)
  // A plain id is written alone: the same id with its key written out is other rows.
  expect(rowsKey(['aaaaaa', 'bbbbbbbb'], (id) => sources.get(id), undefined)).not.toBe(key)
  expect(rowsKey(['aaaaaa', 'cccccc'], described(sources), undefined)).not.toBe(
    rowsKey(['aaaaaa', 'cccccc'], (id) => (id === 'cccccc' ? { key: '' } : 'plain'), undefined),
  )
})

it('keeps both literals of a locale recorded twice in one build, whichever write is slower, each read back whole (lengths in bytes)', async () => {
  const dir = await fs.mkdtemp(join(tmpdir(), 'tms-memo-'))
  let writes = 0
  // The first memo write is slow: were the two records written apart, the first would land last.
  const slowFirst = {
    ...fs,
    writeFile: (async (file: string, text: string, encoding: BufferEncoding) => {
      if (file.includes('.memo.') && writes++ === 0) await new Promise((wake) => setTimeout(wake, 20))
      return fs.writeFile(file, text, encoding)
    }) as typeof fs.writeFile,
  }
  const cache = new DiskCache(dir, 'p1', slowFirst)
  await cache.updateManifest({ [messages[0]!.key]: record('h1'), [messages[1]!.key]: record('h2') })
  await cache.writeLocale('fr-FR', 'published', { h1: 'Bonjour', h2: 'Au revoir' })
  const first = await memosOf(cache)
  first.checkCached('fr-FR', check('fr-FR'))
  // Characters of two, three and four UTF-8 bytes: a literal's length in the file is its bytes'.
  first.record('fr-FR', 'rows-all', '{"w":"À bientôt","x":"Au revoir 日本 😀"}')
  first.record('fr-FR', 'rows-used', '{"x":"Au revoir 日本 😀"}')
  await first.settled()
  const second = await memosOf(cache)
  second.checkCached('fr-FR', check('fr-FR'))
  expect(second.literal('fr-FR', 'rows-all')).toBe('{"w":"À bientôt","x":"Au revoir 日本 😀"}')
  expect(second.literal('fr-FR', 'rows-used')).toBe('{"x":"Au revoir 日本 😀"}')
})

it("finds a literal by the modules' key noted with it, one literal per key; a memo that answered is not written for a note", async () => {
  const { cache, file } = await setup()
  const written = async () => (await fs.stat(file, { bigint: true })).mtimeNs
  const built = async () => {
    const memos = await memosOf(cache)
    memos.checkCached('fr-FR', check('fr-FR'))
    return memos
  }
  // The literal was recorded with no modules' key: none finds it.
  const second = await built()
  expect(second.storedLiteral('fr-FR', { modules: 'm-1' })).toBeUndefined()
  second.noteModules('fr-FR', 'rows-1', 'm-1')
  expect(textOf(second.storedLiteral('fr-FR', { modules: 'm-1' })!)).toBe('{"x":"Au revoir"}')
  const before = await written()
  await second.settled()
  expect(await written()).toBe(before)
  expect((await built()).storedLiteral('fr-FR', { modules: 'm-1' })).toBeUndefined()
  // Noted with a literal the build made: written with it.
  const third = await built()
  third.noteModules('fr-FR', 'rows-1', 'm-1')
  third.record('fr-FR', 'rows-2', '{"y":"Salut"}', 'm-1')
  await third.settled()
  const fourth = await built()
  expect(textOf(fourth.storedLiteral('fr-FR', { modules: 'm-1' })!)).toBe('{"y":"Salut"}')
  expect(fourth.literal('fr-FR', 'rows-1')).toBe('{"x":"Au revoir"}')
  // Another bundle's key moves to the literal its bundle uses; the last one noted keeps it.
  fourth.noteModules('fr-FR', 'rows-1', 'm-1')
  expect(textOf(fourth.storedLiteral('fr-FR', { modules: 'm-1' })!)).toBe('{"x":"Au revoir"}')
})

/** Counts the checks of the cache file's translations that a build makes. */
function countedCheck(): { checks: number; check: ReturnType<typeof check> } {
  const counted = {
    checks: 0,
    check: (byHashcode: Readonly<Record<string, string>>) => {
      counted.checks++
      return check('fr-FR')(byHashcode)
    },
  }
  return counted
}

it("keeps an inline build's checked translations in a texts file, which its next build parses instead of checking", async () => {
  const { cache, made, file } = await setup()
  // A runtime build keeps none: it ships the literal.
  await expect(fs.readFile(`${file}.texts`)).rejects.toThrow()
  const first = await memosOf(cache, options, messages, true)
  const firstChecks = countedCheck()
  expect(first.checkCached('fr-FR', firstChecks.check)?.translated).toBe(1)
  expect(first.translations('fr-FR')).toEqual(made!.texts)
  await first.settled()
  expect(firstChecks.checks).toBe(1)
  const kept = await fs.readFile(`${file}.texts`, 'utf8')
  // One translation or null per message, in the messages' order, under the locale's key.
  expect(kept.split('\n').slice(2)).toEqual([JSON.stringify([null, 'Au revoir'])])
  const second = await memosOf(cache, options, messages, true)
  const secondChecks = countedCheck()
  expect(second.checkCached('fr-FR', secondChecks.check)?.translated).toBe(1)
  expect([second.translations('fr-FR'), secondChecks.checks]).toEqual([made!.texts, 0])
  await second.settled()
  expect(await fs.readFile(`${file}.texts`, 'utf8')).toBe(kept)
})

it('checks the cache file again when a texts file is not sound, and writes a sound one', async () => {
  const { cache, made, file } = await setup()
  const seeded = await memosOf(cache, options, messages, true)
  seeded.checkCached('fr-FR', check('fr-FR'))
  seeded.translations('fr-FR')
  await seeded.settled()
  const kept = await fs.readFile(`${file}.texts`, 'utf8')
  const body = kept.slice(kept.indexOf('\n') + 1)
  const key = body.slice(0, body.indexOf('\n'))
  const unsound = [
    `${kept}x`,
    seal(`other-key\n${JSON.stringify([null, 'Au revoir'])}`),
    seal(`${key}\n${JSON.stringify(['Au revoir'])}`),
    seal(`${key}\n${JSON.stringify([null, 1])}`),
    seal(`${key}\n{"a":"b"}`),
    seal(`${key}\n[null,`),
  ]
  for (const bad of unsound) {
    await fs.writeFile(`${file}.texts`, bad)
    const memos = await memosOf(cache, options, messages, true)
    const counted = countedCheck()
    expect(memos.checkCached('fr-FR', counted.check)?.translated).toBe(1)
    expect([memos.translations('fr-FR'), counted.checks]).toEqual([made!.texts, 1])
    await memos.settled()
    expect(await fs.readFile(`${file}.texts`, 'utf8')).toBe(kept)
  }
})
