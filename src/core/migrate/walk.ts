import type { AstNode } from '../extract/nodes'

/**
 * A plain walk of oxc-parser's ESTree objects with the chain of ancestors, which the conversions need
 * (is this element a JSX child, which function holds this hook, which statement holds this call).
 * Returning `false` from `enter` skips the node's children: a construct rewritten whole.
 */
export function walk(root: AstNode, enter: (node: AstNode, ancestors: readonly AstNode[]) => unknown): void {
  const ancestors: AstNode[] = []
  const visit = (node: AstNode): void => {
    if (enter(node, ancestors) === false) return
    ancestors.push(node)
    for (const key in node) {
      if (key === 'parent') continue
      const child = node[key]
      if (Array.isArray(child)) {
        for (const c of child) if (isNode(c)) visit(c)
      } else if (isNode(child)) visit(child)
    }
    ancestors.pop()
  }
  visit(root)
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string'
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'])

/** The nearest function around a node (a component, a hook), or the program. */
export function enclosingFunction(ancestors: readonly AstNode[]): AstNode {
  for (let i = ancestors.length - 1; i >= 0; i--) if (FUNCTIONS.has(ancestors[i]!.type)) return ancestors[i]!
  return ancestors[0]!
}

const STATEMENT_HOLDERS = new Set(['Program', 'BlockStatement', 'StaticBlock', 'SwitchCase'])

/**
 * Where a comment about a node goes: in front of the nearest JSX child around it (a JSX comment
 * among JSX children) or of the statement that holds it (a line comment), whichever is nearer: there
 * a comment is sure to be code, not text.
 */
export function enclosingStatement(node: AstNode, ancestors: readonly AstNode[]): AstNode {
  let child = node
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!
    if (STATEMENT_HOLDERS.has(a.type)) return child
    if ((a.type === 'JSXElement' || a.type === 'JSXFragment') && a.children.includes(child)) return child
    child = a
  }
  return child
}

/** `a.b.c` as the list of its names, or null for anything else (a call, a computed member). */
export function memberPath(node: AstNode): string[] | null {
  if (node.type === 'Identifier') return [node.name]
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const head = memberPath(node.object)
    return head && [...head, node.property.name]
  }
  if (node.type === 'ThisExpression') return ['this']
  return null
}

/** A string literal's value, or a template literal's with no expression; null for anything else. */
export function staticString(node: AstNode | null | undefined): string | null {
  if (!node) return null
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked
  if (node.type === 'JSXExpressionContainer') return staticString(node.expression)
  return null
}

/** The name of an object property's key written as an identifier or a string. */
export function propertyName(prop: AstNode): string | null {
  if (prop.type !== 'Property' || prop.computed) return null
  if (prop.key.type === 'Identifier') return prop.key.name
  if (prop.key.type === 'Literal') return String(prop.key.value)
  return null
}
