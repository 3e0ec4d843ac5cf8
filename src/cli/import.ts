import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { CAC } from 'cac'
import { loadOptions } from '../config'
import { type CatalogFile, ImportReadError, LIBRARIES, type Library } from '../core/import/read'
import { type ImportReport, ImportStoppedError } from '../core/import/run'
import { counted } from '../core/wording'
import { type Options, resolveOptions } from '../options'

/** `tms import --from <lingui|formatjs|i18next> <files...>`: another library's catalogs into the service. */

interface ImportFlags {
  from?: string
  json?: boolean
  dryRun?: boolean
  locale?: string
  localeMap?: string | string[]
  state?: string
  overwrite?: boolean
  batchSize?: string | number
  root?: string
}

/** A mistake in the command line or a file: one line, no stack. */
class InputError extends Error {}

const STATES = ['published', 'pending'] as const

async function readInputs(files: readonly string[], cwd: string): Promise<CatalogFile[]> {
  if (files.length === 0)
    throw new InputError(
      'tms import needs the catalog files to read: tms import --from lingui locales/*/messages.po',
    )
  return Promise.all(
    files.map(async (file) => {
      try {
        return { file, text: await readFile(resolve(cwd, file), 'utf8') }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        throw new InputError(
          code === 'ENOENT'
            ? `${file}: no such file`
            : `${file}: cannot be read (${code ?? (error as Error).message})`,
        )
      }
    }),
  )
}

function flagsChecked(flags: ImportFlags): {
  from: Library
  state: 'published' | 'pending'
  batchSize: number
} {
  if (flags.from === undefined)
    throw new InputError(`tms import needs --from: one of ${LIBRARIES.join(', ')}`)
  if (!(LIBRARIES as readonly string[]).includes(String(flags.from)))
    throw new InputError(
      `--from ${flags.from} is not a library tms import reads: use one of ${LIBRARIES.join(', ')}`,
    )
  const state = String(flags.state ?? 'published')
  if (!(STATES as readonly string[]).includes(state))
    throw new InputError(
      `--state ${state} is not a translation state: use published (the default) or pending`,
    )
  const batchSize = flags.batchSize === undefined ? 1000 : Number(flags.batchSize)
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new InputError(`--batch-size ${flags.batchSize} is not a positive whole number of messages`)
  return { from: flags.from as Library, state: state as 'published' | 'pending', batchSize }
}

/** `--locale-map fr=fr-CA` (repeated, or `fr=fr-CA,pt=pt-BR`) as a record; a malformed pair is an error. */
export function localeMapOf(value: string | string[] | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined
  const map: Record<string, string> = {}
  for (const pair of [value].flat().flatMap((v) => String(v).split(','))) {
    const match = /^\s*([A-Za-z0-9_-]+)\s*=\s*([A-Za-z0-9_-]+)\s*$/.exec(pair)
    if (!match)
      throw new InputError(
        `--locale-map ${pair}: write the file's locale, =, and the app's locale it goes to (--locale-map fr=fr-CA)`,
      )
    map[match[1]!.replace(/_/g, '-')] = match[2]!
  }
  return map
}

function problemLine(p: { from: string; reason: string; ours?: string; locale: string }): string {
  return `  ${p.from}${p.locale ? ` (${p.locale})` : ''}: ${p.reason}${p.ours && !p.reason.includes(p.ours) ? ` [ours: ${p.ours}]` : ''}`
}

/** The report as text: counts, then each message left out with both places. */
export function formatImportReport(report: ImportReport): string {
  const lines: string[] = []
  const verb = report.dryRun ? 'would import' : 'imported'
  lines.push(
    `${report.files.length} ${report.from} catalog file${report.files.length === 1 ? '' : 's'} read; ${counted(report.messages, 'message')} of this app matched`,
  )
  for (const [locale, l] of Object.entries(report.locales).sort(([a], [b]) => a.localeCompare(b))) {
    const imported = l.imported === null ? '' : ` (${l.imported} taken by the service)`
    lines.push(`  ${locale}: ${verb} ${counted(l.matched, 'translation')}${imported}`)
  }
  const converted = report.matched.filter((m) => m.converted).length
  if (converted > 0) lines.push(`${counted(converted, 'translation')} converted to this app's names or text`)
  lines.push(`${counted(report.created, 'string')} ${report.dryRun ? 'to create' : 'created'} on the service`)
  if (report.untranslated > 0)
    lines.push(`${counted(report.untranslated, 'entry', 'entries')} not translated in the catalogs`)
  if (report.unmatched.length > 0) {
    lines.push(`${counted(report.unmatched.length, 'translation')} matched no message of this app:`)
    for (const p of report.unmatched) lines.push(problemLine(p))
  }
  if (report.refused.length > 0) {
    lines.push(`${counted(report.refused.length, 'translation')} refused:`)
    for (const p of report.refused) lines.push(problemLine(p))
  }
  if (report.serviceErrors.length > 0) {
    lines.push(`${counted(report.serviceErrors.length, 'error')} in the service's answers:`)
    for (const e of report.serviceErrors) lines.push(`  ${e.fileUri} (${e.locale}): ${e.error}`)
  }
  if (!report.dryRun) {
    const { total, skipped } = report.requests
    lines.push(
      `${counted(total, 'request')} made${skipped > 0 ? `, ${skipped} done by an earlier run and skipped` : ''}`,
    )
  }
  for (const d of report.diagnostics) lines.push(`error: ${d}`)
  return `${lines.join('\n')}\n`
}

export async function runImportCommand(
  files: readonly string[],
  flags: ImportFlags,
  cwd: string,
): Promise<number> {
  const checked = flagsChecked(flags)
  const localeMap = localeMapOf(flags.localeMap)
  const inputs = await readInputs(files, cwd)
  const inline: Options = {}
  if (flags.root) inline.root = flags.root
  const options = resolveOptions(await loadOptions(inline), { command: 'cli' })
  const json = flags.json === true
  const { runImport } = await import('../core/import/run')
  const { connectImport } = await import('../service')
  let report: ImportReport
  let stopped: string | undefined
  try {
    report = await runImport({
      options,
      from: checked.from,
      files: inputs,
      ...(flags.locale ? { locale: String(flags.locale) } : {}),
      ...(localeMap ? { localeMap } : {}),
      state: checked.state,
      overwrite: flags.overwrite === true,
      dryRun: flags.dryRun === true,
      batchSize: checked.batchSize,
      logger: {
        info: (message) => {
          if (!json) process.stderr.write(`${message}\n`)
        },
        warn: (message) => process.stderr.write(`warning: ${message}\n`),
      },
      connect: connectImport(),
    })
  } catch (error) {
    if (error instanceof ImportReadError) throw new InputError(error.message)
    if (!(error instanceof ImportStoppedError)) throw error
    report = error.report
    stopped = error.message
  }
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatImportReport(report))
  if (stopped) {
    process.stderr.write(`error: ${stopped}\n`)
    return 1
  }
  return report.diagnostics.length > 0 ? 1 : 0
}

export function registerImportCommand(cli: CAC): void {
  cli
    .command(
      'import [...files]',
      "Bring another library's catalogs into the service, onto this app's messages",
    )
    .option('--from <library>', `The library that wrote the catalogs: ${LIBRARIES.join(', ')}`)
    .option('--dry-run', 'Read, match and report; send nothing')
    .option('--json', 'Print the report as JSON')
    .option('--locale <code>', "The files' locale (else from each file's header or path)")
    .option(
      '--locale-map <pairs>',
      "A file locale's app locale where the rule finds none or several: fr=fr-CA (repeat, or comma-separate)",
    )
    .option('--state <state>', 'published (default) or pending (the first workflow step after translation)')
    .option('--overwrite', 'Replace translations the service has already')
    .option('--batch-size <n>', 'Messages per uploaded file (default 1000)')
    .option('--root <dir>', 'Project root (where tms.config.* and the globs are read)')
    .action(async (files: string[], flags: ImportFlags) => {
      try {
        process.exitCode = await runImportCommand(files, flags, process.cwd())
      } catch (error) {
        const message = (error as Error).message
        process.stderr.write(`${error instanceof InputError ? 'error: ' : ''}${message}\n`)
        process.exitCode = 1
      }
    })
}
