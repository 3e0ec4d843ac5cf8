import { relative } from 'node:path'
import { sourceMessageProblem } from '../icu/check'
import { cannotBeIcu } from '../icu/parse'
import {
  APP_PLACEHOLDER_SOURCE,
  type ParsedText,
  type PlaceholderSpec,
  parsePlaceholders,
  placeholderRegex,
  placeholderTrigger,
} from '../model/placeholders'
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
import type { ResolvedExtractOptions } from './options'
import { type CallSite, type Diagnostic, type Message, messageKey, type Range } from './types'

interface Memo {
  /**
   * Whether a text may hold a placeholder: a character every placeholder of the spec starts with, or
   * the spec's regex (non-global) when there is no such character; null when the spec knows none.
   */
  trigger: string | RegExp | null
  parsed: Map<string, ParsedText>
}

const parsedMemo = new Map<string, Memo>()

/** What tells that a text may hold a placeholder: the spec's trigger character, else its regex. */
function triggerOf(spec: PlaceholderSpec): string | RegExp | null {
  const trigger = placeholderTrigger(spec)
  if (trigger !== undefined) return trigger
  const re = placeholderRegex(spec)
  return re === null ? null : new RegExp(re.source, re.flags.replace('g', ''))
}

const memoOfOptions = new WeakMap<ResolvedExtractOptions, Memo>()

/** memoFor(options.placeholder), looked up once per resolved options rather than once per file. */
function memoOf(options: ResolvedExtractOptions): Memo {
  let memo = memoOfOptions.get(options)
  if (memo === undefined) {
    memo = memoFor(options.placeholder)
    memoOfOptions.set(options, memo)
  }
  return memo
}

/** The memo of parsePlaceholders results for one spec: the same texts recur across a codebase. */
function memoFor(spec: PlaceholderSpec): Memo {
  const specKey =
    spec.custom != null && spec.custom !== '' ? `c:${spec.custom}` : `f:${spec.format ?? 'none'}`
  let memo = parsedMemo.get(specKey)
  if (memo === undefined) {
    memo = { trigger: triggerOf(spec), parsed: new Map() }
    parsedMemo.set(specKey, memo)
  }
  return memo
}

const NO_PLACEHOLDERS: readonly string[] = Object.freeze([] as string[])

/**
 * parsePlaceholders through the memo. Most texts hold no placeholder: looking for the trigger (no
 * trigger means parsePlaceholders would find none) is cheaper than hashing the text into the memo.
 */
function parseCached(text: string, spec: PlaceholderSpec, memo: Memo): ParsedText {
  const trigger = memo.trigger
  if (trigger === null || (typeof trigger === 'string' ? !text.includes(trigger) : !trigger.test(text))) {
    return { parsed: text, placeholders: NO_PLACEHOLDERS as string[] }
  }
  let parsed = memo.parsed.get(text)
  if (parsed === undefined) {
    parsed = parsePlaceholders(text, spec)
    // Bounded: a long-lived dev server meets ever new texts.
    if (memo.parsed.size >= 100_000) memo.parsed.clear()
    memo.parsed.set(text, parsed)
  }
  return parsed
}

/** The service's limit on `stringText`. */
export const MAX_TEXT_LENGTH = 10000

/** Per-file state of one extraction: what the call handlers below fill in. */
export class FileContext {
  readonly file: string
  readonly code: string
  readonly options: ResolvedExtractOptions
  readonly sites: CallSite[] = []
  readonly messages: Map<string, Message> = new Map()
  readonly diagnostics: Diagnostic[] = []
  /**
   * The functions and classes of the program being scanned, given by its scanner (a function when it
   * computes them only if a call asks), for `markSite` (module-level.ts). Null: not known.
   */
  deferred: readonly Range[] | (() => readonly Range[]) | null = null
  #lineStarts: number[] | null = null
  readonly #memo: Memo

  constructor(file: string, code: string, options: ResolvedExtractOptions) {
    this.file = file
    this.code = code
    this.options = options
    this.#memo = memoOf(options)
  }

  /** 1-based line and column (UTF-16 code units) of an offset. */
  position(offset: number): { line: number; column: number } {
    if (this.#lineStarts === null) {
      const starts = [0]
      const code = this.code
      for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1)
      this.#lineStarts = starts
    }
    const starts = this.#lineStarts
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 }
  }

  report(severity: Diagnostic['severity'], code: string, offset: number | null, text: string): void {
    const rel = relative(this.options.cwd, this.file) || this.file
    if (offset === null) {
      this.diagnostics.push({ severity, code, message: `${rel}: ${text}`, file: this.file })
      return
    }
    const { line, column } = this.position(offset)
    this.diagnostics.push({
      severity,
      code,
      message: `${rel}:${line}:${column}: ${text}`,
      file: this.file,
      line,
      column,
    })
  }

  /** Adds one use of a message; returns its key and this site's placeholder spellings. */
  addMessage(
    text: string,
    variant: string | null,
    meta: { instruction?: string; maxLength?: number },
    offset: number,
    at: { line: number; column: number },
  ): { key: string; placeholders: string[] } {
    const { parsed, placeholders: shared } = parseCached(text, this.options.placeholder, this.#memo)
    // The memo's array is shared between sites; each site and message gets its own copy, but the
    // empty list (most texts) is one frozen array: tens of thousands fewer objects that live on.
    const placeholders = shared.length === 0 ? (NO_PLACEHOLDERS as string[]) : [...shared]
    const namespace = this.options.namespace
    const key = messageKey(parsed, variant, namespace)
    const location = { file: this.file, line: at.line, column: at.column }
    const existing = this.messages.get(key)
    if (existing === undefined) {
      const message: Message = {
        key,
        text,
        parsed,
        placeholders: placeholders.length === 0 ? placeholders : [...placeholders],
        variant,
        namespace,
        locations: [location],
      }
      if (meta.instruction !== undefined) message.instruction = meta.instruction
      if (meta.maxLength !== undefined) message.maxLength = meta.maxLength
      this.messages.set(key, message)
    } else {
      existing.locations.push(location)
      if (meta.instruction !== undefined || meta.maxLength !== undefined) {
        mergeMeta(existing, meta, (what) =>
          this.report('warning', 'conflicting-metadata', offset, `${what}; the first one is kept`),
        )
      }
    }
    return { key, placeholders }
  }
}

/** Folds a later use's instruction/maxLength into a message; reports a conflict through `warn`. */
export function mergeMeta(
  message: Message,
  meta: { instruction?: string; maxLength?: number },
  warn: (what: string) => void,
): void {
  if (meta.instruction !== undefined) {
    if (message.instruction === undefined) message.instruction = meta.instruction
    else if (message.instruction !== meta.instruction) {
      warn(`message ${JSON.stringify(message.text)} has two different instructions`)
    }
  }
  if (meta.maxLength !== undefined) {
    if (message.maxLength === undefined) message.maxLength = meta.maxLength
    else if (message.maxLength !== meta.maxLength) {
      warn(`message ${JSON.stringify(message.text)} has two different maxLength values`)
    }
  }
}

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
