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
 * One message per key across files, with every location. `results` must be in file order: the first
 * spelling and metadata met win, so the outcome does not depend on which thread parsed what. The
 * per-file objects are not changed (they live on in the caches).
 */
export function mergeFiles(
  results: readonly FileExtraction[],
  cwd: string,
): { messages: Message[]; diagnostics: Diagnostic[] } {
  const byKey = new Map<string, Message>()
  const diagnostics: Diagnostic[] = []
  for (const result of results) {
    for (const d of result.diagnostics) diagnostics.push(d)
    for (const m of result.messages) {
      const existing = byKey.get(m.key)
      if (existing === undefined) {
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
      const where = m.locations[0]!
      mergeMeta(existing, m, (what) =>
        diagnostics.push({
          severity: 'warning',
          code: 'conflicting-metadata',
          message: `${relative(cwd, where.file) || where.file}:${where.line}:${where.column}: ${what}; the first one is kept`,
          file: where.file,
          line: where.line,
          column: where.column,
        }),
      )
    }
  }
  const messages = [...byKey.values()]
  for (const m of messages) if (m.locations.length > 1) m.locations.sort(compareLocations)
  messages.sort(compareMessages)
  diagnostics.sort(compareDiagnostics)
  return { messages, diagnostics }
}
