/**
 * The `<template>` of a .vue file: its expressions read with Vue's own parser (vue/compiler-sfc, from
 * the app's project, loaded only when a .vue file is met) and handed to the same oxc scan as scripts,
 * and `<T msg="...">` (unplugin-tms/vue's component) read as a message of its own.
 *
 * Vue reports every node with its offset in the whole file. All the template's expressions become one
 * program of the file's length, each expression at its own offset and the rest blank, so one parse
 * finds every call with the offsets of the original file (as script blocks are padded in sources.ts).
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { sourceMessageProblem } from '../icu/check'
import { cannotBeIcu } from '../icu/parse'
import { APP_PLACEHOLDER_SOURCE } from '../model/placeholders'
import { type FileContext, MAX_TEXT_LENGTH } from './file-context'
import type { ParseUnit } from './sources'
import type { Markup } from './types'

/** The few fields of Vue's template AST read here (vue/compiler-sfc, Vue 3.4+). */
interface Loc {
  start: { offset: number }
  end: { offset: number }
}
interface VueExpression {
  content: string
  isStatic?: boolean
  loc: Loc
}
interface VueProp {
  type: number
  name: string
  loc: Loc
  nameLoc?: Loc
  value?: { content: string; loc: Loc }
  exp?: VueExpression
  arg?: VueExpression
  forParseResult?: { source: VueExpression }
}
interface VueNode {
  type: number
  tag?: string
  props?: VueProp[]
  children?: VueNode[]
  content?: VueExpression | string
  loc: Loc
}
interface VueBlock {
  lang?: string
  ast?: VueNode
  loc: Loc
}
interface CompilerSfc {
  parse(
    source: string,
    options: {
      filename: string
      sourceMap: boolean
      templateParseOptions?: { prefixIdentifiers?: boolean }
    },
  ): {
    descriptor: { template: VueBlock | null; script: VueBlock | null; scriptSetup: VueBlock | null }
    errors: (Error & { loc?: Loc })[]
  }
}

// Node types of @vue/compiler-core (its NodeTypes enum).
const ELEMENT = 1
const INTERPOLATION = 5
const ATTRIBUTE = 6
const DIRECTIVE = 7

/** The component whose `msg` attribute is a message; unplugin-tms/vue exports it under this name. */
export const MESSAGE_COMPONENT = 'T'
/**
 * A `<T ... msg=` in a text: such a file has a message even when no keyword call is written in it
 * (the pre-check of extraction and the transform's code filter ask for it).
 */
export const MESSAGE_COMPONENT_MENTION: RegExp = /<T\s[^>]*?\bmsg\s*=/

const compilers = new Map<string, CompilerSfc | Error>()

/**
 * Vue's SFC compiler as the app's project resolves it: `vue/compiler-sfc` (it ships with vue), else
 * `@vue/compiler-sfc`. Synchronous, so it loads the same in a worker thread; cached per project.
 */
function compilerFor(cwd: string): CompilerSfc | Error {
  let found = compilers.get(cwd)
  if (found === undefined) {
    const require = createRequire(join(cwd, 'package.json'))
    found = new Error('not found')
    for (const name of ['vue/compiler-sfc', '@vue/compiler-sfc']) {
      try {
        found = require(name) as CompilerSfc
        break
      } catch (error) {
        found = error as Error
      }
    }
    compilers.set(cwd, found)
  }
  return found
}

function piece(exp: VueExpression): Omit<Piece, 'markup'> {
  return { start: exp.loc.start.offset, end: exp.loc.end.offset, open: '(' }
}

function markupAt(code: string, exp: VueExpression | undefined): Markup {
  const before = exp ? code[exp.loc.start.offset - 1] : undefined
  return before === '"' ? 'double' : before === "'" ? 'single' : before === '=' ? 'unquoted' : 'text'
}

/** One template expression and how it is written into the program. */
interface Piece {
  start: number
  end: number
  /** `(...)` for an expression, `{...}` for the statements of an event handler. */
  open: '(' | '{'
  markup: Markup
}

// An inline function handler (`@click="() => ..."`, `function () {}`) is an expression; any other
// handler is statements, as Vue compiles them. `v-on="{ click: f }"` (no event) is an object.
const FUNCTION_HANDLER =
  /^\s*(?:async\s+)?(?:\([^)]*?\)|[\w$]+)\s*(?::[^=]+)?=>|^\s*(?:async\s+)?function[\s*(]/

function expressionPiece(
  code: string,
  exp: VueExpression | undefined,
  pieces: Piece[],
  statements = false,
): void {
  if (!exp || exp.isStatic || exp.loc.end.offset <= exp.loc.start.offset) return
  const open = statements && !FUNCTION_HANDLER.test(exp.content) ? '{' : '('
  pieces.push({ ...piece(exp), open, markup: markupAt(code, exp) })
}

function visitElement(ctx: FileContext, node: VueNode, pieces: Piece[]): boolean {
  const props = node.props ?? []
  // `v-pre`: Vue shows the element's content as written.
  if (props.some((p) => p.type === DIRECTIVE && p.name === 'pre')) return false
  for (const prop of props) {
    if (prop.type === ATTRIBUTE) {
      if (node.tag === MESSAGE_COMPONENT && prop.name === 'msg') componentMessage(ctx, node, prop)
      continue
    }
    if (prop.type !== DIRECTIVE) continue
    // A slot's parameters declare names; they call nothing.
    if (prop.name === 'slot') continue
    // v-for's source sits inside the attribute: the quote is the one before `item in`.
    if (prop.name === 'for') {
      const source = prop.forParseResult?.source
      if (source) pieces.push({ ...piece(source), markup: markupAt(ctx.code, prop.exp) })
    } else expressionPiece(ctx.code, prop.exp, pieces, prop.name === 'on' && prop.arg !== undefined)
  }
  return true
}

function collect(ctx: FileContext, node: VueNode, pieces: Piece[]): void {
  if (node.type === INTERPOLATION && typeof node.content === 'object') {
    expressionPiece(ctx.code, node.content, pieces)
  }
  if (node.type === ELEMENT && !visitElement(ctx, node, pieces)) return
  for (const child of node.children ?? []) collect(ctx, child, pieces)
}

/** The static attributes of `<T>` that are build-time metadata of its message. */
function staticAttribute(node: VueNode, name: string): string | undefined {
  for (const p of node.props ?? []) if (p.type === ATTRIBUTE && p.name === name) return p.value?.content
  return undefined
}

/**
 * `<T msg="Read the <link>terms</link>">`: the attribute's text (entities decoded, as Vue passes it)
 * is one message; `variant` and `instruction` attributes are its metadata. The site is the attribute,
 * which the transform turns into a lookup bound to the message's id.
 */
function componentMessage(ctx: FileContext, node: VueNode, prop: VueProp): void {
  const at = prop.loc.start.offset
  const text = prop.value?.content
  if (text === undefined || text === '') {
    ctx.report('warning', 'empty-text', at, `the msg of <${MESSAGE_COMPONENT}> is empty; it is skipped`)
    return
  }
  if (text.length > MAX_TEXT_LENGTH) {
    ctx.report(
      'error',
      'text-too-long',
      at,
      `the msg of <${MESSAGE_COMPONENT}> has ${text.length} characters; the service takes at most ${MAX_TEXT_LENGTH}`,
    )
    return
  }
  const icu =
    ctx.options.placeholder.custom !== APP_PLACEHOLDER_SOURCE || cannotBeIcu(text)
      ? undefined
      : sourceMessageProblem(text)
  if (icu) {
    ctx.report(
      'error',
      'icu-syntax',
      at,
      `the msg of <${MESSAGE_COMPONENT}> is not valid ICU MessageFormat: ${icu.problem}, at character ${icu.offset + 1} of ${JSON.stringify(text)}`,
    )
    return
  }
  const variant = staticAttribute(node, 'variant') || null
  const instruction = staticAttribute(node, 'instruction')
  const position = ctx.position(at)
  const { key, placeholders } = ctx.addMessage(text, variant, { instruction }, at, position)
  if (ctx.options.messagesOnly) return
  const value = prop.value!.loc
  const quoted = /^["']/.test(ctx.code.slice(value.start.offset, value.start.offset + 1))
  ctx.sites.push({
    messageKey: key,
    kind: 'attribute',
    start: at,
    end: prop.loc.end.offset,
    callee: { start: at, end: prop.nameLoc?.end.offset ?? at + prop.name.length },
    args: [
      quoted
        ? { start: value.start.offset + 1, end: value.end.offset - 1 }
        : { start: value.start.offset, end: value.end.offset },
    ],
    placeholders,
    line: position.line,
    column: position.column,
  })
}

/** The program of all the template's expressions, each at its offset in the file. */
function templateProgram(code: string, pieces: Piece[]): string {
  pieces.sort((a, b) => a.start - b.start)
  let out = ''
  for (const p of pieces) {
    // The opening character takes the one before the expression (a quote or a brace of `{{`), the
    // closing ones the quote or braces after it; an expression that cannot have them is left out.
    if (p.start - 1 < out.length) continue
    out += ' '.repeat(p.start - 1 - out.length)
    out += p.open + code.slice(p.start, p.end) + (p.open === '(' ? ');' : '}')
  }
  return out
}

/**
 * Reads the template of a .vue file into `ctx`: `<T msg>` messages directly, and the program of its
 * expressions for `scan` (the same scan as the script blocks). Problems are diagnostics on the file.
 */
export function scanVueTemplate(ctx: FileContext, scan: (unit: ParseUnit) => void): void {
  const code = ctx.code
  if (!/<template[\s>]/i.test(code)) return
  const compiler = compilerFor(ctx.options.cwd)
  if (compiler instanceof Error) {
    ctx.report(
      'warning',
      'vue-compiler-missing',
      null,
      `its <template> is not read: Vue's compiler is not installed in ${ctx.options.cwd} (install vue, which ships vue/compiler-sfc); only its <script> blocks are extracted`,
    )
    return
  }
  // Vue's own parse of each expression (with Babel) is left out: oxc reads them below, 4x faster.
  const { descriptor, errors } = compiler.parse(code, {
    filename: ctx.file,
    sourceMap: false,
    templateParseOptions: { prefixIdentifiers: false },
  })
  const template = descriptor.template
  if (errors.length > 0) {
    // Vue would not compile it either: one warning, at Vue's first error.
    const first = errors[0]!
    ctx.report(
      'warning',
      'parse-error',
      first.loc?.start.offset ?? null,
      `does not parse as a Vue component (${first.message}); its template messages are not extracted`,
    )
    return
  }
  if (!template?.ast) return
  // Pug and other template languages are not HTML: Vue's parser did not read them.
  if (template.lang !== undefined && template.lang !== 'html') return
  const pieces: Piece[] = []
  collect(ctx, template.ast, pieces)
  if (pieces.length === 0) return
  const lang = descriptor.scriptSetup?.lang ?? descriptor.script?.lang
  const first = ctx.sites.length
  scan({
    parseName: ctx.file,
    code: templateProgram(code, pieces),
    lang: lang === 'ts' || lang === 'tsx' ? 'ts' : 'jsx',
    sourceType: 'module',
  })
  for (let i = first; i < ctx.sites.length; i++) {
    const site = ctx.sites[i]!
    if (site.kind === 'attribute') continue
    const holder = pieces.find((p) => p.start <= site.start && site.end <= p.end)
    if (holder) site.markup = holder.markup
  }
}
