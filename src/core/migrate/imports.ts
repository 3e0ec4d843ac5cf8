import type { AstNode } from '../extract/nodes'
import type { FileState, Names, OurName } from './file-state'
import { walk } from './walk'

/**
 * The old library's imports and ours. An old import goes only when every reference to it was
 * converted (one left with a TODO keeps it); our names come in under their own names, or under an
 * alias where the file still binds that name (a kept Lingui `t`).
 */

export interface OldImport {
  decl: AstNode
  specifier: AstNode
  local: string
  /** The imported name (`default`, `*` for a namespace). */
  imported: string
  source: string
}

const MODULE_OF: Record<'react' | 'vue' | 'svelte', Record<OurName, string>> = {
  react: {
    t: 'unplugin-tms/runtime',
    msg: 'unplugin-tms/runtime',
    T: 'unplugin-tms/react',
    useLocale: 'unplugin-tms/react',
    setLocale: 'unplugin-tms/runtime',
    getLocale: 'unplugin-tms/runtime',
  },
  vue: {
    t: 'unplugin-tms/vue',
    msg: 'unplugin-tms/runtime',
    T: 'unplugin-tms/vue',
    useLocale: 'unplugin-tms/vue',
    setLocale: 'unplugin-tms/runtime',
    getLocale: 'unplugin-tms/runtime',
  },
  svelte: {
    t: 'unplugin-tms/svelte',
    msg: 'unplugin-tms/runtime',
    T: 'unplugin-tms/svelte',
    useLocale: 'unplugin-tms/svelte',
    setLocale: 'unplugin-tms/runtime',
    getLocale: 'unplugin-tms/runtime',
  },
}

const ALIAS: Record<OurName, string> = {
  t: 'tmsT',
  msg: 'tmsMsg',
  T: 'TmsT',
  useLocale: 'useTmsLocale',
  setLocale: 'tmsSetLocale',
  getLocale: 'tmsGetLocale',
}
const ORDER: OurName[] = ['T', 'getLocale', 'msg', 'setLocale', 't', 'useLocale']

/** The import declarations of the file's script units whose source `isOld` accepts. */
/** What an import specifier takes from its module: `default`, `*` (the namespace) or the export's name. */
export function importedName(specifier: AstNode): string {
  if (specifier.type === 'ImportDefaultSpecifier') return 'default'
  if (specifier.type === 'ImportNamespaceSpecifier') return '*'
  return specifier.imported.name ?? specifier.imported.value
}

export function oldImports(state: FileState, isOld: (source: string) => boolean): OldImport[] {
  const out: OldImport[] = []
  for (const unit of state.units) {
    if (unit.kind !== 'script') continue
    for (const decl of unit.program.body) {
      if (decl.type !== 'ImportDeclaration' || !isOld(decl.source.value)) continue
      for (const specifier of decl.specifiers) {
        const imported = importedName(specifier)
        out.push({ decl, specifier, local: specifier.local.name, imported, source: decl.source.value })
      }
    }
  }
  return out
}

/** How often each name is referenced in the file's code (outside import declarations). */
export function referenceCounts(state: FileState, names: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>()
  const seen = new Set<number>()
  for (const unit of state.units) {
    walk(unit.program, (node, ancestors) => {
      if (node.type === 'ImportDeclaration') return false
      if ((node.type !== 'Identifier' && node.type !== 'JSXIdentifier') || !names.has(node.name)) return
      const parent = ancestors[ancestors.length - 1]
      if (parent) {
        if (
          (parent.type === 'MemberExpression' || parent.type === 'JSXMemberExpression') &&
          parent.property === node &&
          !parent.computed
        )
          return
        if (parent.type === 'Property' && parent.key === node && !parent.shorthand && !parent.computed) return
        if (parent.type === 'JSXAttribute' && parent.name === node) return
      }
      if (seen.has(node.start)) return
      seen.add(node.start)
      counts.set(node.name, (counts.get(node.name) ?? 0) + 1)
    })
  }
  return counts
}

/** Names declared at the top of the file's scripts (imports kept, functions, variables, classes). */
function topLevelNames(state: FileState, removed: ReadonlySet<AstNode>): Set<string> {
  const names = new Set<string>()
  const add = (pattern: AstNode | null | undefined): void => {
    if (!pattern) return
    if (pattern.type === 'Identifier') names.add(pattern.name)
    else if (pattern.type === 'ObjectPattern')
      for (const p of pattern.properties) add(p.type === 'RestElement' ? p.argument : p.value)
    else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements) add(e)
    else if (pattern.type === 'AssignmentPattern') add(pattern.left)
    else if (pattern.type === 'RestElement') add(pattern.argument)
  }
  for (const unit of state.units) {
    if (unit.kind !== 'script') continue
    for (const stmt of unit.program.body) {
      const decl = stmt.type === 'ExportNamedDeclaration' && stmt.declaration ? stmt.declaration : stmt
      if (decl.type === 'ImportDeclaration') {
        for (const s of decl.specifiers) if (!removed.has(s)) names.add(s.local.name)
      } else if (decl.type === 'VariableDeclaration' && !state.replacedStatements.has(decl))
        for (const d of decl.declarations) add(d.id)
      else if ((decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') && decl.id)
        names.add(decl.id.name)
    }
  }
  return names
}

/**
 * The import edits of a file: old specifiers whose every reference was converted removed (a
 * declaration left empty goes whole), ours added, and the names ours took.
 */
export interface ImportResult {
  names: Names
  edits: { start: number; end: number; text: string }[]
}

export function importEdits(
  state: FileState,
  old: readonly OldImport[],
  removable: (imp: OldImport) => boolean,
): ImportResult {
  const counts = referenceCounts(state, new Set(old.map((o) => o.local)))
  const removed = new Set<AstNode>()
  for (const imp of old) {
    const refs = counts.get(imp.local) ?? 0
    if (removable(imp) && (state.replacedRefs.get(imp.local) ?? 0) >= refs) removed.add(imp.specifier)
  }
  const taken = topLevelNames(state, removed)
  const names = {} as Record<OurName, string>
  for (const n of ORDER)
    names[n] = state.needed.has(n) && taken.has(n) && !importsOurs(state, n) ? ALIAS[n] : n
  const edits: { start: number; end: number; text: string }[] = []
  const decls = [...new Set(old.map((o) => o.decl))]
  for (const decl of decls) {
    const kept = decl.specifiers.filter((s: AstNode) => !removed.has(s))
    if (kept.length === decl.specifiers.length) continue
    if (kept.length === 0) {
      const end = state.code[decl.end] === '\n' ? decl.end + 1 : decl.end
      const lineStart = state.code.lastIndexOf('\n', decl.start - 1) + 1
      const alone = state.code.slice(lineStart, decl.start).trim() === '' && end > decl.end
      edits.push({ start: alone ? lineStart : decl.start, end, text: '' })
    } else edits.push({ start: decl.start, end: decl.end, text: importText(state, decl, kept) })
  }
  const wanted = ORDER.filter((n) => state.needed.has(n) && !importsOurs(state, n))
  if (wanted.length > 0) edits.push(...addOurs(state, wanted, names, decls[0]))
  return { names, edits }
}

/** True when a script already imports our `name` from the module it comes from, under that name. */
function importsOurs(state: FileState, name: OurName): boolean {
  const from = MODULE_OF[state.framework][name]
  for (const unit of state.units) {
    if (unit.kind !== 'script') continue
    for (const d of unit.program.body) {
      if (d.type !== 'ImportDeclaration' || d.source.value !== from) continue
      if (d.specifiers.some((s: AstNode) => s.type === 'ImportSpecifier' && s.local.name === name))
        return true
    }
  }
  return false
}

function importText(state: FileState, decl: AstNode, kept: AstNode[]): string {
  const quote = state.code[decl.source.start]
  const def = kept.find((s) => s.type === 'ImportDefaultSpecifier')
  const ns = kept.find((s) => s.type === 'ImportNamespaceSpecifier')
  const named = kept.filter((s) => s.type === 'ImportSpecifier').map((s) => state.code.slice(s.start, s.end))
  const parts = [
    def?.local.name,
    ns && `* as ${ns.local.name}`,
    named.length > 0 && `{ ${named.join(', ')} }`,
  ]
  const semi = state.code.slice(decl.start, decl.end).trimEnd().endsWith(';') ? ';' : ''
  return `import ${parts.filter(Boolean).join(', ')} from ${quote}${decl.source.value}${quote}${semi}`
}

/** Our import lines, where the old library's first import was, else at the top of the first script. */
function addOurs(
  state: FileState,
  wanted: OurName[],
  names: Names,
  firstOld: AstNode | undefined,
): { start: number; end: number; text: string }[] {
  const byModule = new Map<string, string[]>()
  for (const n of wanted) {
    const from = MODULE_OF[state.framework][n]
    const list = byModule.get(from) ?? []
    list.push(names[n] === n ? n : `${n} as ${names[n]}`)
    byModule.set(from, list)
  }
  const script = state.units.find((u) => u.kind === 'script')
  const at = firstOld?.start ?? script?.program.body[0]?.start
  const lines = [...byModule]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([from, list]) => `import { ${list.sort().join(', ')} } from '${from}'`)
  if (at === undefined) {
    if (state.framework === 'svelte')
      return [{ start: 0, end: 0, text: `<script>\n  ${lines.join('\n  ')}\n</script>\n\n` }]
    return [
      {
        start: script ? script.program.end : 0,
        end: script ? script.program.end : 0,
        text: `${lines.join('\n')}\n`,
      },
    ]
  }
  const lineStart = state.code.lastIndexOf('\n', at - 1) + 1
  const indent = /^[ \t]*/.exec(state.code.slice(lineStart))![0]
  if (state.code.slice(lineStart, at).trim() !== '')
    return [{ start: at, end: at, text: lines.map((l) => `${l}\n${indent}`).join('') }]
  return [{ start: lineStart, end: lineStart, text: lines.map((l) => `${indent}${l}\n`).join('') }]
}
