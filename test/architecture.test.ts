import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
/** Top folders of this repo: a code span starting with one of them is a path ARCHITECTURE.md names. */
const ROOTS = ['src', 'test', 'bench', 'docs', 'examples', 'scripts']
/**
 * A bare name is a file at the root: the Markdown pages (README.md) and the repo's own configuration.
 * Other bare names (`tms.config.ts`, `tms-report.json`) are files of the user's app.
 */
const ROOT_FILE = /^(?:[A-Z][\w-]*\.md|(?:package|tsconfig|tsdown|biome|vitest)[\w.-]*\.(?:json|ts))$/

/** Every repo path a Markdown text names in a code span or a link, and those of them that do not exist. */
function namedPaths(markdown: string): { named: string[]; missing: string[] } {
  const named = new Set<string>()
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g), ...markdown.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)]
  for (const [, token] of spans) {
    const path = token!.replace(/\/$/, '')
    if (!/^[\w./-]+$/.test(path)) continue
    const first = path.split('/')[0]!
    if (path.includes('/') ? ROOTS.includes(first) : ROOT_FILE.test(path)) named.add(token!)
  }
  const missing = [...named].filter((p) => !existsSync(join(root, p)))
  return { named: [...named], missing }
}

it('every file and folder ARCHITECTURE.md names exists, so the map cannot drift', () => {
  const { named, missing } = namedPaths(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'))
  expect(missing).toEqual([])
  // The map names the files of every step: fewer found means the path matching broke, not the map.
  expect(named.length).toBeGreaterThan(80)
  expect(named).toContain('src/core/sync.ts')
  expect(named).toContain('src/plugin/')
  expect(named).toContain('package.json')
})

it('a path that does not exist is reported', () => {
  const text =
    'See `src/core/sync.ts`, `src/core/nope.ts`, `test/gone/`, `NOPE.md` and [x](docs/none.md); not `unplugin-tms/client`.'
  expect(namedPaths(text).missing).toEqual(['src/core/nope.ts', 'test/gone/', 'NOPE.md', 'docs/none.md'])
})

/** Every `from '...'` and `import('...')` of the TypeScript files under a folder of src/, resolved. */
function importsUnder(folder: string): { file: string; target: string }[] {
  const out: { file: string; target: string }[] = []
  for (const entry of readdirSync(join(root, 'src', folder), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue
    const file = `src/${folder}/${entry.split(sep).join('/')}`
    const code = readFileSync(join(root, file), 'utf8')
    for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*'([^']+)'/g)) {
      const target = spec!.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), spec!)) : spec!
      out.push({ file, target: target.split(sep).join('/') })
    }
  }
  return out
}

it('the import rules of the map hold: no arrow from a layer into one it must not know', () => {
  const broken = (folder: string, forbidden: RegExp) =>
    importsUnder(folder)
      .filter((i) => forbidden.test(i.target))
      .map((i) => `${i.file} -> ${i.target}`)
  // The runtime: nothing outside src/runtime, no package, and node:* only in the server runtime.
  const runtime = importsUnder('runtime').filter((i) => !i.target.startsWith('src/runtime/'))
  expect(runtime.map((i) => `${i.file} -> ${i.target}`)).toEqual(['src/runtime/node.ts -> node:async_hooks'])
  expect(
    broken('core', /^src\/(?:plugin|emulator|cli)\/|^(?:vite|webpack|rollup|rolldown|esbuild|@rspack)/),
  ).toEqual([])
  expect(broken('plugin', /^src\/(?:client|emulator|cli)\//)).toEqual([])
  expect(broken('client', /^src\/(?:plugin|emulator|cli|runtime)\//)).toEqual([])
  expect(broken('emulator', /^src\/(?:plugin|client|cli|runtime)\//)).toEqual([])
  // The dev overlay's page code runs in the browser: it imports nothing outside itself.
  const overlay = importsUnder('overlay').filter((i) => !i.target.startsWith('src/overlay/'))
  expect(overlay.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
})
