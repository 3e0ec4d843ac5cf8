import type { AstNode } from '../extract/nodes'
import type { FileState } from './file-state'
import type { OldImport } from './imports'
import {
  type Built,
  type Choice,
  callText,
  choiceText,
  failed,
  metadataText,
  Values,
  valueName,
} from './message'
import { memberPath, staticString } from './walk'

/**
 * Lingui's JSX: `<Trans>` is our `<T>` with the same children (our tags are the elements' names
 * where Lingui numbers them; `tms import` maps the catalogs), `<Plural>`, `<Select>` and
 * `<SelectOrdinal>` are ICU text in a `<T msg>`, which re-renders on a switch as they did.
 */

/** `Trans`, `i18n.Trans` as written; null for a namespaced name. */
export function jsxName(name: AstNode): string | null {
  if (name.type === 'JSXIdentifier') return name.name
  return null
}

const META: Record<string, 'variant' | 'instruction'> = { context: 'variant', comment: 'instruction' }

/** Why a child of `<Trans>` cannot be a child of `<T>`, if it cannot. */
function childProblem(
  child: AstNode,
  code: string,
  lingui: readonly OldImport[],
  names: Map<string, string>,
): string | null {
  if (child.type === 'JSXText') return null
  if (child.type === 'JSXFragment') return childrenProblem(child.children, code, lingui, names)
  if (child.type === 'JSXElement') {
    const name = jsxName(child.openingElement.name)
    if (name && lingui.some((i) => i.local === name))
      return `<${name}> inside a message has no JSX form in unplugin-tms; write the whole message as ICU text with t (docs/migrating.md)`
    return childrenProblem(child.children, code, lingui, names)
  }
  if (child.type === 'JSXExpressionContainer') {
    const e = child.expression
    if (e.type === 'JSXEmptyExpression' || staticString(e) !== null) return null
    if (e.type === 'Literal' && typeof e.value === 'number') return null
    const path = memberPath(e)
    if (!path || path[0] === 'this')
      return `{${code.slice(e.start, e.end)}} has no name in a message; give it one first (const x = ...) and write {x}`
    const name = path[path.length - 1]!
    const expr = code.slice(e.start, e.end)
    const had = names.get(name)
    if (had !== undefined && had !== expr)
      return `{${had}} and {${expr}} would both be {${name}}; give one another name first`
    names.set(name, expr)
    return null
  }
  return `${child.type} inside <Trans> is not converted`
}

function childrenProblem(
  children: AstNode[],
  code: string,
  lingui: readonly OldImport[],
  names: Map<string, string>,
): string | null {
  for (const c of children) {
    const p = childProblem(c, code, lingui, names)
    if (p) return p
  }
  return null
}

/** `<Trans id="x" comment="c" context="v">...</Trans>` -> `<T instruction="c" variant="v">...</T>`. */
export function convertTransElement(
  state: FileState,
  node: AstNode,
  ancestors: readonly AstNode[],
  name: string,
  lingui: readonly OldImport[],
): boolean | undefined {
  const opening = node.openingElement
  const problem =
    attributeProblem(opening.attributes, ['id', 'comment', 'context'], name) ??
    (node.children.length === 0
      ? `<${name}> without children renders a catalog id; write its text inside`
      : null) ??
    childrenProblem(node.children, state.code, lingui, new Map())
  if (problem) {
    state.leave(node, ancestors, problem)
    return false
  }
  state.need('T')
  state.replace(opening.name.start, opening.name.end, (n) => n.T)
  state.replacedRef(name)
  if (node.closingElement) {
    state.replace(node.closingElement.name.start, node.closingElement.name.end, (n) => n.T)
    state.replacedRef(name)
  }
  for (const attr of opening.attributes) {
    const key = attr.name.name
    if (key === 'id') {
      // The message's identity is its text; the id only told Lingui's catalog where it was.
      let start = attr.start
      while (/\s/.test(state.code[start - 1]!)) start--
      state.replace(start, attr.end, () => '')
      state.count('explicit id dropped')
    } else state.replace(attr.name.start, attr.name.end, () => META[key]!)
  }
  state.count('<Trans>')
  return undefined
}

function attributeProblem(
  attributes: AstNode[],
  allowed: readonly string[],
  element: string,
  extra?: (key: string) => boolean,
): string | null {
  for (const attr of attributes) {
    if (attr.type !== 'JSXAttribute') return `<${element} {...spread}> is not converted; write its props out`
    if (attr.name.type !== 'JSXIdentifier')
      return `<${element}>'s prop ${attr.name.name?.name ?? ''} is not converted`
    const key = attr.name.name
    if (extra?.(key)) continue
    if (!allowed.includes(key))
      return `<${element}>'s prop ${key} has no counterpart in unplugin-tms; rewrite this by hand`
    if (key !== 'id' && key !== 'value' && staticString(attr.value) === null)
      return `<${element}>'s ${key} is not a literal text`
  }
  return null
}

const PLURAL_KEYS = new Set(['zero', 'one', 'two', 'few', 'many', 'other'])

/** `<Plural value={n} one="# book" other="# books" />` -> `<T msg={msg('{n, plural, ...}', { n })} />`. */
export function convertPluralElement(
  state: FileState,
  node: AstNode,
  ancestors: readonly AstNode[],
  name: string,
  kind: Choice['kind'],
): false {
  const result = pluralElement(state, node, name, kind)
  if (failed(result)) {
    state.leave(node, ancestors, result.problem)
    return false
  }
  state.need('T', 'msg')
  state.replace(
    node.start,
    node.end,
    (n) => `<${n.T} msg={${callText(n.msg, result.text, result.values, result.meta)}} />`,
  )
  state.replacedRef(name)
  state.count(`<${name}>`)
  return false
}

function pluralElement(
  state: FileState,
  node: AstNode,
  name: string,
  kind: Choice['kind'],
): Built<{ text: string; values: Values; meta: string | null }> {
  const opening = node.openingElement
  const formKey = (key: string): string | null => {
    if (/^_\d+$/.test(key)) return `=${key.slice(1)}`
    if (kind === 'select') return key === 'other' ? key : key.startsWith('_') ? key.slice(1) : null
    return PLURAL_KEYS.has(key) ? key : null
  }
  const problem =
    attributeProblem(
      opening.attributes,
      ['id', 'comment', 'context', 'value'],
      name,
      (k) => formKey(k) !== null,
    ) ??
    (node.children.some((c: AstNode) => c.type !== 'JSXText' || c.value.trim() !== '')
      ? `<${name}> with children is not converted`
      : null)
  if (problem) return { problem }
  let value: AstNode | undefined
  const branches: [string, AstNode][] = []
  const meta: { variant?: string; instruction?: string } = {}
  for (const attr of opening.attributes) {
    const key = attr.name.name
    if (key === 'value')
      value = attr.value?.type === 'JSXExpressionContainer' ? attr.value.expression : attr.value
    else if (key === 'id') state.count('explicit id dropped')
    else if (META[key]) meta[META[key]!] = staticString(attr.value)!
    else if (attr.value) branches.push([formKey(key)!, attr.value])
  }
  if (!value) return { problem: `<${name}> has no value` }
  const values = new Values()
  const text = choiceText({ kind, value, branches }, state.code, values, (e) => {
    const named = valueName(e, state.code)
    if (failed(named)) return named
    const clash = values.add(named.name, named.expression)
    return clash ? { problem: clash } : `{${named.name}}`
  })
  if (failed(text)) return text
  return { text, values, meta: metadataText(meta) }
}
