import { readFileSync } from 'node:fs'
import type { Diagnostic } from '../core/extract/index'
import { authorizationHint, type TmsReport, thresholdFailure } from '../core/report'
import type { ResolvedOptions } from '../options'

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
 * Who prints a warning's location and frame: `'fields'`, the bundler (rollup's and rolldown's
 * `id (line:column)` and frame); `'text'`, nobody (vite 8's logger prints a warning's text alone), so
 * both stay in the text; `'frame'`, rollup puts `id (line:column): ` before the text and vite 5 to 7
 * print that alone, so only the frame goes into the text. The fields are set in every case, for an
 * `onwarn`/`onLog` of the user's that reads them.
 */
export type WarningPrinter = 'fields' | 'text' | 'frame'

/**
 * Vite's printer (see {@link WarningPrinter}): rollup's, in a build of vite 5 to 7; else (vite 8's
 * rolldown, a dev server) vite's logger alone.
 */
export function vitePrinter(ctx: unknown, command: 'build' | 'serve' | undefined): WarningPrinter {
  const meta = (ctx as { meta?: { rolldownVersion?: string } } | undefined)?.meta
  return command === 'build' && !meta?.rolldownVersion ? 'frame' : 'text'
}

export function toRollupLog(p: Problem, printer: WarningPrinter = 'fields'): RollupLikeLog {
  if (p.file === undefined || p.line === undefined) return { message: p.message, pluginCode: p.code }
  const text = printer === 'text' ? p.message : withoutLocation(p)
  return {
    message: printer !== 'fields' && p.frame ? `${text}\n${p.frame}` : text,
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

/** A diagnostic with the code frame of its file (`code`, else read again: only the few files with problems). */
export function framedProblem(d: Diagnostic, code?: string): Problem {
  let text = code
  if (text === undefined && d.line !== undefined) {
    try {
      text = readFileSync(d.file, 'utf8')
    } catch {
      text = undefined
    }
  }
  return problemFromDiagnostic(d, text)
}

/**
 * A sync's problems with those its report adds: the strings awaiting authorization (the report is
 * info, which most bundlers do not print: a translation that cannot show is a warning) and the
 * coverage threshold's failure, an error in a build. A dev server only warns.
 */
export function withReportProblems(
  problems: Problem[],
  report: TmsReport,
  options: ResolvedOptions,
  command: 'build' | 'serve',
): Problem[] {
  if (report.unauthorized) {
    problems.push({ severity: 'warning', code: 'sync', message: authorizationHint(report.unauthorized) })
  }
  const failure = thresholdFailure(report, options)
  if (failure) {
    problems.push({
      severity: command === 'build' ? 'error' : 'warning',
      code: 'threshold',
      message: failure,
    })
  }
  if (command === 'serve') for (const p of problems) if (p.severity === 'error') p.severity = 'warning'
  return problems
}
