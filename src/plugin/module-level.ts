import { relative } from 'node:path'
import type { Diagnostic, FileExtraction } from '../core/extract/index'

/**
 * The warning for a message call evaluated at module level in runtime mode (`export const label =
 * t('Red')`): it runs once, as the module loads, before any `setLocale` can reach it, so the page
 * keeps that text after a switch. Extraction marks such calls (`CallSite.moduleLevel`); inline mode's
 * copies each hold their own locale's text, so only runtime mode warns. The fix is the descriptor.
 */
export function moduleLevelProblems(fx: FileExtraction, code: string, cwd: string): Diagnostic[] {
  const sites = fx.calls.filter((site) => site.moduleLevel)
  const [site] = sites
  if (!site) return []
  // One warning per module, at its first such call: a table of 500 labels is one mistake, not 500.
  const rel = relative(cwd, fx.file) || fx.file
  const callee = code.slice(site.callee.start, site.callee.end)
  const call = site.kind === 'tagged' ? `${callee}\`...\`` : `${callee}(...)`
  const more =
    sites.length > 1
      ? ` (and ${sites.length - 1} more message ${sites.length === 2 ? 'call' : 'calls'} at module level in this file)`
      : ''
  return [
    {
      severity: 'warning',
      code: 'module-level-message',
      message: `${rel}:${site.line}:${site.column}: ${call} runs once, when the module is evaluated, so its text stays in the locale of that moment and no setLocale changes it${more}; define the message with msg() from unplugin-tms/runtime (same arguments) and call it where it is rendered (docs/messages.md, "Messages defined outside a render")`,
      file: fx.file,
      line: site.line,
      column: site.column,
    },
  ]
}
