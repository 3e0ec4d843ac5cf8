/**
 * `npx tsx bench/write-section.ts install`: runs the sections whose file name contains the argument
 * and puts each into BENCHMARKS.md in place of its previous version (or at the end), leaving the
 * others as the last full run wrote them, with a table per Node of TMS_BENCH_NODES as in a full run.
 * For a figure that changed alone; `npm run bench` remains the way to measure everything in one run.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runSection } from './section'

const here = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv[2]
if (!only) throw new Error('usage: tsx bench/write-section.ts <part of a section file name>')
const files = (await readdir(join(here, 'sections'))).filter((f) => f.endsWith('.ts') && f.includes(only))
if (files.length === 0) throw new Error(`no section in bench/sections/ matches ${only}`)
const file = join(here, '..', 'BENCHMARKS.md')
let text = await readFile(file, 'utf8')
for (const name of files) {
  const section = await runSection(name)
  const block = `## ${section.title}\n\n${section.markdown.trim()}\n`
  const start = text.indexOf(`\n## ${section.title}\n`)
  if (start < 0) {
    text = `${text.trimEnd()}\n\n${block}`
  } else {
    const next = text.indexOf('\n## ', start + 1)
    text = `${text.slice(0, start + 1)}${block}${next < 0 ? '' : text.slice(next)}`
  }
  console.log(`bench: ${name} written into BENCHMARKS.md`)
}
await writeFile(file, text)
