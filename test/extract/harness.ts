import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { ExtractResult, Message } from '../../src/core/extract/index'

/** A long slice of source shown by its ends and length, so expected files stay readable. */
function abbreviate(text: string): string {
  return text.length > 160 ? `${text.slice(0, 60)}…${text.slice(-20)} (${text.length} chars)` : text
}

function label(m: Message | undefined): string {
  if (m === undefined) return '(no message)'
  return m.variant === null ? abbreviate(m.text) : `${abbreviate(m.text)} [${m.variant}]`
}

/**
 * A readable, exact picture of an extraction: every message with its parsed text and locations, every
 * call site as the source slices its ranges cover, every diagnostic. Fixture tests compare it whole.
 */
export function describeExtraction(result: ExtractResult, cwd: string): unknown {
  const byKey = new Map(result.messages.map((m) => [m.key, m]))
  const rel = (file: string) => relative(cwd, file).split('\\').join('/')
  const calls: Record<string, unknown[]> = {}
  for (const file of [...result.files.keys()].sort()) {
    const fx = result.files.get(file)!
    if (fx.calls.length === 0) continue
    const code = readFileSync(file, 'utf8')
    const slice = (r: { start: number; end: number }) => abbreviate(code.slice(r.start, r.end))
    calls[rel(file)] = fx.calls.map((c) => ({
      at: `${c.line}:${c.column}`,
      kind: c.kind,
      ...(c.descriptor ? { descriptor: true } : {}),
      code: slice(c),
      callee: slice(c.callee),
      ...(c.kind === 'call' ? { args: c.args.map(slice) } : {}),
      ...(c.expressions ? { expressions: c.expressions.map((e) => `${slice(e)} -> {${e.name}}`) } : {}),
      ...(c.jsx
        ? {
            open: slice(c.jsx.open),
            pieces: c.jsx.pieces.map((p) =>
              p.kind === 'value'
                ? `${slice(p)} -> {${p.name}}`
                : `${slice(p)} -> <${p.name}>${p.close === null ? ' self-closing' : ''}${p.key === null ? ' keyed' : ''}`,
            ),
          }
        : {}),
      message: label(byKey.get(c.messageKey)),
      ...(c.pluralKey !== undefined ? { plural: label(byKey.get(c.pluralKey)) } : {}),
      placeholders: c.placeholders,
      ...(c.pluralPlaceholders !== undefined ? { pluralPlaceholders: c.pluralPlaceholders } : {}),
      ...(c.markup !== undefined ? { markup: c.markup } : {}),
    }))
  }
  return {
    messages: result.messages.map((m) => ({
      text: abbreviate(m.text),
      parsed: abbreviate(m.parsed),
      placeholders: m.placeholders,
      variant: m.variant,
      ...(m.instruction !== undefined ? { instruction: m.instruction } : {}),
      ...(m.maxLength !== undefined ? { maxLength: m.maxLength } : {}),
      locations: m.locations.map((l) => `${rel(l.file)}:${l.line}:${l.column}`),
    })),
    calls,
    diagnostics: result.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`),
  }
}
