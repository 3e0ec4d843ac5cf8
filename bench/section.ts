/**
 * One benchmark section run as `npm run bench` runs it: in this process, and again under each Node
 * of TMS_BENCH_NODES (`:`-separated binaries) unless the section exports `perNode = false` (its
 * figures do not depend on the Node running it, or it runs its own child processes per Node). Shared
 * by bench/run.ts (every section) and bench/write-section.ts (one section, written in place), so a
 * section re-measured alone keeps its table per Node.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export interface BenchSection {
  title: string
  /** Markdown body: a table of figures, each with its target beside it. */
  markdown: string
}

const here = fileURLToPath(new URL('.', import.meta.url))
const CHILD_MARK = 'TMS_BENCH_SECTION '

/** True in the child process that runs one section under another Node. */
export const benchChild: boolean = process.env.TMS_BENCH_CHILD === '1'

/** The other Node binaries (path → `node --version`); none in a child. */
export const otherNodes: ReadonlyMap<string, string> = new Map(
  (benchChild ? [] : (process.env.TMS_BENCH_NODES ?? '').split(':').filter(Boolean)).map((n) => [
    n,
    execFileSync(n, ['--version'], { encoding: 'utf8' }).trim(),
  ]),
)

/**
 * Runs bench/sections/<file>. In a child it prints its result for the parent and returns it; in the
 * parent it returns one table per Node version (or the single table of a section run once).
 */
export async function runSection(file: string): Promise<BenchSection> {
  const mod = (await import(pathToFileURL(join(here, 'sections', file)).href)) as {
    run(): Promise<BenchSection>
    perNode?: boolean
  }
  const own = await mod.run()
  if (benchChild) {
    console.log(`${CHILD_MARK}${JSON.stringify(own)}`)
    return own
  }
  if (mod.perNode === false || otherNodes.size === 0) return own
  const tables = [`### Node ${process.version}\n\n${own.markdown.trim()}`]
  for (const [node, version] of otherNodes) {
    console.log(`bench: ${file} again on Node ${version}`)
    // The child is bench/run.ts restricted to this one file: the same code path as a full run.
    const out = execFileSync(node, ['--import', 'tsx', join(here, 'run.ts'), file], {
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
  return { title: own.title, markdown: tables.join('\n\n') }
}
