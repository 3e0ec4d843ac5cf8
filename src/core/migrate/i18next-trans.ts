import type { AstNode } from '../extract/nodes'
import { i18nextText } from '../import/convert-i18next'
import { type I18nextCtx, sourceText } from './i18next-keys'
import {
  childrenText,
  childValues,
  renameTransTags,
  type TransTagSources,
  transChildren,
} from './i18next-trans-tags'
import { jsString, objectProperties, Values } from './message'
import { staticString } from './walk'

/**
 * react-i18next's `<Trans i18nKey="key" values={...} components={{ bold: <strong /> }} />`: the key's
 * source text as a `<T msg>` whose tags are rendered by functions that wrap the chunks in the
 * component's element, as `components` did. Its numbered tags (`<1>`), counted among its children or
 * in a `components` array, are the elements' names as `<T>` gives them (i18next-trans-tags.ts); a
 * `<Trans>` without `i18nKey` has its children's text as its key, as react-i18next makes it.
 */

export function i18nextTrans(
  ctx: I18nextCtx,
  node: AstNode,
  ancestors: readonly AstNode[],
  name: string,
): false {
  const { state } = ctx
  const built = transParts(ctx, node)
  if ('problem' in built) {
    state.leave(node, ancestors, built.problem)
    return false
  }
  state.need('T', 'msg')
  state.replace(node.start, node.end, (n) => {
    const values = built.values.text()
    return `<${n.T} msg={${n.msg}(${jsString(built.text)})}${values === 'undefined' ? '' : ` values={${values}}`} />`
  })
  state.replacedRef(name)
  if (node.closingElement) state.replacedRef(name)
  state.count('<Trans i18nKey>')
  return false
}

function transParts(ctx: I18nextCtx, node: AstNode): { text: string; values: Values } | { problem: string } {
  const { state } = ctx
  const code = state.code
  let key: string | null = null
  let ns: string | undefined
  let fallback: string | null = null
  const values = new Values()
  let named: Map<string, AstNode> | undefined
  let array: AstNode[] | undefined
  for (const attr of node.openingElement.attributes) {
    if (attr.type !== 'JSXAttribute')
      return { problem: '<Trans {...spread}> is not converted; write its props out' }
    const prop = attr.name.name
    const value = attr.value?.type === 'JSXExpressionContainer' ? attr.value.expression : attr.value
    if (prop === 'i18nKey') {
      key = staticString(value)
      if (key === null)
        return { problem: "<Trans>'s i18nKey is not a literal, so its text cannot be looked up" }
    } else if (prop === 'ns') ns = staticString(value) ?? undefined
    else if (prop === 't') continue
    else if (prop === 'defaults') fallback = staticString(value)
    else if (prop === 'count' || prop === 'context') values.add(prop, code.slice(value.start, value.end))
    else if (prop === 'values') {
      const props = objectProperties(value)
      if (!props) return { problem: "<Trans>'s values are not an object literal" }
      for (const [k, v] of props) {
        const clash = values.add(k, code.slice(v.start, v.end))
        if (clash) return { problem: clash }
      }
    } else if (prop === 'components') {
      if (value?.type === 'ArrayExpression' && value.elements.every((e: AstNode | null) => e !== null))
        array = value.elements
      else {
        const props = objectProperties(value)
        if (!props) return { problem: "<Trans>'s components are neither an array nor an object literal" }
        // An object with numbered names ({ 1: <b /> }) is read as an array is (its isComponentsMap).
        if ([...props.keys()].some((k) => !Number.isNaN(Number.parseFloat(k)))) {
          array = []
          for (const [k, v] of props) array[Number(k)] = v
        } else named = props
      }
    } else return { problem: `<Trans>'s prop ${prop} has no counterpart in unplugin-tms` }
  }
  const children = transChildren(node.children, code)
  if ('problem' in children) return children
  const problem = childValues(children, values)
  if (problem) return { problem }
  const fromChildren = childrenText(children)
  key ??= fromChildren || null
  if (key === null)
    return {
      problem:
        children.length === 0
          ? '<Trans> has neither an i18nKey nor children'
          : '<Trans> without i18nKey takes its key from its children, and a child here ({expression}) is only known at run time; give it an i18nKey',
    }
  let text = sourceText(ctx, key, ns, values.entries.has('context'))
  // The catalog lacks the key: react-i18next shows `defaults`, else the children's text.
  const shown = fallback ?? fromChildren
  if (text === undefined && shown) {
    const b = i18nextText(shown, false)
    if ('problem' in b) return { problem: `its ${fallback !== null ? 'defaults' : 'children'}: ${b.problem}` }
    text = b.text
  }
  if (text === undefined) return { problem: `the key ${key} has no text in the source locale's catalog` }
  const sources: TransTagSources = { code, children }
  if (array) sources.array = array
  if (named) sources.named = named
  const renamed = renameTransTags(text, sources, values)
  if (typeof renamed !== 'string') return renamed
  return { text: renamed, values }
}
