import type { AstNode } from '../extract/nodes'
import type { FileState } from './file-state'
import { type Built, failed, jsString, Values, valueName } from './message'
import { staticString } from './walk'

/**
 * react-intl's components: `<FormattedMessage>` becomes `<T msg={msg(defaultMessage)} values={...} />`
 * (the values, tag functions included, kept as written); one whose child is a render function
 * (`{(txt) => <label>{txt}</label>}`) becomes that function's element with the `<T>` where it showed
 * the text; `<FormattedNumber>` and `<FormattedDate>` become a message of one argument where their
 * props have an ICU form (a style, a currency), else a TODO.
 */

export function convertFormattedElement(
  state: FileState,
  node: AstNode,
  ancestors: readonly AstNode[],
  name: string,
  imported: 'FormattedMessage' | 'FormattedNumber' | 'FormattedDate',
): false {
  const built =
    imported === 'FormattedMessage' ? formattedMessage(state, node) : formattedValue(state, node, imported)
  if (failed(built)) {
    state.leave(node, ancestors, built.problem)
    return false
  }
  state.need('T', 'msg')
  const element = (n: Record<string, string>): string => {
    const meta = built.meta ? `, undefined, ${built.meta}` : ''
    return `<${n.T} msg={${n.msg}(${jsString(built.text)}${meta})}${built.values ? ` values={${built.values}}` : ''} />`
  }
  const render = built.render
  state.replace(node.start, node.end, (n) => {
    if (!render) return element(n)
    // The render function's element, each `{txt}` in it now the message itself.
    let out = ''
    let at = render.start
    for (const hole of render.holes) {
      out += state.code.slice(at, hole.start) + element(n)
      at = hole.end
    }
    return out + state.code.slice(at, render.end)
  })
  state.replacedRef(name)
  if (node.closingElement) state.replacedRef(name)
  state.count(`<${imported}>`)
  return false
}

/** A render function's element (its offsets) and the `{txt}` containers in it that show the message. */
type Render = { start: number; end: number; holes: { start: number; end: number }[] }

type Parts = { text: string; values: string | null; meta: string | null; render?: Render }

/** Whether an element has children other than spaces. */
const hasChildren = (node: AstNode): boolean =>
  node.children.some((c: AstNode) => c.type !== 'JSXText' || c.value.trim() !== '')

/**
 * The render function child of a `<FormattedMessage>`, when it is `(txt) => <element>` whose every use
 * of `txt` is a `{txt}` child: react-intl calls it with the formatted message, so the element with the
 * message in place of `{txt}` shows the same.
 */
function renderChild(node: AstNode): Render | null {
  const children = node.children.filter((c: AstNode) => c.type !== 'JSXText' || c.value.trim() !== '')
  const fn =
    children.length === 1 && children[0].type === 'JSXExpressionContainer' ? children[0].expression : null
  if (fn?.type !== 'ArrowFunctionExpression' || fn.params.length !== 1 || fn.params[0].type !== 'Identifier')
    return null
  const body = fn.body
  if (body.type !== 'JSXElement' && body.type !== 'JSXFragment') return null
  const param = fn.params[0].name
  const holes: { start: number; end: number }[] = []
  let other = false
  const visit = (n: AstNode, parent: AstNode | null): void => {
    if (!n || typeof n !== 'object') return
    if (Array.isArray(n)) {
      for (const c of n) visit(c, parent)
      return
    }
    if (typeof n.type !== 'string') return
    if (
      n.type === 'JSXExpressionContainer' &&
      n.expression.type === 'Identifier' &&
      n.expression.name === param
    ) {
      if (parent?.type === 'JSXElement' || parent?.type === 'JSXFragment')
        holes.push({ start: n.start, end: n.end })
      else other = true
      return
    }
    if ((n.type === 'Identifier' || n.type === 'JSXIdentifier') && n.name === param) other = true
    for (const [key, value] of Object.entries(n))
      if (key !== 'type' && value && typeof value === 'object') visit(value as AstNode, n)
  }
  visit(body, null)
  if (other || holes.length === 0) return null
  return { start: body.start, end: body.end, holes: holes.sort((a, b) => a.start - b.start) }
}

function attributes(
  node: AstNode,
  element: string,
  children: 'none' | 'render' = 'none',
): Built<Map<string, AstNode | null>> {
  const out = new Map<string, AstNode | null>()
  for (const attr of node.openingElement.attributes) {
    if (attr.type !== 'JSXAttribute')
      return { problem: `<${element} {...spread}> is not converted; write its props out` }
    const v = attr.value
    out.set(attr.name.name, v?.type === 'JSXExpressionContainer' ? v.expression : v)
  }
  if (hasChildren(node) && (children === 'none' || !renderChild(node)))
    return {
      problem:
        children === 'none'
          ? `<${element}> with children (a render function) is not converted`
          : `<${element}>'s children are not one render function (txt) => <element> showing {txt}; rewrite them by hand`,
    }
  return out
}

function formattedMessage(state: FileState, node: AstNode): Built<Parts> {
  const attrs = attributes(node, 'FormattedMessage', 'render')
  if (failed(attrs)) return attrs
  for (const key of attrs.keys())
    if (!['id', 'defaultMessage', 'description', 'values'].includes(key))
      return { problem: `<FormattedMessage>'s prop ${key} has no counterpart on <T>` }
  const text = staticString(attrs.get('defaultMessage'))
  if (text === null)
    return attrs.has('defaultMessage')
      ? { problem: 'its defaultMessage is not a literal text' }
      : {
          problem:
            'it has only an id; the text is in the catalog: give it its defaultMessage first (tms import maps the catalog)',
        }
  let meta: string | null = null
  if (attrs.has('description')) {
    const d = staticString(attrs.get('description'))
    if (d === null) return { problem: 'its description is not a literal text' }
    meta = `{ instruction: ${jsString(d)} }`
  }
  if (attrs.has('id')) state.count('explicit id dropped')
  const values = attrs.get('values')
  const render = hasChildren(node) ? renderChild(node) : null
  return {
    text,
    meta,
    values: values ? state.code.slice(values.start, values.end) : null,
    ...(render ? { render } : {}),
  }
}

const DATE_STYLES = new Set(['short', 'medium', 'long', 'full'])

function formattedValue(
  state: FileState,
  node: AstNode,
  element: 'FormattedNumber' | 'FormattedDate',
): Built<Parts> {
  const attrs = attributes(node, element)
  if (failed(attrs)) return attrs
  const value = attrs.get('value')
  if (!value) return { problem: `<${element}> has no value` }
  const named = valueName(value, state.code)
  const values = new Values()
  const name = failed(named) ? 'value' : named.name
  values.add(name, state.code.slice(value.start, value.end))
  let style = ''
  const rest = [...attrs.keys()].filter((k) => k !== 'value')
  if (element === 'FormattedNumber') {
    const s = staticString(attrs.get('style'))
    const currency = staticString(attrs.get('currency'))
    if (rest.length === 0) style = ''
    else if (s === 'percent' && rest.length === 1) style = ', percent'
    else if (s === 'currency' && currency && /^[A-Z]{3}$/.test(currency) && rest.length === 2)
      style = `, ::currency/${currency}`
    else
      return {
        problem: `<FormattedNumber>'s ${rest.join(', ')} have no ICU form this migration writes; write the number's skeleton by hand`,
      }
  } else {
    const s = staticString(attrs.get('dateStyle'))
    if (rest.length === 0) style = ''
    else if (s && DATE_STYLES.has(s) && rest.length === 1) style = `, ${s}`
    else
      return {
        problem: `<FormattedDate>'s ${rest.join(', ')} have no ICU form this migration writes; write the date's style by hand`,
      }
  }
  const kind = element === 'FormattedNumber' ? 'number' : 'date'
  return { text: `{${name}, ${kind}${style}}`, meta: null, values: values.text() }
}
