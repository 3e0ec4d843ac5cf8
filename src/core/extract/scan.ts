/**
 * Finding the keyword calls of one program: one `Scanner` interface, one call analysis (calls.ts)
 * behind every implementation, and the implementation chosen by the caller through the `scanner`
 * extract option (resolved in options.ts; file.ts asks `scannerFor` and hands it to `scanUnit`).
 *
 * The implementations, and why each exists:
 * - `lazy` (scan-lazy.ts, the default on Node >= 22): raw transfer with a lazy visitor of calls only;
 *   the fastest, where raw transfer exists.
 * - `json` (scan-json.ts, the default on Node 20): the AST as one JSON string, searched for the
 *   serialised calls; Node 20 has no raw transfer, and JSON.parse of the whole AST would be most of the
 *   cost of extraction. On every Node it also reads the one module a transform meets on the bundler's
 *   thread (`oneFileScanner` in options.ts): raw transfer's buffer would cost that thread a full
 *   collection of its heap.
 * - `estree` (scan-estree.ts): the whole tree walked with scopes. The only one that sees a local `t`
 *   hiding the keyword: the other two hand it every program whose text may declare a keyword's name
 *   (`needsScopes`, bindings.ts), and as a scanner of its own it runs the fixtures through that path.
 * - `lazy-nodes`, `json-nodes`: `lazy` and `json` without the quick read of calls from the source
 *   text (quick.ts), the path they take for any call the quick read declines; scanners of their own
 *   so that the fixtures hold both paths to the same output.
 *
 * BENCHMARKS.md, "Extraction scanners" (bench/sections/scanners.ts), holds each one's cost; on
 * 2026-11-26: lazy 0.56 of json's CPU time on Node 22, estree 2.7 (Node 20) to 4.7 (Node 22) times
 * the default, so it runs only where scopes are needed; the quick read saves from nothing to a
 * quarter of a scanner's time depending on the run (noisy on the shared machine), and is kept.
 */

import { needsScopes } from './bindings'
import type { FileContext } from './file-context'
import type { ScannerName } from './options'
import { lazySupported } from './oxc'
import { scanEstree } from './scan-estree'
import { parseJsonProgram, scanJsonText, treeOf } from './scan-json'
import { scanLazy } from './scan-lazy'
import type { ParseUnit } from './sources'

export { lazySupported } from './oxc'
export { mayDeclare, mentionsKeyword } from './precheck'

/** One way of reading a program: finds its keyword calls and hands each to calls.ts, which adds it to `ctx`. */
export interface Scanner {
  readonly name: ScannerName
  scan(ctx: FileContext, unit: ParseUnit): void
}

const estree: Scanner = {
  name: 'estree',
  scan(ctx, unit) {
    const program = parseJsonProgram(ctx, unit)
    if (program !== null) scanEstree(ctx, unit, treeOf(program), program.bindings)
  },
}

function jsonScanner(name: ScannerName, quickReads: boolean): Scanner {
  return {
    name,
    scan(ctx, unit) {
      const program = parseJsonProgram(ctx, unit)
      if (program === null) return
      const { json, imports, bindings } = program
      if (needsScopes(unit.code, bindings, imports, ctx.options.runtimeModule)) {
        scanEstree(ctx, unit, treeOf(program), bindings)
      } else scanJsonText(ctx, json, bindings, quickReads)
    },
  }
}

/**
 * Past this many `import` words a program is not given to raw transfer. oxc-parser 0.159's raw transfer
 * aborts the whole process (a panic, "out of memory" in its arena: no error a caller can catch) on a
 * program of about 4,750 import declarations with bindings (4,700 parse, 4,800 abort, on Node 22 and
 * 24), which a generated barrel or route table can reach; the JSON AST reads the same program and finds
 * the same calls.
 */
const RAW_TRANSFER_MAX_IMPORTS = 2_000

/** True when `code` holds too few `import` words to reach the raw-transfer abort above. */
export function rawTransferSafe(code: string): boolean {
  // The shortest declaration with a binding (`import a from"b"`) has 16 characters.
  if (code.length < RAW_TRANSFER_MAX_IMPORTS * 16) return true
  let count = 0
  for (let at = code.indexOf('import'); at !== -1; at = code.indexOf('import', at + 6)) {
    if (++count > RAW_TRANSFER_MAX_IMPORTS) return false
  }
  return true
}

function lazyScanner(name: ScannerName, quickReads: boolean, json: Scanner): Scanner {
  return {
    name,
    scan(ctx, unit) {
      if (!rawTransferSafe(unit.code)) json.scan(ctx, unit)
      else if (!scanLazy(ctx, unit, quickReads)) estree.scan(ctx, unit)
    },
  }
}

const json = jsonScanner('json', true)
const jsonNodes = jsonScanner('json-nodes', false)
const SCANNERS: Record<ScannerName, Scanner> = {
  lazy: lazyScanner('lazy', true, json),
  'lazy-nodes': lazyScanner('lazy-nodes', false, jsonNodes),
  json,
  'json-nodes': jsonNodes,
  estree,
}

/** Every scanner this Node can run: the lazy ones need raw transfer (Node >= 22). */
export function availableScanners(): readonly ScannerName[] {
  return lazySupported()
    ? ['lazy', 'lazy-nodes', 'json', 'json-nodes', 'estree']
    : ['json', 'json-nodes', 'estree']
}

/** The scanner of a name the options resolved (`resolveExtractOptions` checks it can run here). */
export function scannerFor(name: ScannerName): Scanner {
  return SCANNERS[name]
}

/** Scans one program of a file into `ctx` with `scanner`. */
export function scanUnit(ctx: FileContext, unit: ParseUnit, scanner: Scanner): void {
  scanner.scan(ctx, unit)
}
