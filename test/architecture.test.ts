import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'oxc-parser'
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
  expect(named.length).toBeGreaterThan(60)
  expect(named).toContain('src/core/sync/index.ts')
  expect(named).toContain('src/plugin/')
  expect(named).toContain('docs/emulator.md')
})

it('a path that does not exist is reported', () => {
  const text =
    'See `src/core/sync/index.ts`, `src/core/nope.ts`, `test/gone/`, `NOPE.md` and [x](docs/none.md); not `unplugin-tms/client`.'
  expect(namedPaths(text).missing).toEqual(['src/core/nope.ts', 'test/gone/', 'NOPE.md', 'docs/none.md'])
})

/** The longest ARCHITECTURE.md may be: a map read in one sitting, the detail in each folder's opening comment. */
const MAX_MAP_LINES = 160

/**
 * The rows of ARCHITECTURE.md's "Where a README behaviour lives" table, each with what is wrong with it.
 * A row names each file with, in brackets, a name or text that file must hold (`src/x.ts` (`name`)), so
 * a row pointing at a file where the behaviour does not live, or at none, fails.
 */
function behaviourRows(markdown: string): { row: string; problems: string[] }[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Where a README behaviour lives'))
  if (!section) return []
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| (?:behaviour|---) /.test(line))
  return rows.map((row) => {
    const where = row.split(' | ')[1] ?? ''
    const problems: string[] = []
    const files = [...where.matchAll(/`(src\/[^`]+)`( \(([^)]*)\))?/g)]
    if (files.length === 0) problems.push('names no file')
    for (const [, file, , inBrackets] of files) {
      const markers = [...(inBrackets ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
      if (markers.length === 0) problems.push(`${file} has no name or text in brackets to find in it`)
      if (!existsSync(join(root, file!))) {
        problems.push(`${file} does not exist`)
        continue
      }
      const code = readFileSync(join(root, file!), 'utf8')
      for (const marker of markers) {
        const found = /^[\w$]+$/.test(marker)
          ? new RegExp(`(?<![\\w$])${marker.replace(/\$/g, '\\$')}(?![\\w$])`).test(code)
          : code.includes(marker)
        if (!found) problems.push(`${file} holds no ${marker}`)
      }
    }
    return { row: row.split(' | ')[0]!.slice(2), problems }
  })
}

it(`ARCHITECTURE.md is a map of at most ${MAX_MAP_LINES} lines, each README behaviour one hop from its file`, () => {
  const map = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8')
  expect(map.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_MAP_LINES)
  const rows = behaviourRows(map)
  // The README's behaviours, from its start to its Astro paragraph: fewer rows means the table was lost.
  expect(rows.length).toBeGreaterThanOrEqual(30)
  expect(rows.filter((r) => r.problems.length > 0)).toEqual([])
  expect(rows.map((r) => r.row).join('\n')).toMatch(/Astro/)
  expect(rows.map((r) => r.row).join('\n')).toMatch(/matches no file/)
})

it('a behaviour row that points at a file where its name is not, or at no name, is reported', () => {
  const table = [
    '## Where a README behaviour lives',
    '| behaviour | file |',
    '| --- | --- |',
    '| an `include` that matches no file fails | `src/core/cache/index.ts` (`include matched no file`) |',
    '| shared cache | `src/core/cache/index.ts` (`withLock`), `src/core/pipeline.ts` (`DiskCache`) |',
    '| cache modes | `src/core/model/options.ts` |',
    '| a gone file | `src/core/cache.ts` (`DiskCache`) |',
    '| words only | the cache |',
    '| a name inside another | `src/core/model/options.ts` (`mayUse`) |',
  ].join('\n')
  expect(behaviourRows(table)).toEqual([
    {
      row: 'an `include` that matches no file fails',
      problems: ['src/core/cache/index.ts holds no include matched no file'],
    },
    { row: 'shared cache', problems: ['src/core/pipeline.ts holds no DiskCache'] },
    {
      row: 'cache modes',
      problems: ['src/core/model/options.ts has no name or text in brackets to find in it'],
    },
    { row: 'a gone file', problems: ['src/core/cache.ts does not exist'] },
    { row: 'words only', problems: ['names no file'] },
    { row: 'a name inside another', problems: ['src/core/model/options.ts holds no mayUse'] },
  ])
})

it('"may this run use the network" is asked in one place: mayUseNetwork', () => {
  const spelled: string[] = []
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry === join('core', 'model', 'options.ts')) continue
    const code = readFileSync(join(root, 'src', entry), 'utf8')
    if (/\bcache\s*!==\s*'offline'|'offline'\s*&&[^\n]*'frozen'/.test(code)) spelled.push(entry)
  }
  expect(spelled).toEqual([])
})

/** Every `from '...'` and `import('...')` of a TypeScript file of src/, or of the files under a folder of it, resolved. */
function importsUnder(path: string): { file: string; target: string }[] {
  const out: { file: string; target: string }[] = []
  const files = path.endsWith('.ts')
    ? [`src/${path}`]
    : readdirSync(join(root, 'src', path), { recursive: true, encoding: 'utf8' })
        .filter((entry) => entry.endsWith('.ts'))
        .map((entry) => `src/${path}/${entry.split(sep).join('/')}`)
  for (const file of files) {
    const code = readFileSync(join(root, file), 'utf8')
    for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*'([^']+)'/g)) {
      const target = spec!.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), spec!)) : spec!
      out.push({ file, target: target.split(sep).join('/') })
    }
  }
  return out
}

const broken = (path: string, forbidden: RegExp) =>
  importsUnder(path)
    .filter((i) => forbidden.test(i.target))
    .map((i) => `${i.file} -> ${i.target}`)

/** What core shares with the client and the emulator: the message model, below all three. */
const KERNEL = /^src\/core\/model\//
/** The layers above core: the options layer, the wiring to the service, the front ends. */
const ABOVE_CORE = /^src\/(?:plugin|emulator|cli|client)\/|^src\/(?:options|config|service|index)$/

it('the import rules of the map hold: no arrow from a layer into one it must not know', () => {
  // The runtime: nothing outside src/runtime, no package, and node:* only in the server runtime.
  const runtime = importsUnder('runtime').filter((i) => !i.target.startsWith('src/runtime/'))
  expect(runtime.map((i) => `${i.file} -> ${i.target}`)).toEqual(['src/runtime/node.ts -> node:async_hooks'])
  expect(broken('core', ABOVE_CORE)).toEqual([])
  expect(broken('core', /^(?:vite|webpack|rollup|rolldown|esbuild|@rspack)/)).toEqual([])
  expect(broken('plugin', /^src\/(?:client|emulator|cli)\//)).toEqual([])
  expect(
    broken('client', /^src\/(?:plugin|emulator|cli|runtime)\/|^src\/(?:options|config|service)$/),
  ).toEqual([])
  expect(
    broken('emulator', /^src\/(?:plugin|client|cli|runtime)\/|^src\/(?:options|config|service)$/),
  ).toEqual([])
  // The dev overlay's page code runs in the browser: it imports nothing outside itself.
  const overlay = importsUnder('overlay').filter((i) => !i.target.startsWith('src/overlay/'))
  expect(overlay.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  // The Vue binding: its framework and the runtime's public API, as an installed app imports them.
  const vue = importsUnder('vue').filter((i) => i.target !== 'vue' && i.target !== 'unplugin-tms/runtime')
  expect(vue.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  // The options layer sits on core and knows no front end.
  for (const file of ['options.ts', 'config.ts']) {
    expect(broken(file, /^src\/(?:plugin|emulator|cli|client)\//)).toEqual([])
  }
})

it('core takes only types from the runtime: a shared module would become a chunk the embedded runtime text imports', () => {
  const valueImports: string[] = []
  for (const entry of readdirSync(join(root, 'src/core'), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue
    const code = readFileSync(join(root, 'src/core', entry), 'utf8')
    for (const [statement] of code.matchAll(/^(?:import|export)\b[^;]*?from '(?:\.\.\/)+runtime\/[^']+'/gm)) {
      if (!/^(?:import|export) type\b/.test(statement)) valueImports.push(`src/core/${entry}: ${statement}`)
    }
  }
  expect(valueImports).toEqual([])
})

it('the React binding imports only React, the runtime (by the specifier the plugin resolves to one runtime) and its own files', () => {
  const targets = importsUnder('react').map((i) => i.target)
  expect(
    targets.filter((t) => t !== 'react' && t !== 'unplugin-tms/runtime' && !t.startsWith('src/react/')),
  ).toEqual([])
  expect(targets).toContain('unplugin-tms/runtime')
})

it('the Svelte binding imports only Svelte and the runtime by its public name', () => {
  const outside = importsUnder('svelte').filter(
    (i) => !/^(?:svelte(?:\/[\w-]+)?|unplugin-tms\/runtime|src\/svelte\/.*)$/.test(i.target),
  )
  expect(outside.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  expect(importsUnder('svelte').map((i) => i.target)).toContain('unplugin-tms/runtime')
})

it('the client and the emulator reach into core only for the message model, and the model only into itself', () => {
  const outsideKernel = (path: string) =>
    importsUnder(path)
      .filter((i) => i.target.startsWith('src/core/') && !KERNEL.test(i.target))
      .map((i) => `${i.file} -> ${i.target}`)
  expect(outsideKernel('client')).toEqual([])
  expect(outsideKernel('emulator')).toEqual([])
  expect(outsideKernel('core/model')).toEqual([])
  expect(broken('core/model', /^(?!src\/core\/|node:)/)).toEqual([])
})

it('inline mode is one folder the rest of the plugin reaches through its entry', () => {
  const outside = importsUnder('plugin').filter((i) => !i.file.startsWith('src/plugin/inline/'))
  const deep = outside.filter(
    (i) => i.target.startsWith('src/plugin/inline/') && i.target !== 'src/plugin/inline/index',
  )
  expect(deep.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  expect(outside.some((i) => i.target === 'src/plugin/inline/index')).toBe(true)
})

it("the emulator's store knows no HTTP: it throws its own errors, which the HTTP layer maps", () => {
  expect(broken('emulator/store', /^src\/emulator\/(?:http|routes)\/|^fastify/)).toEqual([])
})

it('the spec wire types are written once: the client and the emulator import them from the model', () => {
  const declared = (path: string) => {
    const names: string[] = []
    for (const entry of readdirSync(join(root, 'src', path), { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.ts')) continue
      const code = readFileSync(join(root, 'src', path, entry), 'utf8')
      for (const [, name] of code.matchAll(/^export (?:interface|type) (\w+)\b(?! = Wire)/gm))
        names.push(name!)
    }
    return names
  }
  const wire = [
    ...readFileSync(join(root, 'src/core/model/wire.ts'), 'utf8').matchAll(
      /^export (?:interface|type) (\w+)/gm,
    ),
  ].map((m) => m[1]!)
  expect(wire.length).toBeGreaterThan(5)
  expect(declared('client').filter((n) => wire.includes(n))).toEqual([])
  expect(declared('emulator').filter((n) => wire.includes(n))).toEqual([])
})

/**
 * The import graph of src/: each TypeScript file -> the src files it imports, exports from or loads
 * with `import('...')`, read from the parser's module record (so a `from '...'` in a string or a
 * comment is no edge). Type-only imports count: two files that need each other's types cannot be read,
 * moved or split apart either, and a shared types module below both is always possible.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.ts'))
    .map((entry) => `src/${entry.split(sep).join('/')}`)
  const fileOf = (from: string, spec: string): string | undefined => {
    if (!spec.startsWith('.')) return undefined
    const base = relative(root, resolve(dirname(join(root, from)), spec))
      .split(sep)
      .join('/')
    return [base, `${base}.ts`, `${base}/index.ts`].find(
      (p) => p.endsWith('.ts') && existsSync(join(root, p)),
    )
  }
  for (const file of files) {
    const code = readFileSync(join(root, file), 'utf8')
    const { module } = parseSync(file, code)
    const specs = [
      ...module.staticImports.map((i) => i.moduleRequest.value),
      ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value ?? '')),
      ...module.dynamicImports
        .map((d) => code.slice(d.moduleRequest.start, d.moduleRequest.end))
        .filter((text) => /^'[^']*'$/.test(text))
        .map((text) => text.slice(1, -1)),
    ]
    const targets = specs.map((spec) => fileOf(file, spec)).filter((t): t is string => t !== undefined)
    graph.set(file, [...new Set(targets)].sort())
  }
  return graph
}

/**
 * The import cycles of a graph: each set of files that reach one another (Tarjan's strongly connected
 * components), written as its files with the imports that keep it closed, e.g. `a -> b`.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  // Recursive: the graph of src/ is a few hundred files deep at most.
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const members: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      members.push(w)
    } while (w !== v)
    if (members.length > 1 || graph.get(v)?.includes(v)) {
      const inside = new Set(members)
      cycles.push(
        members
          .sort()
          .flatMap((m) => (graph.get(m) ?? []).filter((t) => inside.has(t)).map((t) => `${m} -> ${t}`)),
      )
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return cycles
}

it('no import cycle among the files of src/: each file can be read knowing only what it imports', () => {
  const graph = importGraph()
  // The graph is read right: the plugin's session imports the build, the extractor its types.
  expect(graph.get('src/plugin/session.ts')).toContain('src/plugin/build.ts')
  expect(graph.get('src/core/extract/cache.ts')).toContain('src/core/extract/types.ts')
  expect(graph.get('src/runtime/index.ts')).toContain('src/runtime/negotiate.ts')
  expect(importCycles(graph)).toEqual([])
})

it('an import cycle is reported with the imports that close it, type-only ones and self-imports too', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c', 'd']],
    ['c', ['a']],
    ['d', []],
    ['e', ['e']],
    ['f', ['a']],
  ])
  expect(importCycles(graph)).toEqual([['a -> b', 'b -> c', 'c -> a'], ['e -> e']])
})

/** Longest a source file may be, and a function without a sentence at its top saying why it is long. */
const MAX_FILE_LINES = 500
const MAX_FUNCTION_LINES = 150
/** The sentence a long function's leading comment holds. */
const LONG_BECAUSE = /\bLong because\b/

/**
 * Files over the limit today, each waiting for its split (issue 20). The list only shrinks: a file
 * that comes under the limit must leave it, and no other file may join it.
 */
const FILES_TO_SPLIT = new Set<string>([])

/** Functions over the limit with no reason given yet, waiting for their split like the files above. */
const FUNCTIONS_TO_SPLIT = new Set<string>([])

/** The files over {@link MAX_FILE_LINES} and the long functions with no reason given, under `src/`. */
function oversized(): { files: string[]; functions: string[] } {
  const files: string[] = []
  const functions: string[] = []
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.d.ts')) continue
    const file = `src/${entry.split(sep).join('/')}`
    const code = readFileSync(join(root, file), 'utf8')
    const starts = [0]
    for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) starts.push(i + 1)
    const lineOf = (offset: number): number => {
      let lo = 0
      let hi = starts.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (starts[mid]! <= offset) lo = mid
        else hi = mid - 1
      }
      return lo + 1
    }
    if (starts.length > MAX_FILE_LINES) files.push(`${file} (${starts.length} lines)`)
    const { program, comments } = parseSync(file, code)
    const walk = (node: unknown, name: string): void => {
      if (!node || typeof node !== 'object') return
      if (Array.isArray(node)) {
        for (const child of node) walk(child, name)
        return
      }
      const n = node as {
        type?: string
        start?: number
        end?: number
        id?: { name?: string }
        key?: { name?: string }
      }
      const named = n.id?.name ?? n.key?.name ?? name
      if (n.type?.includes('Function') && n.start !== undefined && n.end !== undefined) {
        const first = lineOf(n.start)
        const lines = lineOf(n.end) - first + 1
        // The comments that end on the lines just above the function (or its declaration) or open its body.
        const why = comments.some(
          (c) => lineOf(c.end) >= first - 12 && lineOf(c.start) <= first + 1 && LONG_BECAUSE.test(c.value),
        )
        if (lines > MAX_FUNCTION_LINES && !why) functions.push(`${file}:${first} ${named} (${lines} lines)`)
      }
      for (const [key, child] of Object.entries(node)) if (key !== 'parent') walk(child, named)
    }
    walk(program, '(anonymous)')
  }
  return { files, functions }
}

it(`no source file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES} without a sentence saying why`, () => {
  const { files, functions } = oversized()
  const long = functions.map((f) => f.replace(/:\d+ (\S+) .*/, ' $1'))
  expect(functions.filter((_, i) => !FUNCTIONS_TO_SPLIT.has(long[i]!))).toEqual([])
  expect([...FUNCTIONS_TO_SPLIT].filter((f) => !long.includes(f))).toEqual([])
  const over = files.map((f) => f.split(' ')[0]!)
  expect(over.filter((f) => !FILES_TO_SPLIT.has(f))).toEqual([])
  // A file that came under the limit leaves the list.
  expect([...FILES_TO_SPLIT].filter((f) => !over.includes(f))).toEqual([])
})

/**
 * The members of class `name` in `code` that only hand a call or a read to the Build of the same name
 * (`catalogFor(l) { return this.build.catalogFor(l) }`): a caller then should reach the Build itself.
 */
function passThroughs(code: string, name: string): string[] {
  const { program } = parseSync('session.ts', code)
  const found: string[] = []
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement
    if (declaration?.type !== 'ClassDeclaration' || declaration.id?.name !== name) continue
    for (const member of declaration.body.body) {
      if (member.type !== 'MethodDefinition' || member.key.type !== 'Identifier') continue
      const only = member.value.body?.body
      const first = only?.length === 1 ? only[0] : undefined
      if (first?.type !== 'ReturnStatement' || !first.argument) continue
      const returned = code.slice(first.argument.start, first.argument.end)
      const same = new RegExp(`^this\\.(?:build|current)\\??\\.${member.key.name}(?![\\w$])`)
      if (same.test(returned)) found.push(member.key.name)
    }
  }
  return found
}

it('TmsSession passes nothing straight through to Build: hooks reach the Build itself', () => {
  const code = readFileSync(join(root, 'src/plugin/session.ts'), 'utf8')
  expect(passThroughs(code, 'TmsSession')).toEqual([])
})

it('a member that only hands a call or a read to the Build is reported', () => {
  const code = `export class TmsSession {
    get build() { if (!this.current) throw new Error('none'); return this.current }
    get locales() { return this.build.locales }
    staleFullCatalogs() { return this.current?.staleFullCatalogs() ?? [] }
    catalogFor(locale, files) { return this.build.catalogFor(locale, files) }
    catalogModule(locale) { return literal(this.build.catalogFor(locale)) }
    get localeCount() { return this.build.locales.length }
  }`
  expect(passThroughs(code, 'TmsSession')).toEqual(['locales', 'staleFullCatalogs', 'catalogFor'])
})
