import { join } from 'node:path'
import { type ExtractResult, extractMessages } from '../extract/index'
import type { Message } from '../extract/types'
import type { ResolvedOptions } from '../model/options'
import { extractOptionsOf } from '../pipeline'
import { openCache, syncTranslations } from '../sync'
import type { SyncClient, SyncLogger } from '../sync/types'
import {
  type ImportProblem,
  type MatchedTranslation,
  type MatchResult,
  matchCatalogs,
  placeFinder,
  placeOf,
} from './match'
import { ImportProgress } from './progress'
import { type CatalogFile, type FileRole, type Library, readCatalogs } from './read'
import { type ImportFilesClient, ImportStepError, type UploadOutcome, uploadTranslations } from './upload'

/**
 * `tms import` from start to end: read and convert the catalogs, extract this app's messages as a
 * build does, match, then (unless a dry run) create the matched messages' strings as push does and
 * import the translations through the files API. Returns the report the command prints.
 */

export interface ImportConnection {
  sync: SyncClient
  files: ImportFilesClient
  requests(): number
  close(): Promise<void>
}

export type ImportConnector = (options: ResolvedOptions) => Promise<ImportConnection | undefined>

export interface ImportInput {
  options: ResolvedOptions
  from: Library
  files: readonly CatalogFile[]
  locale?: string
  /** `--locale-map fr=fr-CA`: the app locale of a file locale. */
  localeMap?: Readonly<Record<string, string>>
  state: 'published' | 'pending'
  overwrite: boolean
  dryRun: boolean
  batchSize: number
  logger: SyncLogger
  connect: ImportConnector
}

export interface ImportReport {
  from: Library
  dryRun: boolean
  files: FileRole[]
  /** Messages of this app that got at least one translation. */
  messages: number
  locales: Record<string, { matched: number; imported: number | null }>
  /** Strings created for matched messages the cache did not know (dry run: would be created). */
  created: number
  untranslated: number
  matched: {
    text: string
    variant: string | null
    locale: string
    from: string
    ours: string
    converted: boolean
  }[]
  unmatched: ImportProblem[]
  refused: ImportProblem[]
  /** What the service answered in its import results. */
  serviceErrors: UploadOutcome['serviceErrors']
  requests: { total: number; uploads: number; imports: number; skipped: number }
  /** The extraction's errors (a message the build would refuse too). */
  diagnostics: string[]
}

/** The import stopped at one request: the report so far, and the request. */
export class ImportStoppedError extends Error {
  readonly report: ImportReport
  constructor(message: string, report: ImportReport) {
    super(message)
    this.name = 'ImportStoppedError'
    this.report = report
  }
}

function uniqueMessages(matched: readonly MatchedTranslation[]): Message[] {
  const seen = new Map<string, Message>()
  for (const t of matched) if (!seen.has(t.message.key)) seen.set(t.message.key, t.message)
  return [...seen.values()]
}

function baseReport(
  input: ImportInput,
  read: ReturnType<typeof readCatalogs>,
  extraction: ExtractResult,
  result: MatchResult,
): ImportReport {
  const { options } = input
  const findPlace = placeFinder(extraction.messages, options.root)
  const locales: ImportReport['locales'] = {}
  for (const t of read.targets) locales[t.locale] ??= { matched: 0, imported: null }
  for (const m of result.matched) locales[m.locale]!.matched++
  return {
    from: input.from,
    dryRun: input.dryRun,
    files: read.files,
    messages: uniqueMessages(result.matched).length,
    locales,
    created: 0,
    untranslated: read.untranslated,
    matched: result.matched.map((m) => ({
      text: m.text,
      variant: m.message.variant,
      locale: m.locale,
      from: m.from,
      ours: placeOf(m.message, options.root),
      converted: m.converted,
    })),
    unmatched: result.unmatched,
    refused: [
      ...read.refusals.map((r) => {
        const p: ImportProblem = {
          from: `${r.file}:${r.line}`,
          locale: localeOfFile(read.files, r.file),
          reason: r.reason,
        }
        if (r.key !== undefined) p.key = r.key
        const ours = r.key === undefined ? undefined : findPlace(r.key)
        if (ours !== undefined) p.ours = ours
        return p
      }),
      ...result.refused,
    ],
    serviceErrors: [],
    requests: { total: 0, uploads: 0, imports: 0, skipped: 0 },
    diagnostics: extraction.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
  }
}

const localeOfFile = (files: readonly FileRole[], file: string): string => {
  const role = files.find((f) => f.file === file)
  return role?.locale ?? role?.fileLocale ?? ''
}

export async function runImport(input: ImportInput): Promise<ImportReport> {
  const { options } = input
  const read = readCatalogs(input.from, input.files, {
    ...(input.locale ? { locale: input.locale } : {}),
    ...(input.localeMap ? { localeMap: input.localeMap } : {}),
    sourceLocale: options.sourceLocale,
    locales: options.locales,
    formats: options.formats,
  })
  const extraction = await extractMessages(extractOptionsOf(options))
  const result = matchCatalogs(read.targets, extraction.messages, options.root, options.formats)
  const report = baseReport(input, read, extraction, result)
  const messages = uniqueMessages(result.matched)
  const opened = await openCache(options)
  const manifest = opened.manifest()
  const known = manifest.hit ? manifest.value.entries : {}
  const unknown = messages.filter((m) => known[m.key] === undefined)
  report.created = unknown.length
  if (input.dryRun || messages.length === 0) return report
  if (!options.namespace)
    throw new Error(
      "[unplugin-tms] tms import needs a namespace (the namespace option, or a name in package.json): the uploaded files are read under it so that their strings are the app's",
    )
  const connection = await input.connect(options)
  if (!connection)
    throw new Error(
      '[unplugin-tms] tms import needs the service: set TMS_USER_IDENTIFIER and TMS_USER_SECRET, and projectId and baseUrl (or TMS_PROJECT_ID, TMS_BASE_URL)',
    )
  try {
    // As push does: the strings the cache does not know are created and recorded in its manifest.
    const sync = await syncTranslations({
      options,
      messages: unknown,
      client: connection.sync,
      logger: input.logger,
      push: true,
      pull: false,
      opened: Promise.resolve(opened),
    })
    report.created = sync.pushed
    if (sync.failures.length > 0) {
      report.requests.total = connection.requests()
      throw new ImportStoppedError(
        `${sync.failures.length === 1 ? 'a batch of strings was' : 'batches of strings were'} not created (see the warning above); nothing was imported: run the same command again`,
        report,
      )
    }
    const progress = await ImportProgress.open(join(options.cacheDir, 'import', 'progress.json'))
    const plan = {
      projectId: options.projectId!,
      namespace: options.namespace!,
      placeholder: options.placeholder,
      sourceLocale: options.sourceLocale,
      state: input.state,
      overwrite: input.overwrite,
      batchSize: input.batchSize,
      uriPrefix: `tms-import/${options.namespace}`,
    }
    const finish = (outcome: UploadOutcome): void => {
      for (const [locale, n] of Object.entries(outcome.imported)) {
        report.locales[locale] ??= { matched: 0, imported: null }
        report.locales[locale].imported = n
      }
      for (const locale of Object.values(report.locales)) locale.imported ??= 0
      report.serviceErrors = outcome.serviceErrors
      report.requests = { total: connection.requests(), ...outcome.requests }
    }
    try {
      finish(await uploadTranslations(connection.files, plan, result.matched, progress))
    } catch (error) {
      if (!(error instanceof ImportStepError)) throw error
      finish(error.outcome)
      throw new ImportStoppedError(
        `tms import stopped: ${error.message}. What was done is recorded in ${progress.file}; run the same command again to do the rest`,
        report,
      )
    }
    return report
  } finally {
    await connection.close()
  }
}
