import type { AstNode } from '../extract/nodes'
import { memberPath, propertyName, staticString } from './walk'

/**
 * Building our message texts and `t`'s arguments from the old library's pieces: template literals with
 * their expressions, plural/select choices, and the values object those need. Texts of Lingui and
 * react-intl are ICU MessageFormat already, as ours are, so literal text is taken as written.
 */

export type Built<T> = T | { problem: string }

export const failed = <T>(b: Built<T>): b is { problem: string } =>
  typeof b === 'object' && b !== null && 'problem' in b

/** The values a message names, each with the source text of its expression. */
export class Values {
  readonly entries: Map<string, string> = new Map()

  /** Adds `name: expression`; a problem when the name already stands for another expression. */
  add(name: string, expression: string): string | undefined {
    const had = this.entries.get(name)
    if (had !== undefined && had !== expression)
      return `{${name}} would stand for both ${had} and ${expression}; give one of them another name first`
    this.entries.set(name, expression)
    return undefined
  }

  /** `{ count, name: user.name }`, or `undefined` when there are none. */
  text(): string {
    if (this.entries.size === 0) return 'undefined'
    const parts = [...this.entries].map(([name, expr]) =>
      name === expr ? name : `${safeKey(name)}: ${expr}`,
    )
    return `{ ${parts.join(', ')} }`
  }
}

const safeKey = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name))

/** A single-quoted JavaScript string literal holding `text`. */
export function jsString(text: string): string {
  return `'${text.replace(/[\\'\n\r\u2028\u2029]/g, (c) => (c === "'" ? "\\'" : JSON.stringify(c).slice(1, -1)))}'`
}

/**
 * The name a value gets in the message: a plain identifier its own name, `user.name` its last name
 * (as `<T>` names `{user.name}`); anything else has none and is refused (give it a name first).
 */
export function valueName(node: AstNode, code: string): Built<{ name: string; expression: string }> {
  const expression = code.slice(node.start, node.end)
  const path = memberPath(node)
  if (path && path[0] !== 'this') return { name: path[path.length - 1]!, expression }
  if (path && path.length > 1) return { name: path[path.length - 1]!, expression }
  return {
    problem: `the value \${${expression}} has no name in a message; give it one first (const x = ${expression}) and write \${x}`,
  }
}

/** A plural or select written as the old library's call or component: ours is ICU text. */
export interface Choice {
  kind: 'plural' | 'select' | 'selectordinal'
  /** The value's expression. */
  value: AstNode
  /** ICU keys (`one`, `=0`, `male`, `other`) with their bodies as built messages. */
  branches: [string, AstNode][]
}

/**
 * `{count, plural, one {# book} other {# books}}` from a choice; each branch is a string, or a
 * template literal whose expressions are read by `expression` (nested choices, names).
 */
export function choiceText(
  choice: Choice,
  code: string,
  values: Values,
  expression: (node: AstNode) => Built<string>,
): Built<string> {
  const named = valueName(choice.value, code)
  let name: string
  let expr: string
  if (failed(named)) {
    // A count written as an expression (`items.length`) is the message's `count`, as Lingui's own docs name it.
    name = choice.kind === 'select' ? 'value' : 'count'
    expr = code.slice(choice.value.start, choice.value.end)
  } else {
    name = named.name
    expr = named.expression
  }
  const clash = values.add(name, expr)
  if (clash) return { problem: clash }
  if (!choice.branches.some(([key]) => key === 'other'))
    return { problem: `its ${choice.kind} has no other form` }
  const parts: string[] = []
  for (const [key, body] of choice.branches) {
    const text = branchText(body, code, values, expression)
    if (failed(text)) return text
    parts.push(`${key} {${text}}`)
  }
  return `{${name}, ${choice.kind}, ${parts.join(' ')}}`
}

function branchText(
  node: AstNode,
  code: string,
  values: Values,
  expression: (node: AstNode) => Built<string>,
): Built<string> {
  const plain = staticString(node)
  if (plain !== null) return plain
  const inner = node.type === 'JSXExpressionContainer' ? node.expression : node
  if (inner.type === 'TemplateLiteral') return templateText(inner, values, expression)
  return {
    problem: `a form written as ${code.slice(node.start, node.end).slice(0, 40)} is not a text; write each form as a string`,
  }
}

/** A template literal's text with `{name}` for each expression, which `expression` names. */
export function templateText(
  tpl: AstNode,
  _values: Values,
  expression: (node: AstNode) => Built<string>,
): Built<string> {
  let out = ''
  for (let i = 0; i < tpl.quasis.length; i++) {
    const cooked = tpl.quasis[i].value.cooked
    if (cooked == null) return { problem: 'its template holds an invalid escape' }
    out += cooked
    if (i < tpl.expressions.length) {
      const piece = expression(tpl.expressions[i])
      if (failed(piece)) return piece
      out += piece
    }
  }
  return out
}

/** Options of a descriptor (`context`, `comment`, `description`) as ours: `{ variant, instruction }`. */
export function metadataText(meta: { variant?: string; instruction?: string }): string | null {
  const parts: string[] = []
  if (meta.variant !== undefined) parts.push(`variant: ${jsString(meta.variant)}`)
  if (meta.instruction !== undefined) parts.push(`instruction: ${jsString(meta.instruction)}`)
  return parts.length > 0 ? `{ ${parts.join(', ')} }` : null
}

/** `fn('text', values, { variant })` with trailing absent arguments left out. */
export function callText(fn: string, text: string, values: Values, meta: string | null): string {
  const args = [jsString(text)]
  if (values.entries.size > 0 || meta) args.push(values.text())
  if (meta) args.push(meta)
  return `${fn}(${args.join(', ')})`
}

/** The properties of an object literal by name; null when one is spread or computed. */
export function objectProperties(node: AstNode): Map<string, AstNode> | null {
  if (node.type !== 'ObjectExpression') return null
  const out = new Map<string, AstNode>()
  for (const p of node.properties) {
    const name = propertyName(p)
    if (name === null) return null
    out.set(name, p.value)
  }
  return out
}
