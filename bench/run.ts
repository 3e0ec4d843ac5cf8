/**
 * `npm run bench`: runs every benchmark section in one process, on this machine, and writes
 * BENCHMARKS.md with the machine, the date, each figure and its target.
 *
 * A section is a module in bench/sections/ exporting `run(): Promise<BenchSection>`.
 */
import { readdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export interface BenchSection {
  title: string
  /** Markdown body: a table of figures, each with its target beside it. */
  markdown: string
}

const here = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv.slice(2)
const dir = join(here, 'sections')
const files = (await readdir(dir)).filter(
  (f) => /\.ts$/.test(f) && (only.length === 0 || only.some((o) => f.includes(o))),
)
const sections: BenchSection[] = []
for (const file of files.sort()) {
  console.log(`bench: ${file}`)
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run(): Promise<BenchSection> }
  sections.push(await mod.run())
}
const header = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}-${process.arch}.`,
  'Every comparison is made in one run on this machine; ratios are what matter across machines.',
  '',
].join('\n')
const body = sections.map((s) => `## ${s.title}\n\n${s.markdown.trim()}\n`).join('\n')
await writeFile(join(here, '..', 'BENCHMARKS.md'), `${header}\n${body}`)
console.log('bench: wrote BENCHMARKS.md')
