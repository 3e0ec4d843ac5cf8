/**
 * One `<T>` element read into its message, its pieces and its call site. Tags take the element's name
 * (`<Link>` is `<Link>`, `<motion.div>` is `<div>`); a second, different element of one name gets a
 * number (`<a>`, `<a2>`), so the translator can reorder them. An element's props stay in the code.
 * `{name}` and `{user.name}` are `{name}`; string and number literals are text (jsx-text.ts). What
 * cannot be known at build time skips the element with a reason.
 */
import { sourceMessageProblem } from '../icu/check'
import { type FileContext, MAX_TEXT_LENGTH } from './file-context'
import { collapseJsxText, decodeEntities, quoteIcu } from './jsx-text'
import { type AstNode, memberPath, staticNumber, staticString } from './nodes'
import type { JsxPiece, JsxTag } from './types'

/** An element's name as written: `a`, `Link`, `motion.div`, `svg:path`. */
export function writtenName(name: AstNode): string {
  if (name.type === 'JSXIdentifier') return name.name as string
  if (name.type === 'JSXMemberExpression') return `${writtenName(name.object)}.${name.property.name}`
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`
  return ''
}

/** Thrown inside the walk of one element: the reason it is skipped, reported at `offset`. */
class Skip {
  constructor(
    readonly code: string,
    readonly offset: number,
    readonly text: string,
  ) {}
}

interface Meta {
  variant: string | null
  instruction?: string
  maxLength?: number
}

/** One `<T>` element: its message, its pieces and its call site. */
export class TElement {
  private text = ''
  private readonly pieces: JsxPiece[] = []
  /** Placeholder name -> the expression it stands for (its source), to catch two in one name. */
  private readonly values = new Map<string, string>()
  /** The tag names taken; they are kept clear of the placeholders' names. */
  private readonly tags = new Set<string>()
  private valueNames = new Set<string>()

  constructor(
    private readonly ctx: FileContext,
    private readonly node: AstNode,
    private readonly names: Set<string>,
  ) {}

  extract(): void {
    const { ctx, node } = this
    const open = node.openingElement as AstNode
    // The plugin's own output (`<T _={...} />`): a lookup already, with no children left. A `<T msg={label} />`
    // renders a descriptor, extracted where `msg(...)` defined it.
    if (
      (open.attributes as AstNode[]).some(
        (a) => a.type === 'JSXAttribute' && (a.name.name === '_' || a.name.name === 'msg'),
      )
    )
      return
    let meta: Meta
    try {
      meta = this.props(open)
      this.valueNames = this.collectValueNames(node.children)
      this.children(node.children)
    } catch (error) {
      if (!(error instanceof Skip)) throw error
      ctx.report('warning', error.code, error.offset, `${error.text}; the <T> element is skipped`)
      return
    }
    if (!this.accept()) return
    const at = ctx.position(node.start)
    const { key, placeholders } = ctx.addMessage(this.text, meta.variant, meta, node.start, at)
    if (ctx.options.messagesOnly) return
    ctx.sites.push({
      messageKey: key,
      kind: 'jsx',
      start: node.start,
      end: node.end,
      callee: { start: open.name.start, end: open.name.end },
      args: [],
      jsx: { open: { start: open.start, end: open.end }, pieces: this.pieces },
      placeholders,
      line: at.line,
      column: at.column,
    })
  }

  /** The build-time props: variant, instruction, maxLength. */
  private props(open: AstNode): Meta {
    const meta: Meta = { variant: null }
    for (const attribute of open.attributes as AstNode[]) {
      if (attribute.type === 'JSXSpreadAttribute') {
        throw new Skip(
          'jsx-spread',
          attribute.start,
          '<T> has a spread of props ({...}), so its variant cannot be known at build time; write variant, instruction and maxLength as literal props',
        )
      }
      const name = attribute.name.type === 'JSXIdentifier' ? (attribute.name.name as string) : ''
      if (name !== 'variant' && name !== 'instruction' && name !== 'maxLength') continue
      const value = attribute.value as AstNode | null
      const inner = value?.type === 'JSXExpressionContainer' ? (value.expression as AstNode) : value
      if (name === 'maxLength') {
        const n = inner ? staticNumber(inner) : null
        if (n === null || !Number.isInteger(n) || n < 1) {
          throw new Skip(
            'invalid-max-length',
            attribute.start,
            '<T maxLength> must be a positive whole number literal: maxLength={40}',
          )
        }
        meta.maxLength = n
        continue
      }
      const text = inner ? staticString(inner) : null
      if (text === null) {
        throw new Skip(
          name === 'variant' ? 'non-literal-variant' : 'non-literal-instruction',
          attribute.start,
          `<T ${name}> is not a string literal, so it cannot be known at build time: ${name}="..."`,
        )
      }
      if (name === 'variant') meta.variant = text === '' ? null : text
      else meta.instruction = text
    }
    return meta
  }

  /** The names the `{values}` take, so that no tag takes one of them. */
  private collectValueNames(children: AstNode[]): Set<string> {
    const out = new Set<string>()
    const walk = (list: AstNode[]): void => {
      for (const child of list) {
        if (child.type === 'JSXExpressionContainer') {
          const path = memberPath(child.expression)
          if (path !== null) out.add(path[path.length - 1]!)
        } else if (child.type === 'JSXElement' || child.type === 'JSXFragment') walk(child.children)
      }
    }
    walk(children)
    return out
  }

  private children(list: AstNode[]): void {
    for (const child of list) {
      switch (child.type) {
        case 'JSXText':
          this.text += quoteIcu(collapseJsxText(decodeEntities(child.value as string)))
          break
        case 'JSXExpressionContainer':
          this.expression(child.expression as AstNode)
          break
        case 'JSXFragment':
          this.children(child.children)
          break
        case 'JSXElement':
          this.element(child)
          break
        default:
          throw new Skip(
            'jsx-expression',
            child.start,
            `<T> holds a spread child ({...}), which cannot be part of a message; put the items in the message or outside <T>`,
          )
      }
    }
  }

  private expression(expression: AstNode): void {
    if (expression.type === 'JSXEmptyExpression') return
    const literal = staticString(expression)
    if (literal !== null) {
      this.text += quoteIcu(literal)
      return
    }
    const number = staticNumber(expression)
    if (number !== null) {
      this.text += String(number)
      return
    }
    const path = memberPath(expression)
    const source = this.ctx.code.slice(expression.start, expression.end)
    if (path === null || path[path.length - 1] === 'this') {
      throw new Skip(
        'jsx-expression',
        expression.start,
        `{${source}} in <T> cannot name a placeholder; give it a name first (const total = ${source}) and write {total}`,
      )
    }
    const name = path[path.length - 1]!
    const known = this.values.get(name)
    if (known !== undefined && known !== path.join('.')) {
      throw new Skip(
        'jsx-expression',
        expression.start,
        `{${source}} and {${known}} in <T> would both be the placeholder {${name}}; give one another name (const ${name}2 = ${source})`,
      )
    }
    this.values.set(name, path.join('.'))
    this.pieces.push({ kind: 'value', name, start: expression.start, end: expression.end })
    this.text += `{${name}}`
  }

  private element(element: AstNode): void {
    const open = element.openingElement as AstNode
    const written = writtenName(open.name)
    if (this.names.has(written)) {
      throw new Skip(
        'jsx-nested',
        element.start,
        '<T> holds another <T>; a message cannot hold a message: write the inner text as part of the outer one',
      )
    }
    const name = this.tagName(written)
    const keyed = (open.attributes as AstNode[]).some(
      (a) => a.type === 'JSXAttribute' && a.name.type === 'JSXIdentifier' && a.name.name === 'key',
    )
    const close = element.closingElement as AstNode | null
    const tag: JsxTag = {
      kind: 'tag',
      name,
      start: open.start,
      end: open.end,
      close: close ? this.ctx.code.slice(close.name.start, close.name.end) : null,
      // After the name and any type arguments (`<List<Item>`): where a prop may stand.
      key: keyed ? null : ((open.typeArguments as AstNode | null)?.end ?? open.name.end),
    }
    this.pieces.push(tag)
    this.text += `<${name}>`
    this.children(element.children)
    this.text += `</${name}>`
  }

  /** A tag name of letters, digits, `_` and `-` (ICU's), unique in this message. */
  private tagName(written: string): string {
    const last = written
      .split(/[.:]/)
      .pop()!
      .replace(/[^\w-]/g, '')
    const base = /^[A-Za-z]/.test(last) ? last : `x${last}`
    let name = base
    for (let n = 2; this.tags.has(name) || this.valueNames.has(name); n++) name = `${base}${n}`
    this.tags.add(name)
    return name
  }

  /** The checks a message's text passes; reports and returns false when it cannot be a message. */
  private accept(): boolean {
    const { ctx, node, text } = this
    if (text.length > MAX_TEXT_LENGTH) {
      ctx.report(
        'error',
        'text-too-long',
        node.start,
        `the message of <T> has ${text.length} characters; the service takes at most ${MAX_TEXT_LENGTH}`,
      )
      return false
    }
    if (text.trim() === '' && this.pieces.length === 0) {
      ctx.report('warning', 'empty-text', node.start, 'the message of <T> is empty; the element is skipped')
      return false
    }
    const icu = sourceMessageProblem(text)
    if (icu) {
      ctx.report(
        'error',
        'icu-syntax',
        node.start,
        `the message of <T> is not valid ICU MessageFormat: ${icu.problem}, at character ${icu.offset + 1} of ${JSON.stringify(text)}`,
      )
      return false
    }
    return true
  }
}
