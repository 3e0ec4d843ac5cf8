import { relative } from 'node:path'
import { mergeMeta } from './file-context'
import { mergeableExtraction } from './payload'
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

  /** `owned`: nothing else keeps this result's objects (as `adopt`, for this result alone). */
  add(result: Pick<FileExtraction, 'messages' | 'diagnostics'>, owned: boolean = this.#adopt): void {
    const byKey = this.#byKey
    const diagnostics = this.#diagnostics
    for (const d of result.diagnostics) diagnostics.push(d)
    for (const m of result.messages) {
      const existing = byKey.get(m.key)
      if (existing === undefined) {
        if (owned) {
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

/**
 * The messages of a run of consecutive files, merged as far as they can be without the files before
 * them, for a {@link Merger} to take after those: per key, one message for each occurrence that
 * carries metadata (instruction, maxLength), the occurrences without any folded into the one before.
 * Fed these, a Merger ends exactly as if fed the files themselves, conflicting metadata included
 * (each is still reported at the occurrence that brings it). Takes the per-file objects as its own:
 * for messages-only runs, where nothing else keeps them.
 */
export class RunMerger {
  readonly #byKey = new Map<string, Message[]>()
  readonly #diagnostics: Diagnostic[] = []

  add(result: FileExtraction): void {
    for (const d of result.diagnostics) this.#diagnostics.push(d)
    for (const m of result.messages) {
      const run = this.#byKey.get(m.key)
      if (run === undefined) this.#byKey.set(m.key, [m])
      else if (m.instruction !== undefined || m.maxLength !== undefined) run.push(m)
      else {
        const last = run[run.length - 1]!
        for (const l of m.locations) last.locations.push(l)
      }
    }
  }

  /** What a Merger takes, as one file's extraction would be. */
  finish(): { messages: Message[]; diagnostics: Diagnostic[] } {
    const messages: Message[] = []
    for (const run of this.#byKey.values()) for (const m of run) messages.push(m)
    return { messages, diagnostics: this.#diagnostics }
  }
}

/**
 * {@link Merger} over `results`, in file order. A result read from the extraction cache and not decoded
 * yet gives the merge its messages alone, as objects of the merge's own (`mergeableExtraction`).
 */
export function mergeFiles(
  results: readonly FileExtraction[],
  cwd: string,
): { messages: Message[]; diagnostics: Diagnostic[] } {
  const merger = new Merger(cwd)
  for (const result of results) {
    const part = mergeableExtraction(result)
    merger.add(part, part.owned)
  }
  return merger.finish()
}
