/**
 * One file's extraction in progress: the call sites, messages and diagnostics that the scanners and
 * the call, `<T>`, Vue and Svelte readers add to, with the file's positions (line and column of an
 * offset) and the rule for a message used twice with different metadata.
 */
import { relative } from 'node:path'
import type { ResolvedExtractOptions } from './options'
import { memoOf, NO_PLACEHOLDERS, type PlaceholderMemo, parseCached } from './placeholder-memo'
import { type CallSite, type Diagnostic, type Message, messageKey, type Range } from './types'

/** The service's limit on `stringText`. */
export const MAX_TEXT_LENGTH = 10000

/** Per-file state of one extraction: what the readers of calls, `<T>` and templates fill in. */
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
  readonly #memo: PlaceholderMemo

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
