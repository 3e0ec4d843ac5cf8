/**
 * One measurement of the extraction benchmark, run in a fresh Node process (bundled by
 * bench/sections/extract.ts, so no TypeScript loader is on the path). Prints one JSON line.
 *
 *   node child.mjs ours <corpus> <workers> [cacheDir]  cold run, then a warm run in the same process
 *   node child.mjs ours-disk <corpus> <workers> <cacheDir>   one run that can only hit the disk cache
 *   node child.mjs oxc-estree|oxc-json-untouched|oxc-lazy|babel <corpus>   raw parse of every file
 *
 * Raw parse figures read all files first and time the parse alone; extraction figures time the whole
 * call (glob, read, parse, merge, cache).
 */
import { readFileSync } from 'node:fs'
import { parse as babelParse } from '@babel/parser'
import * as oxc from 'oxc-parser'
import { globSync } from 'tinyglobby'
import { clearExtractionMemory, extractMessages } from '../src/core/extract/index'

const [mode, corpus, workersArg, cacheDir] = process.argv.slice(2) as [string, string, string?, string?]
const workers: number | 'auto' =
  workersArg === undefined || workersArg === 'auto' ? 'auto' : Number(workersArg)
const include = ['**/*.tsx']

async function ours(): Promise<Record<string, unknown>> {
  const options = { cwd: corpus, include, workers, ...(cacheDir ? { cacheDir } : {}) }
  let t0 = performance.now()
  const cold = await extractMessages(options)
  const coldMs = performance.now() - t0
  t0 = performance.now()
  const warm = await extractMessages(options)
  const warmMs = performance.now() - t0
  // Same process, in-process cache dropped: a dev server restart with the disk cache only.
  clearExtractionMemory()
  return {
    coldMs,
    warmMs,
    messages: cold.messages.length,
    locations: cold.messages.reduce((n, m) => n + m.locations.length, 0),
    diagnostics: cold.diagnostics.length,
    coldStats: cold.stats,
    warmStats: warm.stats,
  }
}

async function oursDisk(): Promise<Record<string, unknown>> {
  const t0 = performance.now()
  const r = await extractMessages({ cwd: corpus, include, workers, cacheDir })
  return { ms: performance.now() - t0, messages: r.messages.length, stats: r.stats }
}

function rawParse(): Record<string, unknown> {
  const files = globSync(include, { cwd: corpus, absolute: true, expandDirectories: false }).sort()
  const codes = files.map((f) => readFileSync(f, 'utf8'))
  let nodes = 0
  const t0 = performance.now()
  if (mode === 'babel') {
    for (const code of codes) {
      const ast = babelParse(code, { sourceType: 'module', plugins: ['typescript', 'jsx'] })
      nodes += ast.program.body.length
    }
  } else if (mode === 'oxc-estree' || mode === 'oxc-json-untouched') {
    for (let i = 0; i < files.length; i++) {
      const r = oxc.parseSync(files[i]!, codes[i]!, { astType: 'js' })
      if (mode === 'oxc-estree') nodes += r.program.body.length
      else nodes += r.errors.length
    }
  } else if (mode === 'oxc-lazy') {
    const lazy = oxc as unknown as {
      experimentalGetLazyVisitor(): new (v: Record<string, (n: { type: string }) => void>) => unknown
    }
    const Visitor = lazy.experimentalGetLazyVisitor()
    const countCall = (): void => {
      nodes++
    }
    const visitor = new Visitor({ ['CallExpression']: countCall })
    for (let i = 0; i < files.length; i++) {
      const r = oxc.parseSync(files[i]!, codes[i]!, {
        experimentalLazy: true,
      } as oxc.ParserOptions) as unknown as {
        visit(v: unknown): void
        dispose(): void
      }
      r.visit(visitor)
      r.dispose()
    }
  } else throw new Error(`unknown mode ${mode}`)
  return { ms: performance.now() - t0, files: files.length, nodes }
}

const result = mode === 'ours' ? await ours() : mode === 'ours-disk' ? await oursDisk() : rawParse()
process.stdout.write(`${JSON.stringify(result)}\n`)
process.exit(0)
