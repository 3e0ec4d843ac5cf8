/**
 * A keyword call read into its message and call site: `t('text', values, { variant })`, xgettext-style
 * argument positions (`_x:1,2c`), plural texts, and the default API's tagged template. What cannot be
 * known at build time (a spread, a computed text, options that are not a literal) is reported with a
 * stable code and the call skipped; the rest of the file goes on.
 */
import { sourceMessageProblem } from '../icu/check'
import { cannotBeIcu } from '../icu/parse'
import { APP_PLACEHOLDER_SOURCE } from '../model/placeholders'
import { type FileContext, MAX_TEXT_LENGTH } from './file-context'
import type { KeywordSpec } from './keywords'
import { markSite } from './module-level'
import {
  type AstNode,
  identifierName,
  isNullish,
  isObjectExpression,
  isRewrittenLookup,
  isSpread,
  propertyKey,
  staticNumber,
  staticString,
  unwrap,
} from './nodes'
import type { CallSite, Range } from './types'

function range(node: AstNode): Range {
  return { start: node.start, end: node.end }
}

function describe(spec: KeywordSpec): string {
  return `${spec.name}()`
}

/** Checks a text taken from the source; reports and returns false when it cannot be a message. */
function acceptText(ctx: FileContext, text: string, node: AstNode, spec: KeywordSpec, what: string): boolean {
  if (text.length > MAX_TEXT_LENGTH) {
    ctx.report(
      'error',
      'text-too-long',
      node.start,
      `the ${what} of ${describe(spec)} has ${text.length} characters; the service takes at most ${MAX_TEXT_LENGTH}`,
    )
    return false
  }
  if (text === '') {
    ctx.report(
      'warning',
      'empty-text',
      node.start,
      `the ${what} of ${describe(spec)} is empty; the call is skipped`,
    )
    return false
  }
  // ICU is the syntax of the app's own placeholders; a text in another format (`{0:N2}`, `%s`) is
  // the service's business, not checked as ICU.
  const icu =
    ctx.options.placeholder.custom !== APP_PLACEHOLDER_SOURCE || cannotBeIcu(text)
      ? undefined
      : sourceMessageProblem(text)
  if (icu) {
    ctx.report(
      'error',
      'icu-syntax',
      node.start,
      `the ${what} of ${describe(spec)} is not valid ICU MessageFormat: ${icu.problem}, at character ${icu.offset + 1} of ${JSON.stringify(text)}`,
    )
    return false
  }
  return true
}

interface CallOptions {
  variant: string | null
  instruction?: string
  maxLength?: number
}

/** Reads the default API's options object; null when the call must be skipped (reported). */
function readOptions(ctx: FileContext, node: AstNode | undefined, spec: KeywordSpec): CallOptions | null {
  const result: CallOptions = { variant: null }
  if (node === undefined || isNullish(node)) return result
  const object = unwrap(node)
  if (!isObjectExpression(object)) {
    ctx.report(
      'warning',
      'non-literal-options',
      node.start,
      `the options of ${describe(spec)} are not an object literal, so the variant cannot be known; the call is skipped`,
    )
    return null
  }
  for (const property of object.properties as AstNode[]) {
    const key = propertyKey(property)
    if (key === null) {
      const why = isSpread(property) ? 'a spread' : 'a computed key'
      ctx.report(
        'warning',
        'non-literal-options',
        property.start,
        `the options of ${describe(spec)} use ${why}, so the variant cannot be known; the call is skipped`,
      )
      return null
    }
    const value = property.value as AstNode
    if (key === 'variant') {
      if (isNullish(value)) continue
      const variant = staticString(value)
      if (variant === null) {
        ctx.report(
          'warning',
          'non-literal-variant',
          value.start,
          `the variant of ${describe(spec)} is not a string literal; the call is skipped`,
        )
        return null
      }
      result.variant = variant === '' ? null : variant
    } else if (key === 'instruction') {
      const instruction = staticString(value)
      if (instruction === null) {
        ctx.report(
          'warning',
          'non-literal-instruction',
          value.start,
          `the instruction of ${describe(spec)} is not a string literal; it is left out`,
        )
      } else result.instruction = instruction
    } else if (key === 'maxLength') {
      const maxLength = staticNumber(value)
      if (maxLength === null || !Number.isInteger(maxLength) || maxLength < 1) {
        ctx.report(
          'warning',
          'invalid-max-length',
          value.start,
          `the maxLength of ${describe(spec)} must be a positive whole number literal; it is left out`,
        )
      } else result.maxLength = maxLength
    }
  }
  return result
}

function argument(
  ctx: FileContext,
  args: AstNode[],
  index: number,
  call: AstNode,
  spec: KeywordSpec,
  what: string,
  code: string,
): string | null {
  for (let i = 0; i <= index && i < args.length; i++) {
    if (isSpread(args[i]!)) {
      ctx.report(
        'warning',
        code,
        args[i]!.start,
        `the ${what} of ${describe(spec)} comes from a spread argument; the call is skipped`,
      )
      return null
    }
  }
  const node = args[index]
  if (node === undefined) {
    ctx.report(
      'warning',
      'missing-argument',
      call.start,
      `${describe(spec)} has no ${what} (argument ${index + 1} of "${spec.source}"); the call is skipped`,
    )
    return null
  }
  const value = staticString(node)
  if (value === null) {
    ctx.report(
      'warning',
      code,
      node.start,
      `the ${what} of ${describe(spec)} is not a string literal, so it cannot be extracted; the call is skipped`,
    )
    return null
  }
  return value
}

/** One call of a keyword: adds its message(s) and call site, or reports why it cannot. */
export function handleCall(ctx: FileContext, call: AstNode, callee: AstNode, spec: KeywordSpec): void {
  // Lazy nodes give a Proxy-backed array; one copy makes the index reads below plain. The quick read's
  // nodes (quick.ts) hold a plain array already.
  const args: AstNode[] = call.plain === true ? call.arguments : [...(call.arguments as Iterable<AstNode>)]
  const textArgument = args[spec.text]
  if (textArgument !== undefined && isRewrittenLookup(textArgument, ctx.code)) return
  const text = argument(ctx, args, spec.text, call, spec, 'text', 'non-literal-text')
  if (text === null) return
  let plural: string | null = null
  if (spec.plural !== null) {
    plural = argument(ctx, args, spec.plural, call, spec, 'plural text', 'non-literal-plural')
    if (plural === null) return
  }
  let options: CallOptions = { variant: null }
  if (spec.context !== null) {
    const context = argument(ctx, args, spec.context, call, spec, 'context', 'non-literal-variant')
    if (context === null) return
    options.variant = context === '' ? null : context
  } else if (spec.defaultApi) {
    let spreadInFirstThree = false
    for (let i = 0; i < 3 && i < args.length; i++) if (isSpread(args[i]!)) spreadInFirstThree = true
    if (spreadInFirstThree) {
      const spread = args.find(isSpread)!
      ctx.report(
        'warning',
        'non-literal-options',
        spread.start,
        `${describe(spec)} has a spread argument, so the variant cannot be known; the call is skipped`,
      )
      return
    }
    const read = readOptions(ctx, args[2], spec)
    if (read === null) return
    options = read
  }
  const textNode = args[spec.text]!
  if (!acceptText(ctx, text, textNode, spec, 'text')) return
  if (plural !== null && !acceptText(ctx, plural, args[spec.plural!]!, spec, 'plural text')) return
  const meta = { instruction: options.instruction, maxLength: options.maxLength }
  const at = ctx.position(call.start)
  const main = ctx.addMessage(text, options.variant, meta, call.start, at)
  const second = plural === null ? null : ctx.addMessage(plural, options.variant, meta, call.start, at)
  if (ctx.options.messagesOnly) return
  const site: CallSite = {
    messageKey: main.key,
    kind: 'call',
    start: call.start,
    end: call.end,
    callee: range(callee),
    args: args.map(range),
    placeholders: main.placeholders,
    line: at.line,
    column: at.column,
  }
  if (second !== null) {
    site.pluralKey = second.key
    site.pluralPlaceholders = second.placeholders
  }
  markSite(ctx, site, spec)
  ctx.sites.push(site)
}

/** A tagged template of the default API: `` t`Hello ${name}` `` becomes `Hello {name}`. */
export function handleTagged(ctx: FileContext, node: AstNode, tag: AstNode, spec: KeywordSpec): void {
  if (!spec.defaultApi) {
    ctx.report(
      'warning',
      'unsupported-tagged-template',
      node.start,
      `"${spec.source}" lists argument positions, so ${spec.name} cannot be used as a template tag; the template is skipped`,
    )
    return
  }
  const quasi = node.quasi as AstNode
  const quasis = [...(quasi.quasis as Iterable<AstNode>)]
  const expressions = [...(quasi.expressions as Iterable<AstNode>)]
  let text = ''
  const named: (Range & { name: string })[] = []
  for (let i = 0; i < quasis.length; i++) {
    const cooked = quasis[i]!.value.cooked as string | null | undefined
    if (typeof cooked !== 'string') {
      ctx.report(
        'warning',
        'non-literal-text',
        quasis[i]!.start,
        `the template of ${spec.name}\`\` has an invalid escape sequence; the template is skipped`,
      )
      return
    }
    text += cooked
    const expression = expressions[i]
    if (expression !== undefined) {
      const name = identifierName(unwrap(expression)) ?? String(i)
      named.push({ start: expression.start, end: expression.end, name })
      text += `{${name}}`
    }
  }
  if (!acceptText(ctx, text, node, spec, 'text')) return
  const at = ctx.position(node.start)
  const { key, placeholders } = ctx.addMessage(text, null, {}, node.start, at)
  if (ctx.options.messagesOnly) return
  const site: CallSite = {
    messageKey: key,
    kind: 'tagged',
    start: node.start,
    end: node.end,
    callee: range(tag),
    args: [],
    expressions: named,
    placeholders,
    line: at.line,
    column: at.column,
  }
  markSite(ctx, site, spec)
  ctx.sites.push(site)
}
