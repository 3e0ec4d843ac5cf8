import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
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
