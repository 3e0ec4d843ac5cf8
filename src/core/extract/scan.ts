/**
 * Finding the keyword calls of one program.
 *
 * Three strategies, one analysis (calls.ts); the fixture suite runs every case through each:
 * - lazy (Node >= 22): oxc-parser's raw transfer with a lazy visitor of CallExpression and
 *   TaggedTemplateExpression; nothing else of the AST becomes JS objects, and the buffer is disposed
 *   right after.
 * - json (Node 20, no raw transfer): the AST arrives as a JSON string; only the serialised keyword
 *   calls in it are parsed, never the whole tree.
 * - estree: the whole ESTree, walked with a scope tracker so that a local `t` (a parameter, a variable,
 *   a function) hides the keyword. Used for the files where a cheap text check (`mayDeclare`) cannot
 *   rule out a local declaration of a keyword name; the other two assume there is none.
 */
import * as oxc from 'oxc-parser'
import { type ParserOptions, parseSync, rawTransferSupported, visitorKeys } from 'oxc-parser'
import { parseSync as parseJson } from 'oxc-parser/src-js/bindings'
import { escapeRegex } from '../escape-regex'
import { type FileContext, handleCall, handleTagged } from './calls'
import { type KeywordSpec, RUNTIME_T_SPEC } from './keywords'
import { type AstNode, memberPath, unwrap } from './nodes'
import type { ResolvedExtractOptions } from './options'
import { quickRead } from './quick'
import type { ParseUnit } from './sources'

/** Which local names and member paths are message functions in one program. */
interface Bindings {
  /** Local identifier -> spec: free keyword names and aliases of the runtime's `t`. */
  direct: Map<string, KeywordSpec>
  /** `i18n.t` -> spec, including `<namespace import of the runtime>.t`. */
  members: Map<string, KeywordSpec>
}

interface ImportRecord {
  start: number
  end: number
  /** The module imported; null when the statement's text does not name the runtime module. */
  source: string | null
  entries: {
    kind: 'name' | 'namespace' | 'default'
    imported: string | null
    local: string
    isType: boolean
  }[]
}

const membersCache = new WeakMap<ResolvedExtractOptions, Map<string, KeywordSpec>>()

function baseBindings(options: ResolvedExtractOptions): Bindings {
  let members = membersCache.get(options)
  if (members === undefined) {
    members = new Map()
    for (const k of options.keywords) if (k.path.length > 1) members.set(k.name, k)
    membersCache.set(options, members)
  }
  const direct = new Map<string, KeywordSpec>()
  for (const k of options.keywords) if (k.path.length === 1) direct.set(k.name, k)
  return { direct, members }
}

// Import records come as plain objects from parseSync and as lazy wrappers from raw transfer, where a
// named import is a NameSpan, a namespace import the string 'namespaceObject' and a default one a Span.
// Only the runtime module's entries are read, and only a statement whose text names the runtime module
// has its source read: the others matter only as ranges the pre-check skips, and each lazy field read
// builds objects.
// biome-ignore lint/suspicious/noExplicitAny: two shapes of oxc's module record.
function readImports(staticImports: Iterable<any>, code: string, runtimeModule: string): ImportRecord[] {
  const records: ImportRecord[] = []
  // Where the text names the runtime module (usually once, or never).
  const mentions: number[] = []
  for (let at = code.indexOf(runtimeModule); at !== -1; at = code.indexOf(runtimeModule, at + 1)) {
    mentions.push(at)
  }
  for (const record of staticImports) {
    const start: number = record.start
    const end: number = record.end
    const source: string | null = mentions.some((at) => at >= start && at < end)
      ? record.moduleRequest.value
      : null
    const entries: ImportRecord['entries'] = []
    if (source === runtimeModule) {
      for (const entry of record.entries) {
        const importName = entry.importName
        let kind: 'name' | 'namespace' | 'default'
        let imported: string | null = null
        if (importName === 'namespaceObject' || importName?.kind === 'NamespaceObject') kind = 'namespace'
        else if (importName?.kind === 'Name') {
          kind = 'name'
          imported = importName.name
        } else if (importName?.kind === 'Default' || importName?.value === undefined) kind = 'default'
        else {
          kind = 'name'
          imported = importName.value
        }
        entries.push({ kind, imported, local: entry.localName.value, isType: entry.isType })
      }
    }
    records.push({ start, end, source, entries })
  }
  return records
}

/**
 * Imports of the runtime module make their local names message functions (`import { t as tr }`,
 * `import * as rt`); any other import from it (`setLocale as t`) hides a keyword of that name.
 */
function applyImports(bindings: Bindings, imports: ImportRecord[], runtimeModule: string): void {
  for (const record of imports) {
    if (record.source !== runtimeModule) continue
    for (const entry of record.entries) {
      if (entry.isType) continue
      if (entry.kind === 'name' && entry.imported === 't') bindings.direct.set(entry.local, RUNTIME_T_SPEC)
      else if (entry.kind === 'namespace') bindings.members.set(`${entry.local}.t`, RUNTIME_T_SPEC)
      else bindings.direct.delete(entry.local)
    }
  }
}

const PRECHECK_CACHE = new WeakMap<ResolvedExtractOptions, RegExp>()

/**
 * Cheap text test run before parsing: can this file hold a keyword call at all? A keyword's last name
 * followed by `(`, a backtick, `<` (type arguments) or `?.`, or any mention of the runtime module.
 * Files that fail it are never parsed: on real code most files do.
 */
export function mentionsKeyword(code: string, options: ResolvedExtractOptions): boolean {
  if (code.includes(options.runtimeModule)) return true
  let re = PRECHECK_CACHE.get(options)
  if (re === undefined) {
    const names = [...new Set(options.keywords.map((k) => k.path[k.path.length - 1]!))]
    re = new RegExp(`(?<![\\w$])(?:${names.map(escapeRegex).join('|')})\\s*(?:\\(|\`|<|\\?\\.)`)
    PRECHECK_CACHE.set(options, re)
  }
  return re.test(code)
}

function isSpace(c: number): boolean {
  return (
    c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029
  )
}

function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127
  )
}

const mentionRegexes = new Map<string, RegExp>()

/**
 * Could `code` declare one of `names` outside the import statements? Conservative: true unless every
 * mention is a call (`t(`, `` t` ``, `t<`, `t?.(`), a member (`x.t`), or a contraction (`don't`).
 * A false positive only costs the slower scope-aware walk.
 */
export function mayDeclare(
  code: string,
  names: Iterable<string>,
  skip: { start: number; end: number }[],
): boolean {
  const list = [...names]
  if (list.length === 0) return false
  const key = list.join('\u0000')
  let re = mentionRegexes.get(key)
  if (re === undefined) {
    re = new RegExp(`(?<![\\w$])(?:${list.map(escapeRegex).join('|')})(?![\\w$])`, 'g')
    mentionRegexes.set(key, re)
  }
  re.lastIndex = 0
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const at = m.index
    if (skip.some((r) => at >= r.start && at < r.end)) continue
    let before = at - 1
    while (before >= 0 && isSpace(code.charCodeAt(before))) before--
    const prev = before >= 0 ? code.charCodeAt(before) : 0
    if (prev === 46 /* . */) {
      if (code.startsWith('...', before - 2)) return true
      continue
    }
    // a contraction in prose: `don't`, `isn’t`
    if ((prev === 39 || prev === 0x2019) && before > 0 && /[A-Za-z]/.test(code[before - 1]!)) continue
    let after = at + m[0].length
    while (after < code.length && isSpace(code.charCodeAt(after))) after++
    const next = code.charCodeAt(after)
    const callLike =
      next === 40 /* ( */ ||
      next === 96 /* ` */ ||
      next === 60 /* < */ ||
      (next === 63 /* ? */ && code.charCodeAt(after + 1) === 46)
    if (!callLike) return true
    // `function t(`, `function* t(`, `class t<`: declarations that look like calls.
    if (prev === 42 /* * */) return true
    if (isWordChar(prev)) {
      let w = before
      while (w > 0 && isWordChar(code.charCodeAt(w - 1))) w--
      const word = code.slice(w, before + 1)
      if (word === 'function' || word === 'class' || word === 'interface' || word === 'type') return true
    }
  }
  return false
}

// The callee is taken as written: `(t as any)('x')` or `t!('x')` is not a keyword call, in every strategy.
function specOf(callee: AstNode, bindings: Bindings): KeywordSpec | undefined {
  const c = callee
  if (c.type === 'Identifier' || c.type === 'IdentifierReference') return bindings.direct.get(c.name)
  if (bindings.members.size === 0) return undefined
  if (c.type !== 'StaticMemberExpression' && c.type !== 'MemberExpression') return undefined
  const path = memberPath(c)
  return path === null ? undefined : bindings.members.get(path.join('.'))
}

/** Raw transfer (and the lazy visitor) exist on Node >= 22 only. */
export const LAZY_SUPPORTED: boolean = rawTransferSupported()

type UnitKind = `${ParseUnit['lang']}:${ParseUnit['sourceType']}`
const lazyParseOptions = new Map<UnitKind, ParserOptions>()
const jsonParseOptions = new Map<UnitKind, ParserOptions>()

/** Parser options per language and source type, built once. */
function parserOptions(unit: ParseUnit, lazy: boolean): ParserOptions {
  const table = lazy ? lazyParseOptions : jsonParseOptions
  const kind: UnitKind = `${unit.lang}:${unit.sourceType}`
  let options = table.get(kind)
  if (options === undefined) {
    options = { lang: unit.lang, sourceType: unit.sourceType, preserveParens: false }
    // `experimentalLazy` is read by oxc-parser's JS wrapper; its type declarations do not list it.
    if (lazy) Object.assign(options, { experimentalLazy: true })
    else options.astType = 'js'
    table.set(kind, options)
  }
  return options
}

type LazyParseResult = ReturnType<typeof parseSync> & { visit(visitor: unknown): void; dispose(): void }

// The lazy visitor is built once; the file being scanned is handed over through these two slots
// (scanning is synchronous, so one file at a time per thread).
let lazyCtx: FileContext | null = null
let lazyBindings: Bindings | null = null
let lazyRoots: string[] = []

/**
 * Can the callee written at `start` be a keyword? Reading the source text there costs nothing, while
 * asking the lazy node for its callee builds objects: most calls in a file (`items.map(...)`) are
 * ruled out here. A parenthesised callee is left to the node.
 */
function calleeMayMatch(code: string, start: number, roots: readonly string[]): boolean {
  if (code.charCodeAt(start) === 40) return true
  for (const root of roots) {
    if (code.startsWith(root, start) && !isWordChar(code.charCodeAt(start + root.length))) return true
  }
  return false
}

/** The first names of every callee that can be a keyword: `t`, `tr`, `i18n` (of `i18n.t`), `this`. */
function calleeRoots(bindings: Bindings): string[] {
  const roots = new Set(bindings.direct.keys())
  for (const path of bindings.members.keys()) roots.add(path.slice(0, path.indexOf('.')))
  return [...roots]
}
/** A call or tagged template the lazy visitor meets: read from the text when it can be, else from the node. */
function visitCallLike(node: AstNode, tagged: boolean): void {
  const ctx = lazyCtx!
  const start = node.start
  if (!calleeMayMatch(ctx.code, start, lazyRoots)) return
  let call = node
  let callee: AstNode | undefined
  let spec: KeywordSpec | undefined
  const quick = quickReads ? quickRead(ctx.code, start, node.end, tagged, lazyBindings!.direct) : null
  if (quick === 'none') return
  if (quick !== null) ({ node: call, callee, spec } = quick)
  else {
    callee = (tagged ? node.tag : node.callee) as AstNode
    spec = specOf(callee, lazyBindings!)
    if (spec === undefined) return
  }
  if (tagged) handleTagged(ctx, call, callee, spec)
  else handleCall(ctx, call, callee, spec)
}

// biome-ignore lint/suspicious/noExplicitAny: the lazy Visitor class is untyped in oxc-parser.
let lazyVisitor: any = null

function getLazyVisitor(): unknown {
  if (lazyVisitor === null) {
    // Exported by oxc-parser's JS but missing from its type declarations.
    const { experimentalGetLazyVisitor } = oxc as unknown as {
      experimentalGetLazyVisitor(): new (visitor: Record<string, (node: AstNode) => void>) => unknown
    }
    const Visitor = experimentalGetLazyVisitor()
    lazyVisitor = new Visitor({
      CallExpression(node) {
        visitCallLike(node, false)
      },
      TaggedTemplateExpression(node) {
        visitCallLike(node, true)
      },
    })
  }
  return lazyVisitor
}

// biome-ignore lint/suspicious/noExplicitAny: oxc's error objects in both flavours.
function reportParseErrors(ctx: FileContext, errors: ArrayLike<any>): boolean {
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i]
    if (error.severity !== 'Error') continue
    const label = error.labels?.[0]
    ctx.report(
      'warning',
      'parse-error',
      typeof label?.start === 'number' ? label.start : null,
      `does not parse (${error.message}); its messages are not extracted`,
    )
    return true
  }
  return false
}

const REQUIRE = /\brequire\s*\(/

/**
 * How a program is read; `auto` picks lazy on Node >= 22, else json. Tests force each one; `lazy-nodes`
 * and `json-nodes` are those strategies without the quick text reads (quick.ts), so both paths of each
 * meet the fixtures.
 */
export type ScanStrategy = 'auto' | 'lazy' | 'lazy-nodes' | 'json' | 'json-nodes' | 'estree'

let strategyOverride: ScanStrategy = 'auto'
let quickReads = true

/** For tests: run every file through one strategy, so each is checked against the same fixtures. */
export function setScanStrategy(strategy: ScanStrategy): void {
  if ((strategy === 'lazy' || strategy === 'lazy-nodes') && !LAZY_SUPPORTED) {
    throw new Error('the lazy strategy needs raw transfer (Node >= 22)')
  }
  strategyOverride = strategy
  quickReads = strategy !== 'lazy-nodes' && strategy !== 'json-nodes'
}

function needsScopes(
  code: string,
  bindings: Bindings,
  imports: ImportRecord[],
  runtimeModule: string,
): boolean {
  return (
    (code.includes('require') && REQUIRE.test(code) && code.includes(runtimeModule)) ||
    mayDeclare(code, bindings.direct.keys(), imports)
  )
}

/** Scans one program of a file into `ctx`. */
export function scanUnit(ctx: FileContext, unit: ParseUnit): void {
  const strategy = strategyOverride === 'auto' ? (LAZY_SUPPORTED ? 'lazy' : 'json') : strategyOverride
  if ((strategy === 'lazy' || strategy === 'lazy-nodes') && scanLazy(ctx, unit)) return
  const options = ctx.options
  const result = parseJson(unit.parseName, unit.code, parserOptions(unit, false))
  if (reportParseErrors(ctx, result.errors)) {
    // Taking the JSON frees it on the Rust side now rather than at some later finalizer.
    void result.program
    return
  }
  const json = result.program
  const imports =
    importsFromJson(json, unit.code, options.runtimeModule) ??
    readImports(result.module.staticImports, unit.code, options.runtimeModule)
  const bindings = baseBindings(options)
  applyImports(bindings, imports, options.runtimeModule)
  if (
    (strategy === 'json' || strategy === 'json-nodes') &&
    !needsScopes(unit.code, bindings, imports, options.runtimeModule)
  ) {
    scanJsonText(ctx, json, bindings)
    return
  }
  // oxc's JSON is `{ node, fixes }`; the fixes only restore RegExp/BigInt literal values, unused here.
  const program = (JSON.parse(json) as { node: AstNode }).node
  walkEstree(ctx, unit, program, bindings)
}

/** The lazy strategy; false when the file needs the scope-aware walk instead. */
function scanLazy(ctx: FileContext, unit: ParseUnit): boolean {
  const options = ctx.options
  const result = parseSync(unit.parseName, unit.code, parserOptions(unit, true)) as LazyParseResult
  try {
    if (reportParseErrors(ctx, result.errors)) return true
    const imports = readImports(result.module.staticImports, unit.code, options.runtimeModule)
    const bindings = baseBindings(options)
    applyImports(bindings, imports, options.runtimeModule)
    if (needsScopes(unit.code, bindings, imports, options.runtimeModule)) return false
    lazyCtx = ctx
    lazyBindings = bindings
    lazyRoots = calleeRoots(bindings)
    result.visit(getLazyVisitor())
    return true
  } finally {
    lazyCtx = null
    lazyBindings = null
    result.dispose()
  }
}

// ---------------------------------------------------------------------------------------------------
// JSON scan: on Node 20 the AST arrives as one JSON string, and JSON.parse of it is most of the cost
// of extraction (and of the garbage collection after). The scan looks for the serialised call nodes
// instead and parses only the callee, then the whole call for the few that are keyword calls. A
// string value can never contain the needles: its quotes are escaped in JSON.

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
      const record: ImportRecord = { start, end, source: null, entries: [] }
      if (!readRuntimeEntries(record, json.slice(at, next), code, runtimeModule)) return null
      records.push(record)
    }
    at = next
    if (json.charCodeAt(at) !== 44) break
  }
  return code.includes(runtimeModule, after) ? null : records
}

/**
 * Fills in the source and entries of an import of the opening block whose text names the runtime
 * module (`json` is its node's JSON, parsed only then). False when the text cannot say which of its
 * entries are type-only.
 */
function readRuntimeEntries(
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
      record.entries.push({
        kind: 'name',
        imported: s.imported.type === 'Identifier' ? s.imported.name : s.imported.value,
        local: s.local.name,
        isType: typeOnly || written.length > 0,
      })
    } else {
      const kind = s.type === 'ImportNamespaceSpecifier' ? 'namespace' : 'default'
      record.entries.push({ kind, imported: null, local: s.local.name, isType: typeOnly })
    }
  }
  return true
}

function scanJsonText(ctx: FileContext, json: string, bindings: Bindings): void {
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

// ---------------------------------------------------------------------------------------------------
// ESTree walk with scopes

interface Scope {
  start: number
  end: number
  isFunction: boolean
  parent: Scope | null
}

interface Declaration {
  name: string
  start: number
  end: number
}

interface Candidate {
  node: AstNode
  callee: AstNode
  tagged: boolean
}

const estreeKeys: Record<string, readonly string[]> = visitorKeys

function keysOf(type: string): readonly string[] {
  return estreeKeys[type] ?? []
}

function walkEstree(ctx: FileContext, unit: ParseUnit, program: AstNode, bindings: Bindings): void {
  const options = ctx.options
  const interesting = new Set(bindings.direct.keys())
  const declarations: Declaration[] = []
  const candidates: Candidate[] = []
  const runtimeAliases = new Map<string, 'call' | 'namespace'>()

  const declare = (pattern: AstNode | null | undefined, scope: Scope): void => {
    if (!pattern) return
    switch (pattern.type) {
      case 'Identifier':
        if (interesting.has(pattern.name))
          declarations.push({ name: pattern.name, start: scope.start, end: scope.end })
        return
      case 'ObjectPattern':
        for (const p of pattern.properties as AstNode[])
          declare(p.type === 'RestElement' ? p.argument : p.value, scope)
        return
      case 'ArrayPattern':
        for (const e of pattern.elements as (AstNode | null)[]) declare(e, scope)
        return
      case 'AssignmentPattern':
        declare(pattern.left, scope)
        return
      case 'RestElement':
        declare(pattern.argument, scope)
        return
      case 'TSParameterProperty':
        declare(pattern.parameter, scope)
        return
    }
  }
  const functionScope = (scope: Scope): Scope => {
    let s = scope
    while (!s.isFunction && s.parent) s = s.parent
    return s
  }
  const isRuntimeRequire = (init: AstNode | null | undefined): boolean => {
    if (!init) return false
    const n = unwrap(init)
    if (n.type !== 'CallExpression' || n.arguments.length !== 1) return false
    const callee = unwrap(n.callee)
    if (callee.type !== 'Identifier' || callee.name !== 'require') return false
    const arg = unwrap(n.arguments[0])
    return arg.type === 'Literal' && arg.value === options.runtimeModule
  }
  const declareVariables = (node: AstNode, scope: Scope): void => {
    const target = node.kind === 'var' ? functionScope(scope) : scope
    for (const d of node.declarations as AstNode[]) {
      // `const { t } = require('unplugin-tms/runtime')` binds the runtime's `t`, not a local function.
      if (isRuntimeRequire(d.init)) {
        if (d.id.type === 'Identifier') runtimeAliases.set(d.id.name, 'namespace')
        else if (d.id.type === 'ObjectPattern') {
          for (const p of d.id.properties as AstNode[]) {
            const key = p.type === 'Property' && !p.computed ? p.key : null
            const value = p.type === 'Property' ? unwrap(p.value) : null
            if (key?.type === 'Identifier' && key.name === 't' && value?.type === 'Identifier') {
              runtimeAliases.set(value.name, 'call')
            } else declare(p.type === 'RestElement' ? p.argument : p.value, target)
          }
        }
        continue
      }
      declare(d.id, target)
    }
  }
  const declareParams = (fn: AstNode, scope: Scope): void => {
    for (const p of fn.params as AstNode[]) declare(p, scope)
  }

  const walk = (node: AstNode, scope: Scope): void => {
    let inner = scope
    switch (node.type) {
      case 'ImportDeclaration':
        return
      case 'CallExpression':
        candidates.push({ node, callee: node.callee, tagged: false })
        break
      case 'TaggedTemplateExpression':
        candidates.push({ node, callee: node.tag, tagged: true })
        break
      case 'VariableDeclaration':
        declareVariables(node, scope)
        break
      case 'FunctionDeclaration':
        if (node.id) declare(node.id, scope)
        inner = { start: node.start, end: node.end, isFunction: true, parent: scope }
        declareParams(node, inner)
        break
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        inner = { start: node.start, end: node.end, isFunction: true, parent: scope }
        if (node.id) declare(node.id, inner)
        declareParams(node, inner)
        break
      case 'ClassDeclaration':
        if (node.id) declare(node.id, scope)
        break
      case 'ClassExpression':
        if (node.id) {
          inner = { start: node.start, end: node.end, isFunction: false, parent: scope }
          declare(node.id, inner)
        }
        break
      case 'CatchClause':
        inner = { start: node.start, end: node.end, isFunction: false, parent: scope }
        declare(node.param, inner)
        break
      case 'BlockStatement':
      case 'StaticBlock':
      case 'SwitchStatement':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
        inner = { start: node.start, end: node.end, isFunction: false, parent: scope }
        break
      case 'TSImportEqualsDeclaration':
        declare(node.id, scope)
        return
      case 'TSModuleDeclaration':
      case 'TSEnumDeclaration':
        if (node.id?.type === 'Identifier') declare(node.id, scope)
        break
    }
    for (const key of keysOf(node.type)) {
      const child = node[key]
      if (child === null || child === undefined) continue
      if (Array.isArray(child)) {
        for (const c of child) if (c !== null && typeof c === 'object') walk(c, inner)
      } else if (typeof child === 'object' && typeof child.type === 'string') walk(child, inner)
    }
  }

  const root: Scope = { start: program.start, end: program.end, isFunction: true, parent: null }
  // `program.start` skips leading comments; the module scope covers the whole text.
  root.start = 0
  root.end = unit.code.length
  walk(program, root)

  for (const [alias, kind] of runtimeAliases) {
    if (kind === 'call') bindings.direct.set(alias, RUNTIME_T_SPEC)
    else bindings.members.set(`${alias}.t`, RUNTIME_T_SPEC)
  }
  candidates.sort((a, b) => a.node.start - b.node.start || b.node.end - a.node.end)
  for (const candidate of candidates) {
    const spec = specOf(candidate.callee, bindings)
    if (spec === undefined) continue
    const callee = unwrap(candidate.callee)
    if (callee.type === 'Identifier' && !runtimeAliases.has(callee.name)) {
      const at = candidate.node.start
      if (declarations.some((d) => d.name === callee.name && d.start <= at && at < d.end)) continue
    }
    if (candidate.tagged) handleTagged(ctx, candidate.node, candidate.callee, spec)
    else handleCall(ctx, candidate.node, candidate.callee, spec)
  }
}
