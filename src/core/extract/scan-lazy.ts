/**
 * The lazy scanner (Node >= 22): oxc-parser's raw transfer with a lazy visitor of CallExpression and
 * TaggedTemplateExpression; nothing else of the AST becomes JS objects, and the buffer is disposed right
 * after. A call's callee is first checked against the source text, then read by the quick read
 * (quick.ts) when `quickReads` is on, else from the lazy nodes.
 *
 * Why it exists: on Node >= 22 it is the fastest way to the calls (see BENCHMARKS.md, extraction), as
 * JSON.parse of the whole AST is the cost the JSON scanner works around. It assumes no local
 * declaration hides a keyword; when the text cannot rule one out it returns false and the caller runs
 * the scope-aware walk.
 */
import type { parseSync } from 'oxc-parser'
import { applyImports, type Bindings, baseBindings, needsScopes, readImports, specOf } from './bindings'
import { handleCall, handleTagged } from './calls'
import type { FileContext } from './file-context'
import type { KeywordSpec } from './keywords'
import type { AstNode } from './nodes'
import { oxcParser } from './oxc'
import { parserOptions, reportParseErrors } from './parse'
import { isWordChar } from './precheck'
import { quickRead } from './quick'
import type { ParseUnit } from './sources'
import type { Range } from './types'

type LazyParseResult = ReturnType<typeof parseSync> & { visit(visitor: unknown): void; dispose(): void }

/** The program being visited, with what the visitor needs of it. */
interface Visit {
  ctx: FileContext
  bindings: Bindings
  /** The first names of every callee that can be a keyword (`calleeRoots`). */
  roots: string[]
  quickReads: boolean
  /** The functions and classes met so far (the visit is in source order: a call's own come first). */
  deferred: Range[]
}

// The lazy visitor is built once; the program being scanned is handed over through this slot
// (scanning is synchronous, so one program at a time per thread).
let current: Visit | null = null

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
  const { ctx, bindings, roots, quickReads } = current!
  const start = node.start
  if (!calleeMayMatch(ctx.code, start, roots)) return
  let call = node
  let callee: AstNode | undefined
  let spec: KeywordSpec | undefined
  const quick = quickReads ? quickRead(ctx.code, start, node.end, tagged, bindings.direct) : null
  if (quick === 'none') return
  if (quick !== null) ({ node: call, callee, spec } = quick)
  else {
    callee = (tagged ? node.tag : node.callee) as AstNode
    spec = specOf(callee, bindings)
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
    const { experimentalGetLazyVisitor } = oxcParser() as unknown as {
      experimentalGetLazyVisitor(): new (visitor: Record<string, (node: AstNode) => void>) => unknown
    }
    const Visitor = experimentalGetLazyVisitor()
    // Functions and classes: only their ranges, for `markSite` (module-level.ts).
    const defer = (node: AstNode): void => {
      current!.deferred.push({ start: node.start, end: node.end })
    }
    lazyVisitor = new Visitor({
      Function: defer,
      ArrowFunctionExpression: defer,
      Class: defer,
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

/** Scans one program with the lazy visitor; false when it needs the scope-aware walk instead. */
export function scanLazy(ctx: FileContext, unit: ParseUnit, quickReads: boolean): boolean {
  const options = ctx.options
  const result = oxcParser().parseSync(
    unit.parseName,
    unit.code,
    parserOptions(unit, true),
  ) as LazyParseResult
  try {
    if (reportParseErrors(ctx, result.errors)) return true
    const imports = readImports(result.module.staticImports, unit.code, options.runtimeModule)
    const bindings = baseBindings(options)
    applyImports(bindings, imports, options.runtimeModule)
    if (needsScopes(unit.code, bindings, imports, options.runtimeModule)) return false
    current = { ctx, bindings, roots: calleeRoots(bindings), quickReads, deferred: [] }
    ctx.deferred = current.deferred
    result.visit(getLazyVisitor())
    return true
  } finally {
    current = null
    result.dispose()
  }
}
