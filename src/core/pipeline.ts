import { join } from 'node:path'
import { type ExtractResult, extractMessages } from './extract/index'
import { mayUseNetwork, type ResolvedOptions } from './model/options'
import { buildReport, type TmsReport } from './report'
import {
  type OpenedCache,
  openCache,
  type SyncClient,
  type SyncLogger,
  type SyncResult,
  syncTranslations,
  TmsSyncError,
} from './sync'

/**
 * Extract, push, pull, report: the one sequence behind a build's start and the `tms` commands, so the
 * plugin and the CLI can never disagree about a message or a translation.
 */

export interface PipelineInput {
  options: ResolvedOptions
  logger: SyncLogger
  /** Create new strings now; defaults to `options.push`. */
  push?: boolean
  /** Fetch translations now; defaults to true. */
  pull?: boolean
  /**
   * Fail on a configuration error (a refusal of the service, a missing setting, an include that
   * matches no file): production builds and commands, the default. A dev server warns and goes on.
   */
  strict?: boolean
  /** The way to the service (`connectService` of `src/service.ts`); core does not know the API client. */
  connect: ServiceConnector
  /** The connection and the cache, started already with these options ({@link prepareSync}). */
  prepared?: PreparedSync
  /** A production build: catalogs through their memo (see `SyncInput.memo`). */
  memo?: boolean
  /** Inline copies: the memos keep every checked translation (see `SyncInput.keepTexts`). */
  keepTexts?: boolean
  /** `tms push`: the strings the manifest records are checked on the service (see `SyncInput.verify`). */
  verify?: boolean
}

/** A sync's connection and cache, under way while the messages are extracted. */
export interface PreparedSync {
  connection: Promise<ServiceConnection | undefined>
  cache: Promise<OpenedCache>
}

/**
 * Starts what a sync needs before the extraction is done: the client (its import) and the cache's
 * manifest. A build's transforms start once the extraction is, and a pull that starts after them
 * waits behind them for each step; started here, the pull's first requests go out with the
 * extraction's end. Hand it to {@link syncExtraction} (with the same `memo`), or to {@link releasePrepared}
 * when no sync follows. `lasting`: a dev server's or a watch's build (see `openCache`).
 */
export function prepareSync(
  options: ResolvedOptions,
  connect: ServiceConnector,
  memo = false,
  lasting = false,
): PreparedSync {
  // A build with catalog memos and no network leaves the manifest unparsed: the memos may answer.
  const prepared = {
    connection: connect(options),
    cache: openCache(options, undefined, memo && !usesService(options), lasting),
  }
  // Awaited by the sync, or released; until then a failure must not count as unhandled.
  prepared.connection.catch(() => undefined)
  prepared.cache.catch(() => undefined)
  return prepared
}

/** Closes the connection of a prepared sync that will not run (the extraction failed). */
export async function releasePrepared(prepared: PreparedSync): Promise<void> {
  const connection = await prepared.connection.catch(() => undefined)
  await connection?.close()
}

/** What the pipeline needs of the service for one run: the sync calls, a request count and an end. */
export interface ServiceConnection {
  client: SyncClient
  /** Requests sent so far, for the report. */
  requests(): number
  /** Of those, the ones that got no answer (network failure, timeout). */
  unanswered?(): number
  /**
   * Resolves once the service has taken the credentials and the project (a request in the project
   * succeeded) or failed in a way that may pass; a refusal leaves it pending, and the sync fails with it.
   */
  accepted?: Promise<void>
  close(): Promise<void>
}

/** Opens a connection when the options allow network work (see {@link usesService}), else undefined. */
export type ServiceConnector = (options: ResolvedOptions) => Promise<ServiceConnection | undefined>

export interface PipelineResult {
  extraction: ExtractResult
  sync: SyncResult
  report: TmsReport
}

/** The extractor options implied by the plugin options. */
export function extractOptionsOf(options: ResolvedOptions): Parameters<typeof extractMessages>[0] {
  return {
    cwd: options.root,
    include: options.include,
    exclude: options.exclude,
    keywords: options.keywords,
    placeholder: options.placeholder,
    namespace: options.namespace,
    cacheDir: join(options.cacheDir, 'extract'),
  }
}

/** Whether the options allow network work: the cache mode, credentials, project and API root. */
export function usesService(options: ResolvedOptions): boolean {
  return mayUseNetwork(options) && !!options.credentials && !!options.baseUrl && !!options.projectId
}

export async function runPipeline(input: PipelineInput): Promise<PipelineResult> {
  const extraction = await extractMessages(extractOptionsOf(input.options))
  return { extraction, ...(await syncExtraction(input, extraction)) }
}

/**
 * Push, pull and report for an extraction already made: the second half of {@link runPipeline}. A
 * build runs it while the bundler bundles (see TmsSession).
 */
export async function syncExtraction(
  input: PipelineInput,
  extraction: ExtractResult,
): Promise<Omit<PipelineResult, 'extraction'>> {
  const { options, logger } = input
  const { prepared } = input
  const nothing = noFileProblem(options, extraction)
  if (nothing && input.strict !== false) {
    if (prepared) await releasePrepared(prepared)
    throw new TmsSyncError('include', nothing)
  }
  if (nothing) logger.warn(nothing)
  const connection = await (prepared?.connection ?? input.connect(options))
  try {
    const sync = await syncTranslations({
      options,
      // Read when a step needs them: a build whose catalog memos answer does not.
      get messages() {
        return extraction.messages
      },
      count: extraction.count,
      messagesDigest: extraction.digest,
      client: connection?.client,
      logger,
      push: input.push,
      pull: input.pull,
      strict: input.strict,
      memo: input.memo,
      keepTexts: input.keepTexts,
      verify: input.verify,
      ...(prepared ? { opened: prepared.cache } : {}),
    })
    return { sync, report: buildReport(sync, connection?.requests() ?? 0, connection?.unanswered?.() ?? 0) }
  } finally {
    await connection?.close()
  }
}

/**
 * An include that selects no file is a wrong glob or root, never an app without text: a build would
 * ship with empty catalogs and no hint.
 */
function noFileProblem(options: ResolvedOptions, extraction: ExtractResult): string | undefined {
  if (extraction.files.size > 0) return undefined
  const globs = options.include.map((g) => JSON.stringify(g)).join(', ')
  return `include matched no file under ${options.root} (${globs}, less exclude): fix the include option or the root`
}
