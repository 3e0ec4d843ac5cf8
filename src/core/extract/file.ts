import { hash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { astroUnits } from './astro'
import { FileContext } from './file-context'
import { mentionsJsxMessages, scanJsx } from './jsx'
import { excessiveNesting, MAX_NESTING } from './nesting'
import type { ResolvedExtractOptions, ScannerName } from './options'
import { mentionsKeyword, scannerFor, scanUnit } from './scan'
import { type ParseUnit, parseUnits } from './sources'
import { svelteUnits } from './svelte'
import type { FileExtraction } from './types'
import { MESSAGE_COMPONENT_MENTION, scanVueTemplate } from './vue'

/** sha1 of a file's text: the content-hash cache key. */
export function contentHash(code: string): string {
  return hash('sha1', code)
}

/** What happened to a file: parsed, or skipped by the keyword pre-check. */
export type ExtractOutcome = 'parsed' | 'skipped'

/**
 * Extraction of one file's text, with no cache and no I/O. `hashed` can pass the content hash when the
 * caller already has it; `scannerName` the scanner, when not the options' (see `oneFileScanner`).
 */
export function extractUncached(
  file: string,
  code: string,
  options: ResolvedExtractOptions,
  hashed?: string,
  scannerName: ScannerName = options.scanner,
): { result: FileExtraction; outcome: ExtractOutcome } {
  // A messages-only run caches nothing, so it has no use for the hash.
  const fileHash = hashed ?? (options.messagesOnly ? '' : contentHash(code))
  const jsx = mentionsJsxMessages(code)
  const vue = /\.vue$/i.test(file)
  if (!jsx && !mentionsKeyword(code, options) && !(vue && MESSAGE_COMPONENT_MENTION.test(code))) {
    return { result: { file, hash: fileHash, messages: [], calls: [], diagnostics: [] }, outcome: 'skipped' }
  }
  const ctx = new FileContext(file, code, options)
  const scanner = scannerFor(scannerName)
  const scan = (unit: ParseUnit): void => {
    // The parser would crash the process on this file (see nesting.ts): a warning instead.
    const deep = excessiveNesting(unit.code)
    if (deep >= 0) {
      ctx.report(
        'warning',
        'too-deep',
        deep,
        `brackets nested more than ${MAX_NESTING} deep; the file is not parsed and its messages are not extracted`,
      )
      return
    }
    scanUnit(ctx, unit, scanner)
    if (jsx) scanJsx(ctx, unit)
  }
  // Svelte markup needs Svelte's own parser (svelte.ts), an Astro template Astro's (astro.ts); every
  // other file is split in sources.ts, and a .vue file's template is read with Vue's (vue.ts).
  const units = /\.svelte$/i.test(file)
    ? svelteUnits(ctx)
    : /\.astro$/i.test(file)
      ? astroUnits(ctx)
      : parseUnits(file, code)
  for (const unit of units) scan(unit)
  if (vue) scanVueTemplate(ctx, scan)
  const calls = ctx.sites.sort((a, b) => a.start - b.start)
  return {
    result: {
      file,
      hash: fileHash,
      messages: [...ctx.messages.values()],
      calls,
      diagnostics: ctx.diagnostics,
    },
    outcome: 'parsed',
  }
}

/** Reads and extracts one file from disk; an unreadable file is a warning, not a failure. */
export function extractFileFromDisk(
  file: string,
  options: ResolvedExtractOptions,
): { result: FileExtraction; outcome: ExtractOutcome | 'unreadable' } {
  let code: string
  try {
    code = readFileSync(file, 'utf8')
  } catch (error) {
    const rel = relative(options.cwd, file) || file
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    return {
      result: {
        file,
        hash: '',
        messages: [],
        calls: [],
        diagnostics: [
          { severity: 'warning', code: 'read-error', message: `${rel}: cannot be read (${reason})`, file },
        ],
      },
      outcome: 'unreadable',
    }
  }
  return extractUncached(file, code, options)
}
