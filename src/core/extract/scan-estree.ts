/**
 * The scope-aware walk: the whole ESTree of a program, walked with a scope tracker so that a local
 * `t` (a parameter, a variable, a function, a class, a catch binding) hides the keyword, and
 * `const { t } = require('unplugin-tms/runtime')` makes `t` one.
 *
 * Why it exists: it is the only scanner that knows scopes. It is the slowest (the whole tree becomes JS
 * objects), so the other scanners hand it only the programs the text check `needsScopes`
 * (bindings.ts) cannot clear; the `estree` scanner runs every program through it, so the fixtures hold
 * it to the same output as the others.
 */
import { addNamespace, type Bindings, specOf } from './bindings'
import { handleCall, handleTagged } from './calls'
import type { FileContext } from './file-context'
import { type KeywordSpec, RUNTIME_MESSAGE_EXPORTS } from './keywords'
import { type AstNode, unwrap } from './nodes'
import { oxcParser } from './oxc'
import type { ParseUnit } from './sources'
import type { Range } from './types'

interface Scope {
  start: number
  end: number
  isFunction: boolean
  parent: Scope | null
}

/** A local declaration of a keyword's name, and the range of the scope it hides the keyword in. */
interface Declaration {
  name: string
  start: number
  end: number
}

interface Candidate {
  node: AstNode
  callee: AstNode
  tagged: boolean
}

/** What one walk collects: declarations that hide keywords, every call, and runtime `require` aliases. */
interface Walk {
  runtimeModule: string
  /** The names whose declarations matter: the keywords called by a plain name. */
  interesting: Set<string>
  declarations: Declaration[]
  candidates: Candidate[]
  runtimeAliases: Map<string, KeywordSpec | 'namespace'>
  /** Functions and classes: code in them runs later than the module's own (see `FileContext.deferred`). */
  deferred: Range[]
}

/** Each node type's child keys, the parser's own, read when a first program is walked. */
let estreeKeys: Record<string, readonly string[]> = {}

function declare(walk: Walk, pattern: AstNode | null | undefined, scope: Scope): void {
  if (!pattern) return
  switch (pattern.type) {
    case 'Identifier':
      if (walk.interesting.has(pattern.name))
        walk.declarations.push({ name: pattern.name, start: scope.start, end: scope.end })
      return
    case 'ObjectPattern':
      for (const p of pattern.properties as AstNode[])
        declare(walk, p.type === 'RestElement' ? p.argument : p.value, scope)
      return
    case 'ArrayPattern':
      for (const e of pattern.elements as (AstNode | null)[]) declare(walk, e, scope)
      return
    case 'AssignmentPattern':
      declare(walk, pattern.left, scope)
      return
    case 'RestElement':
      declare(walk, pattern.argument, scope)
      return
    case 'TSParameterProperty':
      declare(walk, pattern.parameter, scope)
      return
  }
}

function functionScope(scope: Scope): Scope {
  let s = scope
  while (!s.isFunction && s.parent) s = s.parent
  return s
}

function isRuntimeRequire(init: AstNode | null | undefined, runtimeModule: string): boolean {
  if (!init) return false
  const n = unwrap(init)
  if (n.type !== 'CallExpression' || n.arguments.length !== 1) return false
  const callee = unwrap(n.callee)
  if (callee.type !== 'Identifier' || callee.name !== 'require') return false
  const arg = unwrap(n.arguments[0])
  return arg.type === 'Literal' && arg.value === runtimeModule
}

function declareVariables(walk: Walk, node: AstNode, scope: Scope): void {
  const target = node.kind === 'var' ? functionScope(scope) : scope
  for (const d of node.declarations as AstNode[]) {
    // `const { t } = require('unplugin-tms/runtime')` binds the runtime's `t`, not a local function.
    if (isRuntimeRequire(d.init, walk.runtimeModule)) {
      if (d.id.type === 'Identifier') walk.runtimeAliases.set(d.id.name, 'namespace')
      else if (d.id.type === 'ObjectPattern') {
        for (const p of d.id.properties as AstNode[]) {
          const key = p.type === 'Property' && !p.computed ? p.key : null
          const value = p.type === 'Property' ? unwrap(p.value) : null
          const spec = key?.type === 'Identifier' ? RUNTIME_MESSAGE_EXPORTS.get(key.name) : undefined
          if (spec && value?.type === 'Identifier') {
            walk.runtimeAliases.set(value.name, spec)
          } else declare(walk, p.type === 'RestElement' ? p.argument : p.value, target)
        }
      }
      continue
    }
    declare(walk, d.id, target)
  }
}

function declareParams(walk: Walk, fn: AstNode, scope: Scope): void {
  for (const p of fn.params as AstNode[]) declare(walk, p, scope)
}

const innerScope = (node: AstNode, isFunction: boolean, parent: Scope): Scope => ({
  start: node.start,
  end: node.end,
  isFunction,
  parent,
})

/**
 * Records what `node` itself declares or calls, and returns the scope its children live in (null:
 * do not enter it).
 */
function visit(walk: Walk, node: AstNode, scope: Scope): Scope | null {
  switch (node.type) {
    case 'ImportDeclaration':
      return null
    case 'CallExpression':
      walk.candidates.push({ node, callee: node.callee, tagged: false })
      return scope
    case 'TaggedTemplateExpression':
      walk.candidates.push({ node, callee: node.tag, tagged: true })
      return scope
    case 'VariableDeclaration':
      declareVariables(walk, node, scope)
      return scope
    case 'FunctionDeclaration': {
      walk.deferred.push({ start: node.start, end: node.end })
      if (node.id) declare(walk, node.id, scope)
      const inner = innerScope(node, true, scope)
      declareParams(walk, node, inner)
      return inner
    }
    case 'FunctionExpression':
    case 'ArrowFunctionExpression': {
      walk.deferred.push({ start: node.start, end: node.end })
      const inner = innerScope(node, true, scope)
      if (node.id) declare(walk, node.id, inner)
      declareParams(walk, node, inner)
      return inner
    }
    case 'ClassDeclaration':
      walk.deferred.push({ start: node.start, end: node.end })
      if (node.id) declare(walk, node.id, scope)
      return scope
    case 'ClassExpression': {
      walk.deferred.push({ start: node.start, end: node.end })
      if (!node.id) return scope
      const inner = innerScope(node, false, scope)
      declare(walk, node.id, inner)
      return inner
    }
    case 'CatchClause': {
      const inner = innerScope(node, false, scope)
      declare(walk, node.param, inner)
      return inner
    }
    case 'BlockStatement':
    case 'StaticBlock':
    case 'SwitchStatement':
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
      return innerScope(node, false, scope)
    case 'TSImportEqualsDeclaration':
      declare(walk, node.id, scope)
      return null
    case 'TSModuleDeclaration':
    case 'TSEnumDeclaration':
      if (node.id?.type === 'Identifier') declare(walk, node.id, scope)
      return scope
    default:
      return scope
  }
}

function walkNode(walk: Walk, node: AstNode, scope: Scope): void {
  const inner = visit(walk, node, scope)
  if (inner === null) return
  for (const key of estreeKeys[node.type] ?? []) {
    const child = node[key]
    if (child === null || child === undefined) continue
    if (Array.isArray(child)) {
      for (const c of child) if (c !== null && typeof c === 'object') walkNode(walk, c, inner)
    } else if (typeof child === 'object' && typeof child.type === 'string') walkNode(walk, child, inner)
  }
}

/** Walks `program` (the ESTree of `unit`) and hands each keyword call no local declaration hides to `ctx`. */
export function scanEstree(ctx: FileContext, unit: ParseUnit, program: AstNode, bindings: Bindings): void {
  const walk: Walk = {
    runtimeModule: ctx.options.runtimeModule,
    interesting: new Set(bindings.direct.keys()),
    declarations: [],
    candidates: [],
    runtimeAliases: new Map(),
    deferred: [],
  }
  // `program.start` skips leading comments; the module scope covers the whole text.
  if (estreeKeys.Program === undefined) estreeKeys = oxcParser().visitorKeys
  walkNode(walk, program, { start: 0, end: unit.code.length, isFunction: true, parent: null })

  for (const [alias, kind] of walk.runtimeAliases) {
    if (kind !== 'namespace') bindings.direct.set(alias, kind)
    else addNamespace(bindings, alias)
  }
  ctx.deferred = walk.deferred
  const candidates = walk.candidates.sort((a, b) => a.node.start - b.node.start || b.node.end - a.node.end)
  for (const candidate of candidates) {
    const spec = specOf(candidate.callee, bindings)
    if (spec === undefined) continue
    const callee = unwrap(candidate.callee)
    if (callee.type === 'Identifier' && !walk.runtimeAliases.has(callee.name)) {
      const at = candidate.node.start
      if (walk.declarations.some((d) => d.name === callee.name && d.start <= at && at < d.end)) continue
    }
    if (candidate.tagged) handleTagged(ctx, candidate.node, candidate.callee, spec)
    else handleCall(ctx, candidate.node, candidate.callee, spec)
  }
}
