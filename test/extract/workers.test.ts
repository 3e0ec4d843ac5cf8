/**
 * Worker threads change only the speed: the same tree gives the same result with the calling thread
 * alone and with helpers (run from the TypeScript sources here, through the tsx loader).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clearExtractionMemory,
  type ExtractResult,
  extractMessages,
  findSourceFiles,
  resolveExtractOptions,
} from '../../src/core/extract/index'
import { Merger } from '../../src/core/extract/merge'
import { extractInThreads, extractMessagesInThreads, threadCount } from '../../src/core/extract/pool'

let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tms-extract-workers-'))
  for (let i = 0; i < 240; i++) {
    const sub = join(dir, 'src', `part${i % 6}`)
    mkdirSync(sub, { recursive: true })
    const body =
      i % 17 === 0
        ? `export const broken${i} = t('Unclosed ${i}'\n`
        : `import { t } from 'unplugin-tms/runtime'\nexport const v${i} = [t('Shared'), t('Item {n} of ${i % 9}', { n: ${i} }), t\`Tag ${i % 5}\`]\n`
    writeFileSync(join(sub, `file${i}.ts`), body)
  }
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function picture(r: ExtractResult): unknown {
  return {
    messages: r.messages,
    diagnostics: r.diagnostics,
    files: [...r.files.values()].map((f) => [f.file, f.hash, f.messages, f.calls, f.diagnostics]),
  }
}

it('gives the same messages, call sites and diagnostics with worker threads as with one thread', async () => {
  clearExtractionMemory()
  const alone = await extractMessages({ cwd: dir, workers: 0 })
  clearExtractionMemory()
  const threaded = await extractMessages({ cwd: dir, workers: 3 })
  expect(threaded.stats).toMatchObject({ files: 240, parsed: 240, cached: 0, skipped: 0 })
  expect(alone.stats.workers).toBe(0)
  expect(picture(threaded)).toEqual(picture(alone))
  expect(alone.messages).toHaveLength(1 + 9 + 5)
  expect(alone.diagnostics.map((d) => d.code)).toEqual(Array(15).fill('parse-error'))
})

it('parses in the workers themselves when the calling thread stays out', async () => {
  const options = resolveExtractOptions({ cwd: dir })
  const files = await findSourceFiles(options)
  const local = await extractInThreads(files, options, 1)
  const remote = await extractInThreads(files, options, 3, false)
  expect(local.workers).toBe(0)
  expect(remote.workers).toBeGreaterThanOrEqual(1)
  const plain = (r: (typeof local.results)[number]) => ({
    outcome: r.outcome,
    file: r.result.file,
    hash: r.result.hash,
    messages: r.result.messages,
    calls: r.result.calls,
    diagnostics: r.result.diagnostics,
  })
  expect(remote.results.map(plain)).toEqual(local.results.map(plain))
  // Workers send results in their cache encoding; the calling thread's own results have none.
  expect(remote.results.every((r) => typeof r.payload === 'string')).toBe(true)
  expect(local.results.every((r) => r.payload === undefined)).toBe(true)
})

it('keeps small trees and busy machines on the calling thread under "auto"', () => {
  expect(threadCount('auto', 10, 8, 0)).toBe(1)
  expect(threadCount('auto', 5000, 2, 0)).toBe(1)
  expect(threadCount('auto', 5000, 2, 1.2)).toBe(1)
  expect(threadCount('auto', 5000, 4, 0)).toBe(4)
  expect(threadCount('auto', 5000, 4, 1.2)).toBe(1)
  expect(threadCount('auto', 5000, 16, 2)).toBe(4)
  expect(threadCount(0, 5000)).toBe(1)
  expect(threadCount(3, 5000)).toBe(3)
  expect(threadCount(8, 60)).toBe(2)
})

describe('a messages-only run over threads', () => {
  let tree: string
  beforeAll(() => {
    // 300 files: 7 batches. "Tip" has maxLength 10, 11 or 12 in every 7th file and none elsewhere; "Note"
    // two instructions in every 11th: conflicts within batches and across them.
    tree = mkdtempSync(join(tmpdir(), 'tms-extract-run-'))
    mkdirSync(join(tree, 'src'))
    for (let i = 0; i < 300; i++) {
      const lines = ["import { t } from 'unplugin-tms/runtime'", "t('Shared')"]
      lines.push(i % 7 === 0 ? `t('Tip', undefined, { maxLength: ${10 + (i % 3)} })` : "t('Tip')")
      if (i % 11 === 0) lines.push(`t('Note', undefined, { instruction: 'I${i % 2}' })`)
      lines.push(`t('Item ${i % 13}')`)
      if (i % 50 === 49) lines.push('t(')
      writeFileSync(join(tree, 'src', `f${String(i).padStart(3, '0')}.ts`), `${lines.join('\n')}\n`)
    }
  })
  afterAll(() => rmSync(tree, { recursive: true, force: true }))

  it('merges exactly as one thread does, conflicting metadata included', async () => {
    clearExtractionMemory()
    const alone = await extractMessages({ cwd: tree, workers: 0 })
    const conflicts = alone.diagnostics.filter((d) => d.code === 'conflicting-metadata')
    // Tip: the 28 of every 7th file whose maxLength is not 10, Note: the 14 odd ones of every 11th,
    // less one of each in the files that do not parse (49 and 99).
    expect(conflicts).toHaveLength(27 + 13)
    expect(conflicts[0]!.message).toBe(
      'src/f007.ts:3:1: message "Tip" has two different maxLength values; the first one is kept',
    )
    expect(alone.diagnostics.filter((d) => d.code === 'parse-error')).toHaveLength(6)
    const threaded = await extractMessages({ cwd: tree, workers: 3, messagesOnly: true })
    expect(threaded.stats).toMatchObject({ files: 300, parsed: 300, cached: 0, skipped: 0 })
    expect(threaded.messages).toEqual(alone.messages)
    expect(threaded.diagnostics).toEqual(alone.diagnostics)

    // Every batch through the workers (the calling thread stays out), merged in file order.
    const options = resolveExtractOptions({ cwd: tree, messagesOnly: true })
    const files = await findSourceFiles(options)
    const merger = new Merger(tree, true)
    const remote = await extractMessagesInThreads(files, options, 3, merger, false)
    expect(remote).toMatchObject({ parsed: 300, skipped: 0 })
    expect(remote.workers).toBeGreaterThanOrEqual(1)
    const merged = merger.finish()
    expect(merged.messages).toEqual(alone.messages)
    expect(merged.diagnostics).toEqual(alone.diagnostics)
  })
})
