import { createRequire } from 'node:module'
import type * as Parser from 'oxc-parser'
import type * as Binding from 'oxc-parser/src-js/bindings'

/**
 * oxc-parser, loaded when a program is first parsed rather than with the plugin: a warm build whose
 * every file the extraction cache answers, and every module the transform memo, parses none, and the
 * parser's native binding costs a process some 12 ms to load (BENCHMARKS.md's 2,000-component build,
 * profiled on Node 22). `require` of the package's ES modules runs on every Node this package
 * supports (20.19 and later).
 */
const load = createRequire(import.meta.url)

let parser: typeof Parser | undefined
let binding: typeof Binding | undefined
let rawTransfer: boolean | undefined

/** The parser's API. */
export function oxcParser(): typeof Parser {
  parser ??= load('oxc-parser') as typeof Parser
  return parser
}

/** The parser's raw binding, whose `parseSync` gives the program as a JSON string (the json scanners). */
export function oxcBinding(): typeof Binding {
  binding ??= load('oxc-parser/src-js/bindings') as typeof Binding
  return binding
}

/** Whether the lazy scanners can run here: raw transfer needs Node >= 22 on a 64-bit little-endian machine. */
export function lazySupported(): boolean {
  rawTransfer ??= oxcParser().rawTransferSupported()
  return rawTransfer
}
