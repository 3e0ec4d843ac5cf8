import type { AstNode } from '../extract/nodes'
import type { FileState } from './file-state'
import type { OldImport } from './imports'
import type { HookScope } from './scopes'
import { enclosingFunction, staticString, walk } from './walk'

/**
 * react-i18next's `withTranslation()(Component)` with the component in the same file reading `t`
 * from its props (`const { t } = this.props` in a class, `const { t } = props`): each such statement
 * is a scope of `t` like a hook's; when every `t` call in them converts, the statement loses its `t`
 * and the wrapper becomes a component that calls `useLocale()` and renders the same component, so it
 * still re-renders on a switch as the HOC did.
 */

export interface HocScope {
  /** `withTranslation(ns)(Component)`, the outer call. */
  call: AstNode
  ancestors: readonly AstNode[]
  hoc: string
  component: string
  namespace: string | undefined
  scopes: HookScope[]
  /** Why it cannot be converted, before looking at its `t` calls. */
  problem?: string
}

/** The declaration of `name` at the top level of the file (class, function, or const). */
function declarationOf(program: AstNode, name: string): AstNode | undefined {
  for (const statement of program.body) {
    const node = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement
    if ((node?.type === 'ClassDeclaration' || node?.type === 'FunctionDeclaration') && node.id?.name === name)
      return node
    if (node?.type === 'VariableDeclaration')
      for (const d of node.declarations) if (d.id.type === 'Identifier' && d.id.name === name) return d
  }
  return undefined
}

/** `const { t } = this.props` or `= props`: the statements of `declaration` that take `t` from props. */
function propsStatements(declaration: AstNode): { statement: AstNode; ancestors: AstNode[] }[] {
  const out: { statement: AstNode; ancestors: AstNode[] }[] = []
  walk(declaration, (node, ancestors) => {
    if (node.type !== 'VariableDeclaration' || node.declarations.length !== 1) return
    const { id, init } = node.declarations[0]
    const fromProps =
      (init?.type === 'MemberExpression' &&
        init.object.type === 'ThisExpression' &&
        init.property.name === 'props') ||
      (init?.type === 'Identifier' && init.name === 'props')
    if (!fromProps || id.type !== 'ObjectPattern') return
    if (id.properties.some((p: AstNode) => p.type === 'Property' && p.key.name === 't'))
      out.push({ statement: node, ancestors: [...ancestors] })
  })
  return out
}

/** Finds each `withTranslation(ns)(Component)` and the scopes of `t` in its component. */
export function findHocScopes(state: FileState, imports: readonly OldImport[]): HocScope[] {
  const hocs = new Set(imports.filter((i) => i.imported === 'withTranslation').map((i) => i.local))
  const out: HocScope[] = []
  if (hocs.size === 0) return out
  for (const unit of state.units) {
    walk(unit.program, (node, ancestors) => {
      const inner = node.type === 'CallExpression' ? node.callee : undefined
      if (
        inner?.type !== 'CallExpression' ||
        inner.callee.type !== 'Identifier' ||
        !hocs.has(inner.callee.name)
      )
        return
      const [arg] = node.arguments
      const ns = inner.arguments[0]
      const found: HocScope = {
        call: node,
        ancestors: [...ancestors],
        hoc: inner.callee.name,
        component: arg?.type === 'Identifier' ? arg.name : '',
        namespace: ns ? (staticString(ns) ?? undefined) : undefined,
        scopes: [],
      }
      out.push(found)
      if (ns && staticString(ns) === null) found.problem = 'its namespace is not a literal'
      else if (inner.arguments.length > 1) found.problem = 'its options are not converted'
      const declaration = found.component ? declarationOf(unit.program, found.component) : undefined
      if (!declaration) {
        found.problem ??=
          'withTranslation wraps a component this file does not declare, so where it reads t is not followed; call t from unplugin-tms/runtime in the component'
        return false
      }
      for (const { statement, ancestors: above } of propsStatements(declaration))
        found.scopes.push({
          fn: enclosingFunction([...above, statement]),
          statement,
          ancestors: above,
          locals: new Map([['t', 't']]),
          attempts: [],
          markup: [],
        })
      if (found.scopes.length === 0)
        found.problem ??=
          'its component reads t in a way this migration does not follow (it follows const { t } = this.props and const { t } = props); call t from unplugin-tms/runtime in the component'
      return false
    })
  }
  return out
}

/** Removes `t` from the statement that took it from props (the whole statement when it took only `t`). */
export function dropPropsT(state: FileState, statement: AstNode): void {
  const properties = statement.declarations[0].id.properties as AstNode[]
  const i = properties.findIndex((p) => p.type === 'Property' && p.key.name === 't')
  if (properties.length === 1) {
    // The whole line goes when the statement is alone on it.
    const code = state.code
    const lineStart = code.lastIndexOf('\n', statement.start - 1) + 1
    const newline = code.indexOf('\n', statement.end)
    const alone =
      /^[ \t]*$/.test(code.slice(lineStart, statement.start)) &&
      newline >= 0 &&
      /^[ \t;]*$/.test(code.slice(statement.end, newline))
    state.replacedStatements.add(statement)
    state.replace(alone ? lineStart : statement.start, alone ? newline + 1 : statement.end, () => '')
    return
  }
  const p = properties[i]!
  if (i < properties.length - 1) state.replace(p.start, properties[i + 1]!.start, () => '')
  else state.replace(properties[i - 1]!.end, p.end, () => '')
}

/** `withTranslation()(Welcome)` as a component that re-renders on a switch and renders `Welcome`. */
export function replaceHoc(state: FileState, hoc: HocScope): void {
  state.need('useLocale')
  state.replace(
    hoc.call.start,
    hoc.call.end,
    (n) =>
      `function ${hoc.component}WithLocale(props) {\n  ${n.useLocale}()\n  return <${hoc.component} {...props} />\n}`,
  )
  state.replacedRef(hoc.hoc)
  state.count('withTranslation')
}
