import { relative } from 'node:path'
import { mergeMeta } from './calls'
import {
  compareMessages,
  type Diagnostic,
  type FileExtraction,
  type Message,
  type MessageLocation,
} from './types'

function compareLocations(a: MessageLocation, b: MessageLocation): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1
  return a.line - b.line || a.column - b.column
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)
}

/**
 * One message per key across files, with every location, fed one file at a time. Files must come in
 * file order: the first spelling and metadata met win, so the outcome does not depend on which thread
 * parsed what. The per-file objects are not changed (they live on in the caches), unless `adopt` says
 * that nothing else keeps them (a messages-only run): a message's first per-file object then becomes
 * the merged one instead of being copied.
 */
export class Merger {
  readonly #byKey = new Map<string, Message>()
  readonly #diagnostics: Diagnostic[] = []
  readonly #cwd: string
  readonly #adopt: boolean

  constructor(cwd: string, adopt = false) {
    this.#cwd = cwd
    this.#adopt = adopt
  }

  add(result: FileExtraction): void {
    const byKey = this.#byKey
    const diagnostics = this.#diagnostics
    for (const d of result.diagnostics) diagnostics.push(d)
    for (const m of result.messages) {
      const existing = byKey.get(m.key)
      if (existing === undefined) {
        if (this.#adopt) {
          byKey.set(m.key, m)
          continue
        }
        // Written out rather than spread: one object shape for all, several times faster on large trees.
        const copy: Message = {
          key: m.key,
          text: m.text,
          parsed: m.parsed,
          placeholders: m.placeholders,
          variant: m.variant,
          namespace: m.namespace,
          locations: m.locations.slice(),
        }
        if (m.instruction !== undefined) copy.instruction = m.instruction
        if (m.maxLength !== undefined) copy.maxLength = m.maxLength
        byKey.set(m.key, copy)
        continue
      }
      for (const l of m.locations) existing.locations.push(l)
      if (m.instruction === undefined && m.maxLength === undefined) continue
      const where = m.locations[0]!
      mergeMeta(existing, m, (what) =>
        diagnostics.push({
          severity: 'warning',
          code: 'conflicting-metadata',
          message: `${relative(this.#cwd, where.file) || where.file}:${where.line}:${where.column}: ${what}; the first one is kept`,
          file: where.file,
          line: where.line,
          column: where.column,
        }),
      )
    }
  }

  /** The messages sorted by text then variant, each one's locations sorted; the diagnostics sorted. */
  finish(): { messages: Message[]; diagnostics: Diagnostic[] } {
    const messages = [...this.#byKey.values()]
    for (const m of messages) if (m.locations.length > 1) m.locations.sort(compareLocations)
    messages.sort(compareMessages)
    this.#diagnostics.sort(compareDiagnostics)
    return { messages, diagnostics: this.#diagnostics }
  }
}

/** {@link Merger} over `results`, in file order. */
export function mergeFiles(
  results: readonly FileExtraction[],
  cwd: string,
): { messages: Message[]; diagnostics: Diagnostic[] } {
  const merger = new Merger(cwd)
  for (const result of results) merger.add(result)
  return merger.finish()
}
