/**
 * The few node shapes the extractor reads, in both of oxc-parser's flavours: the ESTree objects of
 * `parseSync` (Identifier, Literal, MemberExpression, Property) and the lazily deserialised nodes of raw
 * transfer, which keep oxc's own names (IdentifierReference, StringLiteral, StaticMemberExpression,
 * ObjectProperty). Reading through these helpers keeps one analysis for both.
 */

/** An AST node of either flavour; only `type`, `start` and `end` are common to all. */
export interface AstNode {
  type: string
  start: number
  end: number
  // biome-ignore lint/suspicious/noExplicitAny: AST nodes of two flavours, read through the helpers below.
  [field: string]: any
}

/** Strips what does not change a value: parentheses and TypeScript casts (`'x' as const`). */
export function unwrap(node: AstNode): AstNode {
  let n = node
  for (;;) {
    switch (n.type) {
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
        n = n.expression
        break
      default:
        return n
    }
  }
}

export function identifierName(node: AstNode): string | null {
  return node.type === 'Identifier' || node.type === 'IdentifierReference' ? (node.name as string) : null
}

/** `undefined` or `null` written literally: an absent argument. */
export function isNullish(node: AstNode): boolean {
  const n = unwrap(node)
  if (n.type === 'NullLiteral') return true
  if (n.type === 'Literal' && n.value === null && n.raw === 'null') return true
  return identifierName(n) === 'undefined'
}

/**
 * The value of a string known at build time: a string literal, a template without expressions, or a
 * `+` concatenation of those. Null for anything else.
 */
export function staticString(node: AstNode): string | null {
  const n = unwrap(node)
  switch (n.type) {
    case 'StringLiteral':
      return n.value as string
    case 'Literal':
      return typeof n.value === 'string' ? n.value : null
    case 'TemplateLiteral': {
      if (n.expressions.length !== 0) return null
      const cooked = n.quasis[0]?.value.cooked
      return typeof cooked === 'string' ? cooked : null
    }
    case 'BinaryExpression': {
      if (n.operator !== '+') return null
      const left = staticString(n.left)
      if (left === null) return null
      const right = staticString(n.right)
      return right === null ? null : left + right
    }
    default:
      return null
  }
}

export function staticNumber(node: AstNode): number | null {
  const n = unwrap(node)
  if (n.type === 'NumericLiteral' || (n.type === 'Literal' && typeof n.value === 'number')) {
    return n.value as number
  }
  return null
}

/** `a.b.c` as `['a', 'b', 'c']` for identifiers, `this` and non-computed members; null otherwise. */
export function memberPath(node: AstNode): string[] | null {
  const n = unwrap(node)
  switch (n.type) {
    case 'Identifier':
    case 'IdentifierReference':
      return [n.name as string]
    case 'ThisExpression':
      return ['this']
    case 'StaticMemberExpression': {
      const head = memberPath(n.object)
      return head === null ? null : [...head, n.property.name as string]
    }
    case 'MemberExpression': {
      if (n.computed) return null
      const head = memberPath(n.object)
      return head === null || n.property.type !== 'Identifier' ? null : [...head, n.property.name as string]
    }
    default:
      return null
  }
}

/** Whether a node is an object literal `{ ... }`. */
export function isObjectExpression(node: AstNode): boolean {
  return node.type === 'ObjectExpression'
}

export function isSpread(node: AstNode): boolean {
  return node.type === 'SpreadElement'
}

/** An object literal member's static key (`variant`, `'maxLength'`), or null for computed keys and spreads. */
export function propertyKey(property: AstNode): string | null {
  if (property.type !== 'Property' && property.type !== 'ObjectProperty') return null
  if (property.computed) return null
  const key = property.key as AstNode
  if (key.type === 'Identifier' || key.type === 'IdentifierName') return key.name as string
  const s = staticString(key)
  return s
}

/** The callees the transform puts around a message's text (`src/plugin/transform.ts` writes them). */
export const LOOKUP_CALLEE = '__tms_l'
export const FORMAT_CALLEE = '__tms_f'

/**
 * True when `node` is a lookup the transform already wrote, `__tms_l("<id>", 'Open')`, or its formatted
 * form in inline mode, `__tms_f(__tms_l(...), void 0, __tms_locale())`: the text argument of a keyword
 * that keeps the app's function (`_x(__tms_l(...), 'menu')`) after a first pass, with nothing left to
 * extract or report. The quick read (quick.ts) hands such an argument as an opaque range, so there the
 * source text decides: it must be one call of the lookup (or of the format around it), start to end.
 */
export function isRewrittenLookup(node: AstNode, code: string): boolean {
  const n = unwrap(node)
  const callee = n.type === 'CallExpression' ? identifierName(n.callee) : null
  if (callee === LOOKUP_CALLEE) return true
  if (callee === FORMAT_CALLEE) {
    const first = n.arguments[0] as AstNode | undefined
    return first !== undefined && isRewrittenLookup(first, code)
  }
  if (n.type !== 'Opaque') return false
  const prefix = code.startsWith(`${FORMAT_CALLEE}(`, n.start) ? FORMAT_CALLEE.length + 1 : 0
  return code.startsWith(`${LOOKUP_CALLEE}(`, n.start + prefix) && oneCall(code, n.start, n.end)
}

/** True when `code` from `start` to `end` is one call: its first parenthesis closes at `end`. */
function oneCall(code: string, start: number, end: number): boolean {
  // An opaque range holds no comment, template, regular expression or backslash: quotes and
  // parentheses are all there is to follow.
  let depth = 0
  let quote = ''
  for (let i = start; i < end; i++) {
    const c = code[i]!
    if (quote !== '') {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i === end - 1
  }
  return false
}
