import type { AstNode } from '../extract/nodes'
import type { FileState } from './file-state'
import { type Built, failed } from './message'
import { enclosingFunction, walk } from './walk'

/**
 * The hooks that hand a component its `t` (`useLingui`, `useTranslation`, `useIntl`). The hook goes,
 * replaced by our `useLocale()` (which keeps the component re-rendering on a switch), only when every
 * use of what it returned was converted: one use left means the hook stays, and so do the others,
 * so that nothing in the component calls the old `t` with a new text.
 */

export interface HookScope {
  /** The function (component, custom hook) the hook is called in. */
  fn: AstNode
  /** The statement `const { t } = useX()`, and its ancestors. */
  statement: AstNode
  ancestors: readonly AstNode[]
  /** The local names the hook's result is bound to (`t`, `intl`, `formatMessage`), with their role. */
  locals: Map<string, string>
  /** Why the hook itself cannot go, if it cannot (it also returns `i18n`). */
  problem?: string
  attempts: { node: AstNode; ancestors: readonly AstNode[]; result: Built<() => void>; construct: string }[]
  /** A Vue `<script setup>`'s top level: its template's expressions see the hook's names too. */
  markup: AstNode[]
}

/** Finds each `const <pattern> = hook(...)` whose callee `isHook` accepts; `bind` reads the pattern. */
export function findHookScopes(
  state: FileState,
  isHook: (callee: AstNode) => boolean,
  bind: (pattern: AstNode, call: AstNode) => Built<Map<string, string>>,
): HookScope[] {
  const scopes: HookScope[] = []
  for (const unit of state.units) {
    walk(unit.program, (node, ancestors) => {
      if (node.type !== 'VariableDeclaration') return
      for (const d of node.declarations) {
        const init = d.init
        if (init?.type !== 'CallExpression' || !isHook(init.callee)) continue
        const fn = enclosingFunction([...ancestors, node])
        const bound = bind(d.id, init)
        const markup =
          fn.type === 'Program' && state.framework === 'vue'
            ? state.units.filter((u) => u.kind === 'markup').map((u) => u.program)
            : []
        const scope: HookScope = {
          fn,
          statement: node,
          ancestors: [...ancestors],
          locals: new Map(),
          attempts: [],
          markup,
        }
        if (failed(bound)) scope.problem = bound.problem
        else scope.locals = bound
        if (node.declarations.length > 1)
          scope.problem = 'it declares other variables in the same statement; split it first'
        scopes.push(scope)
      }
    })
  }
  return scopes
}

/** The scope whose hook bound `name` around this node, if any (the innermost one). */
export function scopeOf(
  scopes: readonly HookScope[],
  name: string,
  ancestors: readonly AstNode[],
): HookScope | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const scope = scopes.find((s) => s.fn === ancestors[i] && s.locals.has(name))
    if (scope) return scope
  }
  return scopes.find((s) => s.markup.includes(ancestors[0]!) && s.locals.has(name))
}

/**
 * Applies a scope's conversions and replaces its hook with `useLocale()` (or, for a statement that is
 * no hook call, lets `remove` take it out), or leaves them all with reasons; true when converted.
 */
export function settleScope(
  state: FileState,
  scope: HookScope,
  hookName: string,
  remove?: (statement: AstNode) => void,
): boolean {
  const uses = localUses(scope)
  const total = [...uses.values()].reduce((a, b) => a + b, 0)
  if (!scope.problem && total > scope.attempts.length)
    scope.problem = `${[...scope.locals.keys()].join(' or ')} is used here in ${total - scope.attempts.length} way(s) other than a call this migration converts (passed on, read as a value); rewrite those by hand`
  const problems = scope.attempts.filter((a) => failed(a.result))
  if (scope.problem || problems.length > 0) {
    for (const a of problems) state.leave(a.node, a.ancestors, (a.result as { problem: string }).problem)
    const why =
      scope.problem ??
      `${problems.length} of its ${scope.attempts.length} uses could not be converted (TODOs below), so this component keeps ${hookName} and its other uses as they are`
    state.leave(scope.statement, scope.ancestors, `${hookName} stays: ${why}`)
    return false
  }
  for (const a of scope.attempts) {
    ;(a.result as () => void)()
    state.count(a.construct)
  }
  // The hook's names go with it: an import of the same name (Lingui's `t`) no longer sees these uses.
  for (const [name, n] of uses) for (let i = 0; i <= n; i++) state.replacedRef(name)
  if (remove) {
    remove(scope.statement)
    return true
  }
  state.replacedRef(scope.statement.declarations[0].init.callee.name)
  const text = state.code.slice(scope.statement.start, scope.statement.end)
  state.need('useLocale')
  state.replacedStatements.add(scope.statement)
  state.replace(
    scope.statement.start,
    scope.statement.end,
    (n) => `${n.useLocale}()${text.trimEnd().endsWith(';') ? ';' : ''}`,
  )
  state.count(hookName)
  return true
}

/** A `{ t }`-style pattern (shorthand or renamed properties) as local name -> the property it takes. */
export function patternNames(pattern: AstNode, allowed: readonly string[]): Built<Map<string, string>> {
  if (pattern.type === 'Identifier') return new Map([[pattern.name, '*']])
  if (pattern.type !== 'ObjectPattern') return { problem: 'its result is not destructured into plain names' }
  const out = new Map<string, string>()
  for (const p of pattern.properties) {
    if (p.type !== 'Property' || p.computed || p.key.type !== 'Identifier' || p.value.type !== 'Identifier')
      return { problem: 'its result is destructured in a way this migration does not follow' }
    if (!allowed.includes(p.key.name))
      return {
        problem: `it also gives ${p.key.name}, which has no counterpart in unplugin-tms; rewrite its uses by hand (docs/migrating.md)`,
      }
    out.set(p.value.name, p.key.name)
  }
  return out
}

/** References of the hook's locals in its function, outside the hook's own statement. */
function localUses(scope: HookScope): Map<string, number> {
  const seen = new Map<number, string>()
  for (const name of scope.locals.keys()) seen.set(-1 - seen.size, name)
  const count = (node: AstNode, ancestors: readonly AstNode[]): boolean | undefined => {
    if (node === scope.statement) return false
    if (node.type !== 'Identifier' && node.type !== 'JSXIdentifier') return
    if (!scope.locals.has(node.name)) return
    const parent = ancestors[ancestors.length - 1]
    if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed) return
    if (parent?.type === 'Property' && parent.key === node && !parent.shorthand && !parent.computed) return
    seen.set(node.start, node.name)
    return undefined
  }
  for (const root of [scope.fn, ...scope.markup]) walk(root, count)
  const counts = new Map<string, number>()
  for (const [at, name] of seen) counts.set(name, (counts.get(name) ?? 0) + (at < 0 ? 0 : 1))
  return counts
}
