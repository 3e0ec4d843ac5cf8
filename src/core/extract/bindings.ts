/**
 * Which names of one program are message functions: the keyword options, then the program's imports of
 * the runtime module. Every scanner starts from these bindings; the scope-aware walk (scan-estree.ts)
 * also removes the names a local declaration hides.
 */
import { type KeywordSpec, RUNTIME_MESSAGE_EXPORTS } from './keywords'
import { type AstNode, memberPath } from './nodes'
import type { ResolvedExtractOptions } from './options'
import { mayDeclare } from './precheck'

/** Which local names and member paths are message functions in one program. */
export interface Bindings {
  /** Local identifier -> spec: free keyword names and aliases of the runtime's `t`. */
  direct: Map<string, KeywordSpec>
  /** `i18n.t` -> spec, including `<namespace import of the runtime>.t`. */
  members: Map<string, KeywordSpec>
}

/** One import statement: its range, and what it binds when it imports the runtime module. */
export interface ImportRecord {
  start: number
  end: number
  /** The module imported; null when the statement's text does not name the runtime module. */
  source: string | null
  specifiers: {
    kind: 'name' | 'namespace' | 'default'
    imported: string | null
    local: string
    isType: boolean
  }[]
}

// biome-ignore lint/suspicious/noExplicitAny: two shapes of oxc's module record (see readImports).
type OxcStaticImport = any

const membersCache = new WeakMap<ResolvedExtractOptions, Map<string, KeywordSpec>>()

/** The bindings the options alone make, before any import; a new `direct` map per program. */
export function baseBindings(options: ResolvedExtractOptions): Bindings {
  let members = membersCache.get(options)
  if (members === undefined) {
    members = new Map()
    for (const k of options.keywords) if (k.path.length > 1) members.set(k.name, k)
    membersCache.set(options, members)
  }
  const direct = new Map<string, KeywordSpec>()
  for (const k of options.keywords) if (k.path.length === 1) direct.set(k.name, k)
  return { direct, members }
}

/** The import statements of oxc's module record, in either of its two shapes. */
// Import records come as plain objects from parseSync and as lazy wrappers from raw transfer, where a
// named import is a NameSpan, a namespace import the string 'namespaceObject' and a default one a Span.
// Only the runtime module's specifiers are read, and only a statement whose text names the runtime module
// has its source read: the others matter only as ranges the pre-check skips, and each lazy field read
// builds objects.
export function readImports(
  staticImports: Iterable<OxcStaticImport>,
  code: string,
  runtimeModule: string,
): ImportRecord[] {
  const records: ImportRecord[] = []
  // Where the text names the runtime module (usually once, or never).
  const mentions: number[] = []
  for (let at = code.indexOf(runtimeModule); at !== -1; at = code.indexOf(runtimeModule, at + 1)) {
    mentions.push(at)
  }
  for (const record of staticImports) {
    const start: number = record.start
    const end: number = record.end
    const source: string | null = mentions.some((at) => at >= start && at < end)
      ? record.moduleRequest.value
      : null
    const specifiers: ImportRecord['specifiers'] = []
    if (source === runtimeModule) {
      for (const entry of record.entries) {
        const importName = entry.importName
        let kind: 'name' | 'namespace' | 'default'
        let imported: string | null = null
        if (importName === 'namespaceObject' || importName?.kind === 'NamespaceObject') kind = 'namespace'
        else if (importName?.kind === 'Name') {
          kind = 'name'
          imported = importName.name
        } else if (importName?.kind === 'Default' || importName?.value === undefined) kind = 'default'
        else {
          kind = 'name'
          imported = importName.value
        }
        specifiers.push({ kind, imported, local: entry.localName.value, isType: entry.isType })
      }
    }
    records.push({ start, end, source, specifiers })
  }
  return records
}

/**
 * Imports of the runtime module make their local names message functions (`import { t as tr }`,
 * `import { msg }`, `import * as rt`); any other import from it (`setLocale as t`) hides a keyword of
 * that name.
 */
export function applyImports(bindings: Bindings, imports: ImportRecord[], runtimeModule: string): void {
  for (const record of imports) {
    if (record.source !== runtimeModule) continue
    for (const specifier of record.specifiers) {
      if (specifier.isType) continue
      const spec = specifier.kind === 'name' ? RUNTIME_MESSAGE_EXPORTS.get(specifier.imported!) : undefined
      if (spec) bindings.direct.set(specifier.local, spec)
      else if (specifier.kind === 'namespace') addNamespace(bindings, specifier.local)
      else bindings.direct.delete(specifier.local)
    }
  }
}

/**
 * `ns.t` and `ns.msg` for a namespace of the runtime module. The members map `baseBindings` hands out is
 * shared by every program of the options: a program that adds to it gets its own copy first.
 */
export function addNamespace(bindings: Bindings, local: string): void {
  bindings.members = new Map(bindings.members)
  for (const [name, spec] of RUNTIME_MESSAGE_EXPORTS) bindings.members.set(`${local}.${name}`, spec)
}

// The callee is taken as written: `(t as any)('x')` or `t!('x')` is not a keyword call, in every scanner.
/** The keyword a callee names, if any. */
export function specOf(callee: AstNode, bindings: Bindings): KeywordSpec | undefined {
  const c = callee
  if (c.type === 'Identifier' || c.type === 'IdentifierReference') return bindings.direct.get(c.name)
  if (bindings.members.size === 0) return undefined
  if (c.type !== 'StaticMemberExpression' && c.type !== 'MemberExpression') return undefined
  const path = memberPath(c)
  return path === null ? undefined : bindings.members.get(path.join('.'))
}

const REQUIRE = /\brequire\s*\(/

/**
 * Does this program need the scope-aware walk? Yes when it may declare a keyword's name locally, or
 * `require`s the runtime module (only the walk follows `const { t } = require(...)`).
 */
export function needsScopes(
  code: string,
  bindings: Bindings,
  imports: ImportRecord[],
  runtimeModule: string,
): boolean {
  return (
    (code.includes('require') && REQUIRE.test(code) && code.includes(runtimeModule)) ||
    mayDeclare(code, bindings.direct.keys(), imports)
  )
}
