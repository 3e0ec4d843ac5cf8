/**
 * What each scanner of the extractor costs (src/core/extract/scan.ts says why each exists): one cold
 * `extractMessages()` of the benchmark corpus (bench/extract-corpus.ts, 5,000 TSX files) on one thread
 * with no cache, every scanner in turn within each round, in one process per Node version (this file
 * run as a child with tsx's loader). The figure is the median over the rounds of the CPU time of one
 * extraction (user + system of the process over the call), steadier than wall time on a shared
 * machine; the ratio is to the scanner `auto` picks on that Node.
 */
import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureCorpus } from '../extract-corpus'
import type { BenchSection } from '../section'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const ROUNDS = 6
const CHILD_FLAG = '--scanners-child'

/** What each scanner is kept for, beside its figure. */
const PURPOSE: Record<string, string> = {
  lazy: 'default on Node >= 22 (raw transfer)',
  'lazy-nodes': 'lazy without the quick read (quick.ts)',
  json: 'default on Node 20',
  'json-nodes': 'json without the quick read',
  estree: 'scope-aware walk, for programs that may declare a keyword name',
}

interface Figures {
  node: string
  auto: string
  cpuMs: Record<string, number>
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** In the child: the rounds, on this Node. */
async function measure(corpus: string): Promise<Figures> {
  const { clearExtractionMemory, extractMessages, resolveExtractOptions } = await import(
    '../../src/core/extract/index'
  )
  const { availableScanners } = await import('../../src/core/extract/scan')
  const samples = new Map<string, number[]>(availableScanners().map((s) => [s, []]))
  // Round -1 warms every path up and is not counted.
  for (let round = -1; round < ROUNDS; round++) {
    for (const scanner of availableScanners()) {
      clearExtractionMemory()
      const before = process.cpuUsage()
      const result = await extractMessages({ cwd: corpus, include: ['**/*.tsx'], workers: 0, scanner })
      const used = process.cpuUsage(before)
      if (result.messages.length === 0) throw new Error(`${scanner} found no message`)
      if (round >= 0) samples.get(scanner)!.push((used.user + used.system) / 1000)
    }
  }
  return {
    node: process.version,
    auto: resolveExtractOptions({}).scanner,
    cpuMs: Object.fromEntries([...samples].map(([s, xs]) => [s, median(xs)])),
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  const corpus = process.argv[process.argv.indexOf(CHILD_FLAG) + 1]!
  process.stdout.write(`${JSON.stringify(await measure(corpus))}\n`)
}

export const perNode = false

export async function run(): Promise<BenchSection> {
  const corpus = await ensureCorpus(join(repo, 'bench', '.corpus'), 'tms')
  const nodes = [process.execPath, ...(process.env.TMS_BENCH_NODES ?? '').split(':').filter(Boolean)]
  const lines = [
    `Corpus: ${corpus.files} TSX files, ${(corpus.bytes / 1e6).toFixed(1)} MB (bench/extract-corpus.ts). ${cpus().length} cores. Median of ${ROUNDS} rounds, the scanners taking turns within each round; CPU time of one cold extraction on one thread, no cache.`,
  ]
  for (const node of nodes) {
    console.log(`bench scanners: ${node}`)
    const out = execFileSync(
      node,
      ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, corpus.dir],
      {
        cwd: repo,
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      },
    )
    const f = JSON.parse(out.trim().split('\n').pop()!) as Figures
    const base = f.cpuMs[f.auto]!
    lines.push(
      '',
      `### Node ${f.node}`,
      '',
      '| scanner | CPU time | ratio to auto | kept for |',
      '| --- | --- | --- | --- |',
    )
    for (const [scanner, ms] of Object.entries(f.cpuMs)) {
      const name = scanner === f.auto ? `\`${scanner}\` (auto)` : `\`${scanner}\``
      lines.push(`| ${name} | ${ms.toFixed(0)} ms | ${(ms / base).toFixed(2)} | ${PURPOSE[scanner]} |`)
    }
  }
  return { title: 'Extraction scanners', markdown: lines.join('\n') }
}
