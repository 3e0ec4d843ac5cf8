import { type AstNode, unwrap } from '../extract/nodes'
import { exportedValue, importOf } from './app-module'
import type { FileState } from './file-state'
import type { FormatsFound } from './types'
import { propertyName, walk } from './walk'

/**
 * react-intl's named formats (`<IntlProvider formats defaultFormats>`, `createIntl({ formats })`), read
 * where they are written as a static object: a literal, a `const` of the same file holding one, or the
 * default or named export of such a const in a module of the app imported by a relative path
 * (`app-module.ts`). The messages keep their `{price, number, GBP}`; the summary prints the objects as
 * the `formats` option for the tms config, which this migration does not edit (a config is code: its
 * shape is the user's). What is not static (a prop spread, a package's import, a call) is listed to
 * copy by hand.
 */

const PROPS = ['formats', 'defaultFormats'] as const

type Read = { value: unknown } | { problem: string }

/** The `const` declarations of a name in the file, each its initializer. */
function constInits(state: FileState, name: string): AstNode[] {
  const out: AstNode[] = []
  for (const unit of state.units)
    walk(unit.program, (node, ancestors) => {
      if (node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier' || node.id.name !== name) return
      const decl = ancestors[ancestors.length - 1]
      if (decl?.type === 'VariableDeclaration' && decl.kind === 'const' && node.init) out.push(node.init)
    })
  return out
}

/**
 * The value of an expression made of literals and object literals (a `const` of this file, or an
 * export of an app module, followed), or why it cannot be read without running the app. `seen`: the
 * names followed, by file, so `a = b, b = a` ends, across modules too.
 */
function staticValue(state: FileState, node: AstNode, seen: Set<string>): Read {
  const n = unwrap(node)
  if (n.type === 'Literal' && ['string', 'number', 'boolean'].includes(typeof n.value))
    return { value: n.value }
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return { value: n.quasis[0].value.cooked }
  if (n.type === 'UnaryExpression' && n.operator === '-' && n.argument.type === 'Literal')
    return typeof n.argument.value === 'number'
      ? { value: -n.argument.value }
      : { problem: 'it negates a text' }
  if (n.type === 'Identifier') {
    const key = `${state.file}\u0000${n.name}`
    if (seen.has(key)) return { problem: `${n.name} refers to itself` }
    const followed = new Set([...seen, key])
    const inits = constInits(state, n.name)
    if (inits.length === 0) {
      const imp = importOf(state, n.name)
      if (!imp) return { problem: `${n.name} is not a const of this file (a parameter or a let)` }
      const exported = exportedValue(state, imp)
      if ('problem' in exported) return { problem: `${n.name} is ${exported.problem}` }
      const read = staticValue(exported.module, exported.node, followed)
      return 'problem' in read ? { problem: `${n.name} (${imp.source}): ${read.problem}` } : read
    }
    if (inits.length > 1) return { problem: `${n.name} is declared ${inits.length} times in this file` }
    return staticValue(state, inits[0]!, followed)
  }
  if (n.type !== 'ObjectExpression') return { problem: `it is computed (${n.type}) when the app runs` }
  const out: Record<string, unknown> = {}
  for (const p of n.properties) {
    const key = propertyName(p)
    if (key === null)
      return { problem: p.type === 'SpreadElement' ? 'it spreads another object' : 'it has a computed key' }
    const read = staticValue(state, p.value, seen)
    if ('problem' in read) return read
    Object.defineProperty(out, key, {
      value: read.value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return { value: out }
}

function note(state: FileState, node: AstNode, where: string, read: Read): void {
  const place = state.position(node.start)
  const found: FormatsFound = { file: state.file, ...place, where }
  if ('problem' in read) found.problem = read.problem
  else if (typeof read.value !== 'object') found.problem = 'it is not an object of named formats'
  else found.formats = read.value as Record<string, unknown>
  state.formats.push(found)
}

/** The named formats of an `<IntlProvider>` element: its `formats` and `defaultFormats` props. */
export function readProviderFormats(state: FileState, node: AstNode, name: string): void {
  for (const attr of node.openingElement.attributes) {
    if (attr.type !== 'JSXAttribute') {
      note(state, attr, `<${name} {...}>`, {
        problem: 'its props are spread: formats or defaultFormats among them are not seen',
      })
      continue
    }
    const prop = attr.name.name
    if (!(PROPS as readonly string[]).includes(prop)) continue
    const value = attr.value?.type === 'JSXExpressionContainer' ? attr.value.expression : attr.value
    note(
      state,
      attr,
      `<${name} ${prop}>`,
      value ? staticValue(state, value, new Set()) : { problem: 'it has no value' },
    )
  }
}

/** The object literal an expression is, a `const` of this file followed; undefined when it is none. */
function objectLiteral(state: FileState, node: AstNode, seen: Set<string>): AstNode | undefined {
  const n = unwrap(node)
  if (n.type === 'ObjectExpression') return n
  if (n.type !== 'Identifier' || seen.has(n.name)) return undefined
  const inits = constInits(state, n.name)
  return inits.length === 1 ? objectLiteral(state, inits[0]!, new Set([...seen, n.name])) : undefined
}

/**
 * The named formats of a `createIntl(config)` call: the config's `formats` and `defaultFormats`, read
 * alone (its `messages` and `locale` are often computed, and do not matter here).
 */
export function readCreateIntlFormats(state: FileState, node: AstNode, name: string): void {
  const config = node.arguments[0] ? objectLiteral(state, node.arguments[0], new Set()) : undefined
  if (!config) {
    note(state, node, `${name}(config)`, {
      problem: 'its config is not an object literal of this file: formats in it are not seen',
    })
    return
  }
  for (const p of config.properties) {
    const key = propertyName(p)
    if (key === null) {
      note(state, p, `${name}({ ... })`, {
        problem: 'its config spreads another object or has a computed key: formats there are not seen',
      })
      continue
    }
    if ((PROPS as readonly string[]).includes(key))
      note(state, p, `${name}({ ${key} })`, staticValue(state, p.value, new Set()))
  }
}
