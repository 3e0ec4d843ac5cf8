import { relative } from 'node:path'
import type { Diagnostic, Message } from '../extract/types'
import { mayNameAStyle, unknownStyleProblem } from '../icu/styles'
import type { Formats } from '../model/formats'
import { APP_PLACEHOLDER_SOURCE, type PlaceholderSpec } from '../model/placeholders'

/**
 * The app's messages against the `formats` option: a style name neither built in nor in `formats`
 * (`{price, number, GBP}` with no `formats.number.GBP`) formats as no style at all, a plain `123.457`
 * where react-intl showed `£123.46`. Such a name was read so, silently, before the option existed, and
 * it is what intl-messageformat (the oracle) does, which test/icu/conformance-cases.ts holds the build
 * to ("unknown named number style"): so the reading stays, and each place the message is written gets
 * a warning naming the fix, in production builds too. Here rather than in the extraction: its results
 * (and its cache) stay free of the option, and `tms import` matches such a message whatever the
 * build's formats.
 */
export function unknownStyleDiagnostics(
  messages: readonly Message[],
  formats: Formats,
  placeholder: PlaceholderSpec,
  cwd: string,
): Diagnostic[] {
  // As the extraction: ICU is the syntax of the app's own placeholders only.
  if (placeholder.custom !== APP_PLACEHOLDER_SOURCE) return []
  const out: Diagnostic[] = []
  for (const m of messages) {
    // Most messages name no style: only those that may are parsed (a build start checks them all).
    if (!mayNameAStyle(m.text)) continue
    const found = unknownStyleProblem(m.text, formats)
    if (!found) continue
    for (const at of m.locations) {
      out.push({
        severity: 'warning',
        code: 'unknown-format',
        message: `${relative(cwd, at.file) || at.file}:${at.line}:${at.column}: the message ${JSON.stringify(m.text)}: ${found.problem}`,
        file: at.file,
        line: at.line,
        column: at.column,
      })
    }
  }
  return out
}
