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
import { execFileSync } from 'node:child_process'
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
const CHILD_MARK = 'TMS_BENCH_SECTION '
const child = process.env.TMS_BENCH_CHILD === '1'
const otherNodes = child ? [] : (process.env.TMS_BENCH_NODES ?? '').split(':').filter(Boolean)
const versions = new Map(
  otherNodes.map((n) => [n, execFileSync(n, ['--version'], { encoding: 'utf8' }).trim()]),
)
const sections: BenchSection[] = []
for (const file of files.sort()) {
  console.log(`bench: ${file}`)
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
    run(): Promise<BenchSection>
    perNode?: boolean
  }
  const own = await mod.run()
  if (child) {
    console.log(`${CHILD_MARK}${JSON.stringify(own)}`)
    continue
  }
  if (mod.perNode === false || otherNodes.length === 0) {
    sections.push(own)
    continue
  }
  const tables = [`### Node ${process.version}\n\n${own.markdown.trim()}`]
  for (const node of otherNodes) {
    const version = versions.get(node)!
    console.log(`bench: ${file} again on Node ${version}`)
    const out = execFileSync(node, ['--import', 'tsx', fileURLToPath(import.meta.url), file], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: { ...process.env, TMS_BENCH_CHILD: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const line = out.split('\n').find((l) => l.startsWith(CHILD_MARK))
    if (line === undefined) throw new Error(`bench: ${file} on ${node} printed no result`)
    const section = JSON.parse(line.slice(CHILD_MARK.length)) as BenchSection
    tables.push(`### Node ${version}\n\n${section.markdown.trim()}`)
  }
  sections.push({ title: own.title, markdown: tables.join('\n\n') })
}
if (child) process.exit(0)
const header = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${[process.version, ...versions.values()].join(' and ')}, ${process.platform}-${process.arch}.`,
  'Every comparison is made in one run on this machine; ratios are what matter across machines.',
  '',
].join('\n')
const body = sections.map((s) => `## ${s.title}\n\n${s.markdown.trim()}\n`).join('\n')
await writeFile(join(here, '..', 'BENCHMARKS.md'), `${header}\n${body}`)
console.log('bench: wrote BENCHMARKS.md')
