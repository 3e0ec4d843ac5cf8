/**
 * The content-hash caches: an unchanged file is never parsed again, in process or (with cacheDir)
 * across processes; a changed one is; a bad cache file is a miss. `stats` tells what was parsed, and
 * every cached result must equal the result of a fresh parse.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearExtractionMemory,
  type ExtractResult,
  extractFromCode,
  extractMessages,
  resolveExtractOptions,
  transientExtraction,
} from '../../src/core/extract/index'

let dir: string
let cacheDir: string

function write(rel: string, code: string): void {
  const file = join(dir, rel)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, code)
}

function snapshot(result: ExtractResult): unknown {
  return {
    messages: result.messages,
    diagnostics: result.diagnostics,
    files: [...result.files.entries()].map(([file, fx]) => [
      file,
      { hash: fx.hash, messages: fx.messages, calls: fx.calls, diagnostics: fx.diagnostics },
    ]),
  }
}

const run = (extra: Record<string, unknown> = {}) => extractMessages({ cwd: dir, workers: 0, ...extra })

beforeEach(() => {
  clearExtractionMemory()
  dir = mkdtempSync(join(tmpdir(), 'tms-extract-cache-'))
  cacheDir = join(dir, '.tms-cache', 'extract')
  write(
    'src/a.ts',
    "import { t } from 'unplugin-tms/runtime'\nexport const a = t('Hello {name}', { name: 'x' })\n",
  )
  write(
    'src/b.tsx',
    "import { t } from 'unplugin-tms/runtime'\nexport const B = () => <p title={t`Tip`}>{t('Save', undefined, { variant: 'button', maxLength: 10 })}</p>\n",
  )
  write('src/c.ts', "export const nothing = 'no keyword here'\n")
  write('src/d.ts', "export const broken = t('Never closed'\n")
  write('src/e.ts', "export const x = _n('One item', '{count} items', 2)\n")
})

afterEach(() => {
  clearExtractionMemory()
  rmSync(dir, { recursive: true, force: true })
})

describe('in-process cache', () => {
  it('does not parse an unchanged file again, and gives the same result', async () => {
    const cold = await run()
    expect(cold.diagnostics.map((d) => d.code)).toEqual(['parse-error'])
    expect(cold.stats).toEqual({ files: 5, parsed: 3, cached: 0, skipped: 2, workers: 0 })
    const warm = await run()
    expect(warm.stats).toEqual({ files: 5, parsed: 0, cached: 5, skipped: 0, workers: 0 })
    expect(snapshot(warm)).toEqual(snapshot(cold))
  })

  it('parses only the file that changed', async () => {
    await run()
    write('src/a.ts', "import { t } from 'unplugin-tms/runtime'\nexport const a = t('Goodbye')\n")
    const next = await run()
    expect(next.stats).toEqual({ files: 5, parsed: 1, cached: 4, skipped: 0, workers: 0 })
    expect(next.messages.map((m) => m.text)).toEqual(['Goodbye', 'Save', 'Tip'])
  })

  it('reads and hashes a touched file but does not parse it when its content is the same', async () => {
    await run()
    const later = new Date(Date.now() + 60_000)
    utimesSync(join(dir, 'src/a.ts'), later, later)
    const next = await run()
    expect(next.stats).toEqual({ files: 5, parsed: 0, cached: 5, skipped: 0, workers: 0 })
  })

  it('drops a deleted file and picks up a new one', async () => {
    await run()
    rmSync(join(dir, 'src/a.ts'))
    write('src/f.ts', "export const f = t('New file')\n")
    const next = await run()
    expect(next.stats).toEqual({ files: 5, parsed: 1, cached: 4, skipped: 0, workers: 0 })
    expect(next.messages.map((m) => m.text)).toEqual(['New file', 'Save', 'Tip'])
    expect([...next.files.keys()].some((f) => f.endsWith('a.ts'))).toBe(false)
  })

  it('parses again when an option that changes results changes', async () => {
    await run()
    const next = await run({ keywords: ['t', '_n:1,2'] })
    expect(next.stats).toEqual({ files: 5, parsed: 4, cached: 0, skipped: 1, workers: 0 })
    expect(next.messages.map((m) => m.text)).toEqual([
      'Hello {name}',
      'One item',
      'Save',
      'Tip',
      '{count} items',
    ])
  })

  it('lets extractFromCode reuse the result for the same content', () => {
    const options = resolveExtractOptions({ cwd: dir })
    const file = join(dir, 'src/a.ts')
    const code = readFileSync(file, 'utf8')
    const first = extractFromCode(file, code, options)
    expect(extractFromCode(file, code, options)).toBe(first)
    const changed = extractFromCode(file, `${code}\nexport const z = t('More')\n`, options)
    expect(changed).not.toBe(first)
    expect(changed.messages.map((m) => m.text)).toEqual(['Hello {name}', 'More'])
  })
})

describe('disk cache (cacheDir)', () => {
  it('serves a new process (memory cleared) without parsing, with identical results', async () => {
    const cold = await run({ cacheDir })
    clearExtractionMemory()
    const warm = await run({ cacheDir })
    expect(warm.stats).toEqual({ files: 5, parsed: 0, cached: 5, skipped: 0, workers: 0 })
    expect(snapshot(warm)).toEqual(snapshot(cold))
  })

  it('gives a transform a decoded copy of a stored result and leaves the stored one undecoded', async () => {
    // One file, whose merged line the warm run reuses: nothing else decodes the stored result.
    for (const name of ['a.ts', 'c.ts', 'd.ts', 'e.ts']) rmSync(join(dir, 'src', name))
    const cold = await run({ cacheDir })
    clearExtractionMemory()
    const warm = await run({ cacheDir })
    const file = join(dir, 'src/b.tsx')
    const stored = warm.files.get(file)!
    const expected = cold.files.get(file)!
    const view = transientExtraction(stored)
    // Compared by identity only: a deep comparison with the stored result would read (decode) it.
    expect(view === stored).toBe(false)
    expect(view).toEqual({
      file,
      hash: expected.hash,
      messages: expected.messages,
      calls: expected.calls,
      diagnostics: expected.diagnostics,
    })
    // Still undecoded: its accessors are in place, and another view is another decode.
    expect(typeof Object.getOwnPropertyDescriptor(stored, 'calls')?.get).toBe('function')
    expect(transientExtraction(stored).calls === view.calls).toBe(false)
    // Once read, the stored result is its own view.
    expect(stored.calls).toEqual(expected.calls)
    expect(transientExtraction(stored)).toBe(stored)
  })

  it('re-parses only a changed file after a restart and stores the change', async () => {
    await run({ cacheDir })
    clearExtractionMemory()
    write('src/b.tsx', "export const B = () => <p>{t('Changed')}</p>\n")
    const next = await run({ cacheDir })
    expect(next.stats).toEqual({ files: 5, parsed: 1, cached: 4, skipped: 0, workers: 0 })
    const fresh = await extractMessages({ cwd: dir, workers: 0 })
    clearExtractionMemory()
    const again = await run({ cacheDir })
    expect(again.stats.parsed).toBe(0)
    expect(snapshot(again)).toEqual(snapshot(fresh))
  })

  it('merges an edited app from the stored results without decoding their call sites', async () => {
    // A message of a.ts in a second stored file: the merge folds locations across stored results.
    write('src/f.ts', "export const f = [t('Hello {name}', { name: 'y' }), t`Tip`]\n")
    await run({ cacheDir })
    clearExtractionMemory()
    write('src/b.tsx', "export const B = () => <p>{t('Changed')}{t('Hello {name}', { name: 'z' })}</p>\n")
    const next = await run({ cacheDir })
    expect(next.stats.parsed).toBe(1)
    const stored = ['a.ts', 'e.ts', 'f.ts'].map((name) => next.files.get(join(dir, 'src', name))!)
    // Read before anything else reads the stored results: the merge left them undecoded.
    const undecoded = stored.map((fx) => typeof Object.getOwnPropertyDescriptor(fx, 'calls')?.get)
    expect(undecoded).toEqual(['function', 'function', 'function'])
    clearExtractionMemory()
    const fresh = await extractMessages({ cwd: dir, workers: 0 })
    expect(next.messages).toEqual(fresh.messages)
    expect(next.diagnostics).toEqual(fresh.diagnostics)
    expect(snapshot(next)).toEqual(snapshot(fresh))
  })

  it('treats a damaged cache file as a miss and rewrites it', async () => {
    await run({ cacheDir })
    const file = join(cacheDir, 'extract.v1.cache')
    const whole = readFileSync(file, 'utf8')
    writeFileSync(file, '{"schema":1,"revision":1,"tool":"x"\nnot json')
    clearExtractionMemory()
    const next = await run({ cacheDir })
    expect(next.stats.parsed).toBe(3)
    clearExtractionMemory()
    expect((await run({ cacheDir })).stats.parsed).toBe(0)
    // Cut short: the last file's payload is not where the index says it ends.
    expect(readFileSync(file, 'utf8')).toBe(whole)
    writeFileSync(file, whole.slice(0, -10))
    clearExtractionMemory()
    expect((await run({ cacheDir })).stats.parsed).toBe(3)
  })

  it('ignores a cache written for other options or another schema', async () => {
    await run({ cacheDir })
    clearExtractionMemory()
    expect((await run({ cacheDir, namespace: 'web' })).stats.parsed).toBe(3)
    const file = join(cacheDir, 'extract.v1.cache')
    const lines = readFileSync(file, 'utf8').split('\n')
    const header = JSON.parse(lines[0]!) as { schema: number }
    writeFileSync(file, [JSON.stringify({ ...header, schema: 999 }), ...lines.slice(1)].join('\n'))
    clearExtractionMemory()
    expect((await run({ cacheDir, namespace: 'web' })).stats.parsed).toBe(3)
  })

  it('reads the merged messages of a warm run only when asked, knowing their count and digest before', async () => {
    write('src/f.ts', "export const f = t('{share, number, percent} done', { share: 0.5 })\n")
    const cold = await run({ cacheDir })
    expect([cold.count, cold.styled]).toEqual([cold.messages.length, 1])
    const line = readFileSync(join(cacheDir, 'extract.v1.cache'), 'utf8').split('\n')[2]!
    clearExtractionMemory()
    const parse = vi.spyOn(JSON, 'parse')
    try {
      const warm = await run({ cacheDir })
      const parsedLine = () => parse.mock.calls.some(([text]) => text === line)
      expect([warm.count, warm.styled, warm.digest]).toEqual([cold.count, 1, cold.digest])
      expect(parsedLine()).toBe(false)
      expect(warm.messages).toEqual(cold.messages)
      expect(parsedLine()).toBe(true)
    } finally {
      parse.mockRestore()
    }
  })

  it('merges the files again when the line of merged messages does not read back', async () => {
    const cold = await run({ cacheDir })
    const file = join(cacheDir, 'extract.v1.cache')
    const lines = readFileSync(file, 'utf8').split('\n')
    writeFileSync(file, [...lines.slice(0, 2), '{"files":', ...lines.slice(3)].join('\n'))
    clearExtractionMemory()
    const warm = await run({ cacheDir })
    expect(warm.stats.parsed).toBe(0)
    expect(warm.count).toBe(cold.count)
    expect(warm.messages).toEqual(cold.messages)
  })

  it('keeps namespaces in the keys of results read back from disk', async () => {
    const cold = await run({ cacheDir, namespace: 'web' })
    clearExtractionMemory()
    const warm = await run({ cacheDir, namespace: 'web' })
    expect(warm.stats.parsed).toBe(0)
    expect(warm.messages.map((m) => [m.key, m.namespace])).toEqual(cold.messages.map((m) => [m.key, 'web']))
    expect(warm.messages[0]!.key).toBe('web\u0000\u0000Hello {0}')
  })
})

describe('a messages-only run', () => {
  it('gives the same messages and diagnostics, with no call sites or hashes, and leaves the caches alone', async () => {
    // Metadata that conflicts within a file and across files: the merge as each file is read must
    // report it as the merge at the end does.
    write(
      'src/f.ts',
      "import { t } from 'unplugin-tms/runtime'\nt('Save', undefined, { variant: 'button', maxLength: 12 })\nt('Tip', undefined, { instruction: 'A' })\nt('Tip', undefined, { instruction: 'B' })\n",
    )
    write(
      'src/g.ts',
      "import { t } from 'unplugin-tms/runtime'\nt('Tip')\nt('Tip', undefined, { instruction: 'C' })\n",
    )
    const only = await run({ messagesOnly: true, keywords: ['t', '_n:1,2'] })
    expect(only.stats).toMatchObject({ files: 7, parsed: 6, cached: 0 })
    expect(only.diagnostics.filter((d) => d.code === 'conflicting-metadata').map((d) => d.message)).toEqual([
      'src/f.ts:2:1: message "Save" has two different maxLength values; the first one is kept',
      'src/f.ts:4:1: message "Tip" has two different instructions; the first one is kept',
      'src/g.ts:2:1: message "Tip" has two different instructions; the first one is kept',
    ])
    for (const fx of only.files.values()) {
      expect(fx.calls).toEqual([])
      expect(fx.hash).toBe('')
    }
    const full = await run({ keywords: ['t', '_n:1,2'] })
    // Nothing was remembered: the full run parses every file again.
    expect(full.stats).toMatchObject({ files: 7, parsed: 6, cached: 0 })
    expect(only.messages).toEqual(full.messages)
    expect(only.diagnostics).toEqual(full.diagnostics)
    expect(only.messages.map((m) => m.text)).toEqual([
      'Hello {name}',
      'One item',
      'Save',
      'Tip',
      '{count} items',
    ])
    expect([...full.files.values()].flatMap((fx) => fx.calls)).toHaveLength(9)
  })

  it('cannot be combined with a cache directory', () => {
    expect(() => resolveExtractOptions({ cwd: dir, cacheDir, messagesOnly: true })).toThrow(
      /messagesOnly results are never cached: leave cacheDir unset/,
    )
  })
})
