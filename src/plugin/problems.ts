import type { Diagnostic } from '../core/extract/index'

/**
 * A problem to hand to the bundler: a build warning or error, with the source position and a code
 * frame when it comes from a file. Each bundler gets it in its own shape (see toRollupLog / toText).
 */
export interface Problem {
  severity: 'warning' | 'error'
  /** Stable code: an extractor diagnostic's (`non-literal-text`, ...), or `sync`, `threshold`. */
  code: string
  /** Self-contained: starts with `file:line:column` when there is a position. */
  message: string
  file?: string
  line?: number
  column?: number
  frame?: string
}

/** A few lines around `line` with a caret under `column` (both 1-based), as bundlers print them. */
export function codeFrame(code: string, line: number, column: number): string {
  const lines = code.split(/\r?\n/)
  // The "line" after a file's final newline is not one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  const first = Math.max(1, line - 2)
  const last = Math.min(lines.length, line + 1)
  const width = String(last).length
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, '  ')
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${text}`)
    if (n === line) {
      const before = (lines[n - 1] ?? '').slice(0, column - 1).replace(/\t/g, '  ')
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(before.length)}^`)
    }
  }
  return out.join('\n')
}

export function problemFromDiagnostic(d: Diagnostic, code: string | undefined): Problem {
  const problem: Problem = { severity: d.severity, code: d.code, message: d.message, file: d.file }
  if (d.line !== undefined) {
    problem.line = d.line
    problem.column = d.column ?? 1
    if (code !== undefined) problem.frame = codeFrame(code, d.line, problem.column)
  }
  return problem
}

/** The message without its leading `file:line:column: `, for bundlers that print the location themselves. */
function withoutLocation(p: Problem): string {
  if (p.line === undefined) return p.message
  const m = /^[^\n]*?:\d+:\d+: /.exec(p.message)
  return m ? p.message.slice(m[0].length) : p.message
}

/** Rollup, rolldown and vite print `id (line:column)` and the frame from these fields. */
export interface RollupLikeLog {
  message: string
  id?: string
  loc?: { file: string; line: number; column: number }
  frame?: string
  pluginCode?: string
}

/**
 * `located`: the printer shows only the message (vite's logger prints a warning's text, never its id,
 * position or frame), so the location and the frame stay in the text; the fields are still set for an
 * `onwarn`/`onLog` of the user's that reads them.
 */
export function toRollupLog(p: Problem, located = false): RollupLikeLog {
  if (p.file === undefined || p.line === undefined) return { message: p.message, pluginCode: p.code }
  return {
    message: located ? (p.frame ? `${p.message}\n${p.frame}` : p.message) : withoutLocation(p),
    id: p.file,
    // Rollup's columns are 0-based.
    loc: { file: p.file, line: p.line, column: (p.column ?? 1) - 1 },
    frame: p.frame,
    pluginCode: p.code,
  }
}

/** webpack and rspack keep only a message: the plugin's name, location and frame go into its text. */
export function toText(p: Problem): string {
  const message = p.message.startsWith('[unplugin-tms]') ? p.message : `[unplugin-tms] ${p.message}`
  return p.frame ? `${message}\n${p.frame}` : message
}
