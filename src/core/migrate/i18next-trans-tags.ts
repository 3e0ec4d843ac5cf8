import { collapseJsxText, decodeEntities } from '../extract/jsx-text'
import type { AstNode } from '../extract/nodes'
import { renameIcu } from '../import/icu-text'
import type { Built, Values } from './message'
import { staticString } from './walk'

/**
 * react-i18next's `<Trans>` elements as our named tags. Its text numbers the elements it wraps by
 * their index among the `<Trans>`'s children as React passes them (`Hello <1>{{name}}</1>` for
 * `Hello <strong>{{name}}</strong>`: the text "Hello " is child 0), counted again inside each element
 * (`<1>see <0>docs</0></1>`); an array `components={[<b />]}` is indexed as one list at every depth.
 * `<br>`, `<strong>`, `<i>`, `<p>` without props keep their names (its `transKeepBasicHtmlNodesFor`),
 * and a `components={{ link: <a /> }}` object names its tags. Each element becomes a tag named as
 * `<T>` names elements (`<Link>` is `<Link>`, a second `<a>` is `<a2>`), rendered by a function that
 * wraps the translation's chunk in the same element, props and all.
 */

/** One child of `<Trans>` (or of an element in it) as React sees it, at its index. */
export type TransChild =
  | { kind: 'text'; text: string }
  | { kind: 'element'; node: AstNode; type: string | null; children: TransChild[] }
  | { kind: 'object'; name: string; expression: string; format?: string }
  | { kind: 'other'; expression: string }

const KEPT = ['br', 'strong', 'i', 'p']
const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr', 'area', 'col', 'embed', 'source', 'track'])

/** The element's name as `<T>` names its tag: `<motion.div>` is `div`, `<svg:path>` is `path`. */
function tagBase(name: AstNode): string {
  if (name.type === 'JSXIdentifier') return name.name
  if (name.type === 'JSXMemberExpression') return name.property.name
  return name.name.name
}

/**
 * JSX children as React's compilers hand them over: text collapsed by JSX's white-space rules (a
 * text that collapses to nothing is no child), `{/* comments *\/}` dropped, every other expression
 * and element one child each. The indexes of this list are react-i18next's tag numbers.
 */
export function transChildren(nodes: readonly AstNode[], code: string): Built<TransChild[]> {
  const out: TransChild[] = []
  for (const node of nodes) {
    if (node.type === 'JSXText') {
      const text = collapseJsxText(decodeEntities(node.value as string))
      if (text !== '') out.push({ kind: 'text', text })
    } else if (node.type === 'JSXExpressionContainer') {
      const e = node.expression
      if (e.type === 'JSXEmptyExpression') continue
      const literal = staticString(e)
      if (literal !== null) out.push({ kind: 'text', text: literal })
      else if (e.type === 'ObjectExpression') {
        const object = interpolationObject(e, code)
        if ('problem' in object) return object
        out.push(object)
      } else out.push({ kind: 'other', expression: code.slice(e.start, e.end) })
    } else if (node.type === 'JSXElement') {
      const inner = transChildren(node.children, code)
      if ('problem' in inner) return inner
      const name = node.openingElement.name
      out.push({
        kind: 'element',
        node,
        type: name.type === 'JSXIdentifier' && /^[a-z]/.test(name.name) ? name.name : null,
        children: inner,
      })
    } else if (node.type === 'JSXFragment')
      return {
        problem:
          "a fragment (<>...</>) among <Trans>'s children is not converted; write its children in place",
      }
    else return { problem: `${node.type} among <Trans>'s children is not converted` }
  }
  return out
}

/** `{{name}}` or `{{ name: user.name, format: 'x' }}`: react-i18next's interpolation child. */
function interpolationObject(e: AstNode, code: string): TransChild | { problem: string } {
  let format: string | undefined
  const named: { name: string; expression: string }[] = []
  for (const p of e.properties) {
    const key = p.type === 'Property' && !p.computed ? (p.key.name ?? p.key.value) : undefined
    if (typeof key !== 'string')
      return { problem: `{${code.slice(e.start, e.end)}} in <Trans> is not a plain {{name}}` }
    if (key === 'format') format = staticString(p.value) ?? undefined
    else named.push({ name: key, expression: code.slice(p.value.start, p.value.end) })
  }
  if (named.length !== 1)
    return {
      problem: `{${code.slice(e.start, e.end)}} in <Trans> names ${named.length} values; react-i18next reads one`,
    }
  const child: TransChild = { kind: 'object', ...named[0]! }
  if (format !== undefined) child.format = format
  return child
}

/** The number of props React gives an element: its attributes, and `children` when it has some. */
function propCount(child: Extract<TransChild, { kind: 'element' }>): number {
  return child.node.openingElement.attributes.length + (child.children.length > 0 ? 1 : 0)
}

/**
 * The text react-i18next makes of the children (its `nodesToString`): the key of a `<Trans>` without
 * `i18nKey` and the text shown when the catalog lacks the key. Null when a child's text is only
 * known at run time (`{name}` rather than `{{name}}`).
 */
export function childrenText(children: readonly TransChild[]): string | null {
  let out = ''
  for (const [index, child] of children.entries()) {
    if (child.kind === 'text') out += child.text
    else if (child.kind === 'object')
      out += `{{${child.format ? `${child.name}, ${child.format}` : child.name}}}`
    else if (child.kind === 'other') return null
    else {
      const kept = child.type !== null && KEPT.includes(child.type)
      const props = propCount(child)
      if (child.children.length === 0 && kept && props === 0) out += `<${child.type}/>`
      else if (child.children.length === 0) out += `<${index}></${index}>`
      else {
        const inner = childrenText(child.children)
        if (inner === null) return null
        out +=
          kept && props <= 1 ? `<${child.type}>${inner}</${child.type}>` : `<${index}>${inner}</${index}>`
      }
    }
  }
  return out
}

/** The values the children name (`{{name}}`), as react-i18next collects them at every depth. */
export function childValues(children: readonly TransChild[], values: Values): string | undefined {
  for (const child of children) {
    if (child.kind === 'object') {
      if (child.format !== undefined)
        return `{{${child.name}, format: '${child.format}'}} is formatted by i18next; write it as ICU ({x, number}, {x, date}) in a <T> by hand`
      const clash = values.add(child.name, child.expression)
      if (clash) return clash
    } else if (child.kind === 'element') {
      const problem = childValues(child.children, values)
      if (problem) return problem
    }
  }
  return undefined
}

export interface TransTagSources {
  code: string
  /** The `<Trans>`'s children, whose indexes number the tags (when `components` is not an array). */
  children: readonly TransChild[]
  /** `components={[...]}`: the elements the numbers index, at every depth. */
  array?: readonly AstNode[]
  /** `components={{ name: <el /> }}`. */
  named?: ReadonlyMap<string, AstNode>
}

interface Frame {
  scope: readonly TransChild[]
  /** How many bare `<strong>`s (etc.) this level has had: the n-th one scopes into the n-th child. */
  kept: Map<string, number>
  /** The tag name the opening tag got, for its closing tag. */
  name: string
}

/** What react-i18next renders for one tag: an element of the code, or a bare HTML element. */
interface Found {
  /** The element (its props kept), or null for a bare `<strong>` that react-i18next makes itself. */
  element: AstNode | null
  /** The name `<T>` would give it. */
  base: string
  /** The same tag found twice gets one name: the element, or the text's own name. */
  identity: AstNode | string
  /** The children the numbers inside it count. */
  scope: readonly TransChild[]
}

/**
 * Renames the tags of `text` (our ICU form of the catalog's text) into `<T>`'s names and adds to
 * `values` the function that renders each; a problem names the tag that has no element.
 */
export function renameTransTags(text: string, sources: TransTagSources, values: Values): Built<string> {
  const names = new Map<AstNode | string, string>()
  const taken = new Set<string>(values.entries.keys())
  // Names the text spells out keep them: a numbered element takes the next free one.
  for (const m of text.matchAll(/<\/?([A-Za-z_-][\w-]*)\s*\/?>/g)) taken.add(m[1]!)
  const nameOf = (found: Found): string => {
    let name = names.get(found.identity)
    if (name !== undefined) return name
    name = found.base
    if (typeof found.identity !== 'string') for (let n = 2; taken.has(name); n++) name = `${found.base}${n}`
    taken.add(name)
    names.set(found.identity, name)
    return name
  }
  const problems: string[] = []
  const stack: Frame[] = [{ scope: sources.children, kept: new Map(), name: '' }]
  const renamed = renameIcu(text, {}, (tag, kind) => {
    if (kind === 'close') return stack.length > 1 ? stack.pop()!.name : tag
    const frame = stack[stack.length - 1]!
    const found = elementOf(tag, frame, sources)
    if ('problem' in found) {
      problems.push(found.problem)
      return tag
    }
    const fresh = !names.has(found.identity)
    const name = nameOf(found)
    if (fresh) {
      const problem = found.element
        ? addElement(name, found.element, sources.code, values)
        : values.add(
            name,
            VOID.has(tag)
              ? `() => <${tag} key="${name}" />`
              : `(chunks) => <${tag} key="${name}">{chunks}</${tag}>`,
          )
      if (problem) problems.push(problem)
    }
    if (kind === 'open') stack.push({ scope: found.scope, kept: new Map(), name })
    return name
  })
  const problem = problems[0] ?? renamed.problems[0]
  return problem ? { problem } : renamed.text
}

/** What react-i18next renders for the tag `<tag>` at this level of the text. */
function elementOf(tag: string, frame: Frame, sources: TransTagSources): Found | { problem: string } {
  // The import names a nested number by its path (`1-0`: child 0 of element 1); its index is the last.
  const numbered = /(?:^|-)(\d+)$/.exec(tag)
  if (numbered) {
    const index = Number(numbered[1])
    if (sources.array) {
      const element = sources.array[index]
      if (element?.type !== 'JSXElement')
        return { problem: `its tag <${tag}> has no element in <Trans>'s components array` }
      return { element, base: tagBase(element.openingElement.name), identity: element, scope: [] }
    }
    const child = frame.scope[index]
    if (child?.kind !== 'element') {
      const what =
        child === undefined
          ? 'no child'
          : `the ${child.kind === 'text' ? `text ${JSON.stringify(child.text)}` : `value ${child.kind === 'object' ? `{{${child.name}}}` : `{${child.expression}}`}`}`
      return {
        problem: `its tag <${tag}> is ${what} of <Trans> (react-i18next counts the children from 0: texts, values and elements alike)`,
      }
    }
    const node = child.node
    return { element: node, base: tagBase(node.openingElement.name), identity: node, scope: child.children }
  }
  const component = sources.named?.get(tag)
  if (component) {
    if (component.type !== 'JSXElement')
      return {
        problem: `its component ${tag} is not written as an element here; write the tag's function by hand`,
      }
    return { element: component, base: tag, identity: tag, scope: [] }
  }
  if (KEPT.includes(tag)) {
    // react-i18next renders a bare <strong> itself; numbers inside it count the n-th <strong> child's.
    const seen = frame.kept.get(tag) ?? 0
    frame.kept.set(tag, seen + 1)
    const match = frame.scope.filter((c) => c.kind === 'element' && c.type === tag)[seen]
    return {
      element: null,
      base: tag,
      identity: tag,
      scope: match?.kind === 'element' ? match.children : frame.scope,
    }
  }
  return {
    problem: `the tag <${tag}> of its text has no component (react-i18next prints an unknown tag as text); name it in components={{ ${tag}: <... /> }}`,
  }
}

/** `name: (chunks) => <Link key="name" to="/">{chunks}</Link>`: the element around the chunk. */
function addElement(name: string, element: AstNode, code: string, values: Values): string | undefined {
  const opening = element.openingElement
  const open = code.slice(opening.start, opening.end).replace(/\s*\/?>$/, '')
  const tagName = code.slice(opening.name.start, opening.name.end)
  const keyed = /\skey=/.test(open) ? open : open.replace(/^<[^\s/>]+/, (m) => `${m} key="${name}"`)
  return values.add(
    name,
    VOID.has(tagName) ? `() => ${keyed} />` : `(chunks) => ${keyed}>{chunks}</${tagName}>`,
  )
}
