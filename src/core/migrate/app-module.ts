import { parseSync } from 'oxc-parser'
import type { AstNode } from '../extract/nodes'
import { type ParseUnit, parseUnits } from '../extract/sources'
import { FileState, type Unit, type UnitKind } from './file-state'
import { importedName } from './imports'

/**
 * A module of the app that a migrated file imports a name from (`import formats from './formats'`):
 * whether a name is such an import (relative: the app's own, which the same run migrates, as an
 * imported `defineMessages` descriptor is), and, for what must be read rather than trusted (named
 * formats), the module read through the run's `readModule`, parsed, and the value it exports.
 */

/** One program of a file, parsed; a string is the parser's first error. */
export function parseUnit(unit: ParseUnit, kind: UnitKind): Unit | string {
  const result = parseSync(unit.parseName, unit.code, {
    lang: unit.lang,
    sourceType: unit.sourceType,
    astType: 'js',
  })
  const error = result.errors.find((e) => e.severity === 'Error')
  if (error) return error.message
  return { program: result.program as never, kind }
}

/** How a file imports a local name: the module specifier and the name imported (`default`, `*`). */
export interface ImportOf {
  source: string
  imported: string
}

/** The import declaration that binds `name` in the file, or undefined. */
export function importOf(state: FileState, name: string): ImportOf | undefined {
  for (const unit of state.units)
    for (const d of unit.program.body) {
      if (d.type !== 'ImportDeclaration') continue
      const s = d.specifiers.find((s: AstNode) => s.local.name === name)
      if (!s) continue
      return { source: d.source.value, imported: importedName(s) }
    }
  return undefined
}

/** Whether a specifier names a module of the app by its path (`./messages`, `../formats`). */
export const isRelative = (source: string): boolean => /^\.\.?\//.test(source)

/** A name imported from a module of the app (`./messages`), which the same run migrates. */
export function isRelativeImport(state: FileState, name: string): boolean {
  const found = importOf(state, name)
  return found !== undefined && isRelative(found.source)
}

/** The expression a module exports under `name` (`default` too), in the module's own state; or why not. */
export function exportedValue(
  state: FileState,
  imp: ImportOf,
): { module: FileState; node: AstNode } | { problem: string } {
  const from = `imported from ${imp.source}`
  if (!isRelative(imp.source))
    return { problem: `${from}, a package or an alias this migration does not resolve` }
  if (imp.imported === '*') return { problem: `${from} as a namespace: name the export imported` }
  const read = state.options.readModule?.(state.file, imp.source)
  if (!read) return { problem: `${from}, which is not a file of the app this migration found` }
  const module = new FileState(read.file, read.code, state.options, 'react')
  for (const unit of parseUnits(read.file, read.code)) {
    const parsed = parseUnit(unit, 'script')
    if (typeof parsed === 'string') return { problem: `${from}: ${read.file} does not parse (${parsed})` }
    module.units.push(parsed)
  }
  const node = exportOf(module, imp.imported)
  return node
    ? { module, node }
    : { problem: `${from}: ${read.file} has no export ${imp.imported} written here` }
}

/**
 * The node exported as `name`: `export default x`, `export const name = ...`, `export { x as name }`
 * (the local `x` then, which the reader follows); a re-export from another module is not followed.
 */
function exportOf(module: FileState, name: string): AstNode | undefined {
  for (const unit of module.units)
    for (const s of unit.program.body) {
      if (s.type === 'ExportDefaultDeclaration' && name === 'default') return s.declaration
      if (s.type !== 'ExportNamedDeclaration' || s.source) continue
      if (s.declaration?.type === 'VariableDeclaration' && s.declaration.kind === 'const') {
        const d = s.declaration.declarations.find(
          (d: AstNode) => d.id.type === 'Identifier' && d.id.name === name,
        )
        if (d?.init) return d.init
      }
      const spec = s.specifiers.find((sp: AstNode) => (sp.exported.name ?? sp.exported.value) === name)
      if (spec) return spec.local
    }
  return undefined
}
