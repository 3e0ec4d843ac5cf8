/**
 * A run after an edit patches the last merge with the changed files (`patchMerge`) instead of merging
 * every file again: over random edits of an app whose files share messages (other placeholder
 * spellings of one key, variants, metadata, diagnostics), the patched merge must equal the merge of a
 * fresh parse, message for message and diagnostic for diagnostic, in order.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { loadCacheFile } from '../../src/core/extract/cache'
import { clearExtractionMemory, extractMessages, resolveExtractOptions } from '../../src/core/extract/index'
import { patchStoredMerge } from '../../src/core/extract/merge-patch'

let dir: string
let cacheDir: string

beforeEach(() => {
  clearExtractionMemory()
  dir = mkdtempSync(join(tmpdir(), 'tms-merge-patch-'))
  cacheDir = join(dir, '.tms-cache', 'extract')
})

afterEach(() => {
  clearExtractionMemory()
  rmSync(dir, { recursive: true, force: true })
})

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** One call of a few, chosen so that files share keys and one key is spelled in more than one way. */
const CALLS = [
  "t('Save')",
  "t('Save', undefined, { variant: 'button' })",
  "t('Save', undefined, { variant: 'button', maxLength: 12 })",
  "t('Hello {name}', { name: 'a' })",
  "t('Hello {who}', { who: 'b' })",
  "t('Open {count} files', { count: 2 })",
  "t('Cancel', undefined, { instruction: 'a verb' })",
  't`Tip`',
  "t('Close')",
  "t('Delete {item}?', { item: 'x' })",
  't(labels[0])',
  "t('Line one')",
]

function source(next: () => number): string {
  const calls: string[] = []
  const n = Math.floor(next() * 5)
  for (let i = 0; i < n; i++) calls.push(CALLS[Math.floor(next() * CALLS.length)]!)
  // Now and then a second instruction for one message: a conflict, whose warning a patch keeps or makes again.
  if (next() < 0.04) calls.push("t('Cancel', undefined, { instruction: 'another' })")
  return `import { t } from 'unplugin-tms/runtime'\nconst labels = [String(Date.now())]\nexport const v = [\n  ${calls.join(',\n  ')}\n]\n`
}

const run = (extra: Record<string, unknown> = {}) => extractMessages({ cwd: dir, workers: 0, ...extra })

it('merges an edited app as a fresh parse does, over random edits', async () => {
  const next = random(20261203)
  const names: string[] = []
  for (let i = 0; i < 24; i++) {
    names.push(`src/f${i}.ts`)
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, names[i]!), source(next))
  }
  await run({ cacheDir })
  let patched = 0
  let lines = 0
  for (let round = 0; round < 40; round++) {
    const edits = 1 + Math.floor(next() * 3)
    for (let e = 0; e < edits; e++) {
      const pick = next()
      if (pick < 0.15 && names.length > 8) {
        const [gone] = names.splice(Math.floor(next() * names.length), 1)
        rmSync(join(dir, gone!))
      } else if (pick < 0.3) {
        const name = `src/n${round}-${e}.ts`
        names.push(name)
        writeFileSync(join(dir, name), source(next))
      } else writeFileSync(join(dir, names[Math.floor(next() * names.length)]!), source(next))
    }
    const options = resolveExtractOptions({ cwd: dir, workers: 0, cacheDir })
    const disk = await loadCacheFile(cacheDir, options.digest, options.namespace)
    clearExtractionMemory()
    const fresh = await run()
    clearExtractionMemory()
    const warm = await run({ cacheDir })
    const context = `round ${round}`
    expect([warm.messages, warm.diagnostics, warm.digest, warm.count], context).toEqual([
      fresh.messages,
      fresh.diagnostics,
      fresh.digest,
      fresh.count,
    ])
    // The next run with nothing changed reads the merged line this one wrote (patched or whole) back.
    clearExtractionMemory()
    const again = await run({ cacheDir })
    expect([again.stats.parsed, again.messages, again.diagnostics], context).toEqual([
      0,
      fresh.messages,
      fresh.diagnostics,
    ])
    const patch = patchStoredMerge(disk, [...fresh.files.values()], dir)
    if (patch === undefined) continue
    patched++
    expect([patch.messages, patch.diagnostics], context).toEqual([fresh.messages, fresh.diagnostics])
    if (patch.line !== undefined) lines++
  }
  // Each round changes at most 3 files of 20 or more: every one patches. A round that removed a file
  // encodes its line whole.
  expect(patched).toBe(40)
  expect(lines).toBeGreaterThan(20)
  expect(lines).toBeLessThan(40)
})

it('reads only the changed files and those sharing their messages when it patches', async () => {
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src/a.ts'), "export const a = [t('Save'), t('Close')]\n")
  writeFileSync(join(dir, 'src/b.ts'), "export const b = [t('Close'), t('Hello {name}', { name: 'x' })]\n")
  writeFileSync(join(dir, 'src/c.ts'), "export const c = [t('Line one')]\n")
  for (const n of ['d', 'e', 'f', 'g', 'h'])
    writeFileSync(join(dir, `src/${n}.ts`), `export const ${n} = 1\n`)
  await run({ cacheDir })
  const file = readFileSync(join(cacheDir, 'extract.v1.cache'), 'utf8').split('\n')
  const payloadOf = (name: string): string => {
    const rows = JSON.parse(file[3]!) as (string | number)[]
    return file[4 + rows.indexOf(join(dir, 'src', name)) / 5]!
  }
  const payloads = { b: payloadOf('b.ts'), c: payloadOf('c.ts') }
  writeFileSync(join(dir, 'src/a.ts'), "export const a = [t('Save'), t('Close {n}', { n: 1 })]\n")
  clearExtractionMemory()
  const parse = vi.spyOn(JSON, 'parse')
  try {
    const warm = await run({ cacheDir })
    const parsed = (payload: string) => parse.mock.calls.some(([text]) => text === payload)
    // b.ts holds 'Close', which a.ts held: merged again. c.ts shares nothing: its payload stays unread.
    expect([parsed(payloads.b), parsed(payloads.c)]).toEqual([true, false])
    expect(warm.messages.map((m) => [m.text, m.locations.map((l) => l.file.slice(dir.length))])).toEqual([
      ['Close', ['/src/b.ts']],
      ['Close {n}', ['/src/a.ts']],
      ['Hello {name}', ['/src/b.ts']],
      ['Line one', ['/src/c.ts']],
      ['Save', ['/src/a.ts']],
    ])
  } finally {
    parse.mockRestore()
  }
})
