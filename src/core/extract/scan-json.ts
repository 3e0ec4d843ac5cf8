/**
 * The JSON scanner: oxc-parser hands the AST over as one JSON string (`astType: 'js'`), and instead of
 * JSON.parse of the whole of it the scan looks for the serialised call nodes, parses only the callee,
 * then the whole call for the few that are keyword calls (or reads the call from the source text with
 * the quick read, quick.ts, when `quickReads` is on). A string value can never contain the needles:
 * its quotes are escaped in JSON.
 *
 * Why it exists: on Node 20 there is no raw transfer, so no lazy scanner, and JSON.parse of the AST is
 * most of the cost of extraction (and of the garbage collection after). Like the lazy scanner it
 * assumes no local declaration hides a keyword; `parseJsonProgram` also serves the scope-aware walk,
 * which parses the same JSON whole.
 */
import { applyImports, type Bindings, baseBindings, type ImportRecord, readImports, specOf } from './bindings'
import { handleCall, handleTagged } from './calls'
import type { FileContext } from './file-context'
import type { KeywordSpec } from './keywords'
import type { AstNode } from './nodes'
import { oxcBinding } from './oxc'
import { parserOptions, reportParseErrors } from './parse'
import { quickRead } from './quick'
import type { ParseUnit } from './sources'
import type { Range } from './types'

/** A program parsed to JSON, with its imports and the bindings they make. */
export interface JsonProgram {
  json: string
  imports: ImportRecord[]
  bindings: Bindings
}

/** Parses one program to JSON and reads its imports; null when it does not parse (reported to `ctx`). */
export function parseJsonProgram(ctx: FileContext, unit: ParseUnit): JsonProgram | null {
  const options = ctx.options
  const result = oxcBinding().parseSync(unit.parseName, unit.code, parserOptions(unit, false))
  if (reportParseErrors(ctx, result.errors)) {
    // Taking the JSON frees it on the Rust side now rather than at some later finalizer.
    void result.program
    return null
  }
  const json = result.program
  const imports =
    importsFromJson(json, unit.code, options.runtimeModule) ??
    readImports(result.module.staticImports, unit.code, options.runtimeModule)
  const bindings = baseBindings(options)
  applyImports(bindings, imports, options.runtimeModule)
  return { json, imports, bindings }
}

/** The whole tree of a parsed program, for the scope-aware walk. */
export function treeOf(program: JsonProgram): AstNode {
  // oxc's JSON is `{ node, fixes }`; the fixes only restore RegExp/BigInt literal values, unused here.
  return (JSON.parse(program.json) as { node: AstNode }).node
}

const CALL_NEEDLE = '"type":"CallExpression","callee":'
const TAG_NEEDLE = '"type":"TaggedTemplateExpression","tag":'
const CALL_HEAD = `{${CALL_NEEDLE}`
const TAG_HEAD = `{${TAG_NEEDLE}`

/** Index just past the JSON object or array that starts at `start`. */
function jsonValueEnd(json: string, start: number): number {
  let depth = 0
  for (let i = start; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c === 34) {
      // a string: skip to its closing quote
      for (i++; i < json.length; i++) {
        const d = json.charCodeAt(i)
        if (d === 92) i++
        else if (d === 34) break
      }
    } else if (c === 123 || c === 91) depth++
    else if (c === 125 || c === 93) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  throw new Error('unbalanced AST JSON from oxc-parser')
}

interface Found {
  start: number
  end: number
  node: AstNode
  spec: KeywordSpec
  tagged: boolean
}

function parseAt(json: string, open: number): AstNode {
  return JSON.parse(json.slice(open, jsonValueEnd(json, open))) as AstNode
}

/**
 * The node's own trailer `,"start":S,"end":E}` (the first one for `start` after its callee at
 * `calleeAt`; oxc writes `start` and `end` last): the end offset E and where its `}` is, or null.
 * Found with indexOf, not by walking every character.
 */
function trailerAt(json: string, calleeAt: number, start: number): { end: number; close: number } | null {
  const trailer = `,"start":${start},"end":`
  const at = json.indexOf(trailer, calleeAt)
  if (at === -1) return null
  let close = at + trailer.length
  while (close < json.length && json.charCodeAt(close) >= 48 && json.charCodeAt(close) <= 57) close++
  if (json.charCodeAt(close) !== 125) return null
  return { end: Number(json.slice(at + trailer.length, close)), close }
}

/**
 * The call or tag node whose serialisation opens at `open`, with its callee at `calleeAt` starting at
 * source offset `start`: its own trailer marks its end. Anything unexpected falls back to the
 * character walk.
 */
function parseNodeAt(json: string, open: number, calleeAt: number, start: number): AstNode {
  const trailer = trailerAt(json, calleeAt, start)
  if (trailer !== null) {
    try {
      const node = JSON.parse(json.slice(open, trailer.close + 1)) as AstNode
      if (node.start === start) return node
    } catch {
      // not the node's own trailer: fall through
    }
  }
  return parseAt(json, open)
}

const PROGRAM_HEAD = '{"node":\n{"type":"Program","body":['
const IMPORT_OPEN = '{"type":"ImportDeclaration","specifiers":['
const DIRECTIVE_OPEN = '{"type":"ExpressionStatement","expression":{"type":"Literal",'

/**
 * The program's import declarations read from its JSON rather than from oxc's module record, whose
 * conversion into objects cost 93 ms per 5,000 files on Node 20 (more than the whole JSON scan). Only
 * the block of imports that opens the program (after any directives) is read, walking its items from
 * the front of the JSON: an import further down is not seen, which only costs a skipped range (a
 * keyword named in it makes `mayDeclare` ask for the scope-aware walk, to which an import is no
 * declaration), unless the text names the runtime module after the block: then null, and the caller
 * reads the module record, as it does for any JSON not shaped as expected. Null too when a runtime
 * import's clause holds a comment where `type` could stand (`astType: 'js'` drops `importKind`, so the
 * text says whether an import is type-only).
 */
function importsFromJson(json: string, code: string, runtimeModule: string): ImportRecord[] | null {
  if (!json.startsWith(PROGRAM_HEAD)) return null
  const records: ImportRecord[] = []
  let after = 0
  for (let at = PROGRAM_HEAD.length; ; at++) {
    const isImport = json.startsWith(IMPORT_OPEN, at)
    if (!isImport && !json.startsWith(DIRECTIVE_OPEN, at)) break
    const next = jsonValueEnd(json, at)
    // The node's own `"start":S,"end":E}` closes it.
    const trailer = json.lastIndexOf(',"start":', next)
    const comma = json.indexOf(',', trailer + 1)
    const start = Number(json.slice(trailer + 9, comma))
    const end = Number(json.slice(comma + 7, next - 1))
    if (!Number.isInteger(start) || !Number.isInteger(end)) return null
    after = end
    if (isImport) {
      const record: ImportRecord = { start, end, source: null, specifiers: [] }
      if (!readRuntimeSpecifiers(record, json.slice(at, next), code, runtimeModule)) return null
      records.push(record)
    }
    at = next
    if (json.charCodeAt(at) !== 44) break
  }
  return code.includes(runtimeModule, after) ? null : records
}

/**
 * Fills in the source and specifiers of an import of the opening block whose text names the runtime
 * module (`json` is its node's JSON, parsed only then). False when the text cannot say which of its
 * specifiers are type-only.
 */
function readRuntimeSpecifiers(
  record: ImportRecord,
  json: string,
  code: string,
  runtimeModule: string,
): boolean {
  const { start, end } = record
  const mention = code.indexOf(runtimeModule, start)
  if (mention === -1 || mention >= end) return true
  const node = JSON.parse(json) as AstNode
  record.source = node.source.value
  if (record.source !== runtimeModule) return true
  const specifiers = node.specifiers as AstNode[]
  const head = specifiers.length === 0 ? '' : code.slice(start + 'import'.length, specifiers[0]!.start)
  if (head.includes('/')) return false
  const typeOnly = /^\s*type\b/.test(head)
  for (const s of specifiers) {
    if (s.type === 'ImportSpecifier') {
      // `{ type X }`: the specifier starts at `type`, before the name it imports.
      const written = code.slice(s.start, s.imported.start)
      if (written.includes('/')) return false
      record.specifiers.push({
        kind: 'name',
        imported: s.imported.type === 'Identifier' ? s.imported.name : s.imported.value,
        local: s.local.name,
        isType: typeOnly || written.length > 0,
      })
    } else {
      const kind = s.type === 'ImportNamespaceSpecifier' ? 'namespace' : 'default'
      record.specifiers.push({ kind, imported: null, local: s.local.name, isType: typeOnly })
    }
  }
  return true
}

const START_KEY = '"start":'
const NODE_OPEN = '{"type":"'
const NODE_CLOSE = ',"end":'
const DEFERRED_TYPES = [
  'FunctionDeclaration"',
  'FunctionExpression"',
  'ArrowFunctionExpression"',
  'ClassDeclaration"',
  'ClassExpression"',
]
/** Not the shape expected: no call of the program is said to be at module level. */
const EVERYTHING: Range[] = [{ start: 0, end: Number.MAX_SAFE_INTEGER }]

/**
 * The outermost functions and classes of a program, for `markSite` (module-level.ts), asked only when a
 * message call is found. Every node of oxc's JSON opens with `{"type":"` and closes with its trailer
 * `"start":S,"end":E}`, and neither can occur inside a JSON string (its quotes are escaped): the two
 * needles, found with indexOf in order, trace the tree's nesting without parsing or walking characters.
 */
function deferredRanges(json: string): Range[] {
  const ranges: Range[] = []
  const stack: boolean[] = []
  let depth = 0
  let open = json.indexOf(NODE_OPEN)
  for (let close = json.indexOf(NODE_CLOSE); close !== -1; close = json.indexOf(NODE_CLOSE, close + 1)) {
    for (; open !== -1 && open < close; open = json.indexOf(NODE_OPEN, open + 1)) {
      // Most types start with neither F, A nor C: one character read rules them out.
      const first = json.charCodeAt(open + NODE_OPEN.length)
      const deferred =
        (first === 70 || first === 65 || first === 67) &&
        DEFERRED_TYPES.some((type) => json.startsWith(type, open + NODE_OPEN.length))
      stack.push(deferred)
      if (deferred) depth++
    }
    if (stack.length === 0) return EVERYTHING
    if (!stack.pop()!) continue
    if (--depth > 0) continue
    // `"start":S` right before the needle, `E}` right after it.
    const startAt = json.lastIndexOf(START_KEY, close)
    const endAt = json.indexOf('}', close)
    const start = Number(json.slice(startAt + START_KEY.length, close))
    const end = Number(json.slice(close + NODE_CLOSE.length, endAt))
    if (startAt === -1 || endAt === -1 || !Number.isInteger(start) || !Number.isInteger(end))
      return EVERYTHING
    ranges.push({ start, end })
  }
  return stack.length === 0 ? ranges : EVERYTHING
}

/** Scans the JSON of a program for its keyword calls and hands each to `ctx`, in source order. */
export function scanJsonText(ctx: FileContext, json: string, bindings: Bindings, quickReads: boolean): void {
  ctx.deferred = () => deferredRanges(json)
  const found: Found[] = []
  // Each local name of a message function, as a callee or a tag: one pass per name over the JSON.
  for (const [name, spec] of bindings.direct) {
    const needle = `{"type":"Identifier","name":${JSON.stringify(name)},"start":`
    for (let at = json.indexOf(needle); at !== -1; at = json.indexOf(needle, at + needle.length)) {
      let tagged: boolean
      let open: number
      if (json.startsWith(CALL_HEAD, at - CALL_HEAD.length)) {
        tagged = false
        open = at - CALL_HEAD.length
      } else if (json.startsWith(TAG_HEAD, at - TAG_HEAD.length)) {
        tagged = true
        open = at - TAG_HEAD.length
      } else continue
      const digits = at + needle.length
      let stop = digits
      while (json.charCodeAt(stop) >= 48 && json.charCodeAt(stop) <= 57) stop++
      const start = Number(json.slice(digits, stop))
      if (quickReads) {
        // The node's end from its trailer (only a hint: the quick read checks that the call ends
        // exactly there), then the call from the source text: no JSON.parse at all.
        const end = trailerAt(json, stop, start)?.end
        const quick = end === undefined ? null : quickRead(ctx.code, start, end, tagged, bindings.direct)
        if (end !== undefined && quick !== null && quick !== 'none') {
          found.push({ start, end, node: quick.node, spec: quick.spec, tagged })
          continue
        }
      }
      const node = parseNodeAt(json, open, stop, start)
      found.push({ start: node.start, end: node.end, node, spec, tagged })
    }
  }
  // Member keywords (`i18n.t`): every call and tag, reading the callee.
  if (bindings.members.size > 0) {
    for (const [needle, tagged] of [
      [CALL_NEEDLE, false],
      [TAG_NEEDLE, true],
    ] as const) {
      for (let at = json.indexOf(needle); at !== -1; at = json.indexOf(needle, at + needle.length)) {
        const calleeAt = at + needle.length
        if (!json.startsWith('{"type":"MemberExpression"', calleeAt)) continue
        const spec = specOf(parseAt(json, calleeAt), bindings)
        if (spec === undefined) continue
        const node = parseAt(json, at - 1)
        found.push({ start: node.start, end: node.end, node, spec, tagged })
      }
    }
  }
  // Source order, outer before inner: the order the lazy visitor and the walk see them in.
  found.sort((a, b) => a.start - b.start || b.end - a.end)
  for (const f of found) {
    if (f.tagged) handleTagged(ctx, f.node, f.node.tag, f.spec)
    else handleCall(ctx, f.node, f.node.callee, f.spec)
  }
}
