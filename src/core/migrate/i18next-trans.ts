import type { AstNode } from '../extract/nodes'
import { i18nextText } from '../import/convert-i18next'
import { type I18nextCtx, sourceText } from './i18next-keys'
import { jsString, objectProperties, Values } from './message'
import { staticString } from './walk'

/**
 * react-i18next's `<Trans i18nKey="key" values={...} components={{ bold: <strong /> }} />`: the key's
 * source text as a `<T msg>` whose tags are rendered by functions that wrap the chunks in the
 * component's element, as `components` did. Numbered components (an array) and a `<Trans>` whose key
 * is its children are left with a TODO.
 */

const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr'])
const BASIC_HTML = ['br', 'strong', 'i', 'p']

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
  let components: Map<string, AstNode> | null = null
  for (const attr of node.openingElement.attributes) {
    if (attr.type !== 'JSXAttribute')
      return { problem: '<Trans {...spread}> is not converted; write its props out' }
    const prop = attr.name.name
    const value = attr.value?.type === 'JSXExpressionContainer' ? attr.value.expression : attr.value
    if (prop === 'i18nKey') key = staticString(value)
    else if (prop === 'ns') ns = staticString(value) ?? undefined
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
      components = objectProperties(value)
      if (!components)
        return {
          problem:
            "<Trans>'s components are not an object literal with named tags (an array's numbered tags are not converted)",
        }
    } else return { problem: `<Trans>'s prop ${prop} has no counterpart in unplugin-tms` }
  }
  if (key === null)
    return {
      problem:
        '<Trans> without a literal i18nKey takes its key from its children; give it an i18nKey, or write it as <T> by hand',
    }
  let text = sourceText(ctx, key, ns)
  if (text === undefined && fallback !== null) {
    const b = i18nextText(fallback, false)
    if ('problem' in b) return { problem: `its defaults: ${b.problem}` }
    text = b.text
  }
  if (text === undefined) return { problem: `the key ${key} has no text in the source locale's catalog` }
  for (const tag of new Set([...text.matchAll(/<([A-Za-z0-9_-]+)>/g)].map((m) => m[1]!))) {
    const element = components?.get(tag)
    if (!element) {
      if (!BASIC_HTML.includes(tag)) return { problem: `the tag <${tag}> of its text has no component` }
      values.add(
        tag,
        VOID.has(tag)
          ? `() => <${tag} key="${tag}" />`
          : `(chunks) => <${tag} key="${tag}">{chunks}</${tag}>`,
      )
      continue
    }
    if (element.type !== 'JSXElement' || !element.openingElement.selfClosing)
      return {
        problem: `its component ${tag} is not a self-closing element; write the tag's function by hand`,
      }
    const open = code.slice(element.start, element.end).replace(/\s*\/>$/, '')
    const tagName = code.slice(element.openingElement.name.start, element.openingElement.name.end)
    const keyed = /\skey=/.test(open) ? open : `${open.replace(/^<[^\s/>]+/, (m) => `${m} key="${tag}"`)}`
    const clash = values.add(
      tag,
      VOID.has(tagName) ? `() => ${keyed} />` : `(chunks) => ${keyed}>{chunks}</${tagName}>`,
    )
    if (clash) return { problem: clash }
  }
  return { text, values }
}
