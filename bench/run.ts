/**
 * `npm run bench`: runs every benchmark section in one process, on this machine, and writes
 * BENCHMARKS.md with the machine, the date, each figure and its target.
 *
 * A section is a module in bench/sections/ exporting `run(): Promise<BenchSection>`. With
 * TMS_BENCH_NODES (paths of other node binaries, `:`-separated), a section that measures in this
 * process is run again under each of them (this script in a child process) and reports one table
 * per Node version; a section exporting `perNode = false` (its figures do not depend on the Node
 * running it, or it runs its own child processes per Node) is run once.
 */
import { readdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BenchSection, benchChild, otherNodes, runSection } from './section'

export type { BenchSection } from './section'

const here = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv.slice(2)
const files = (await readdir(join(here, 'sections'))).filter(
  (f) => /\.ts$/.test(f) && (only.length === 0 || only.some((o) => f.includes(o))),
)
const sections: BenchSection[] = []
for (const file of files.sort()) {
  console.log(`bench: ${file}`)
  sections.push(await runSection(file))
}
if (benchChild) process.exit(0)
const header = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${[process.version, ...otherNodes.values()].join(' and ')}, ${process.platform}-${process.arch}.`,
  'Every comparison is made in one run on this machine; ratios are what matter across machines.',
  '',
].join('\n')
const body = sections.map((s) => `## ${s.title}\n\n${s.markdown.trim()}\n`).join('\n')
await writeFile(join(here, '..', 'BENCHMARKS.md'), `${header}\n${body}`)
console.log('bench: wrote BENCHMARKS.md')
