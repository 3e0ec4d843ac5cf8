import { join } from 'node:path'
import type { ClientOptions, TmsClient } from '../client/index'
import { type ExtractResult, extractMessages } from './extract/index'
import type { ResolvedOptions } from './model/options'
import { buildReport, type TmsReport } from './report'
import { type SyncClient, type SyncLogger, type SyncResult, syncTranslations, TmsSyncError } from './sync'

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
  /** Client settings for tests (short retry budgets); the credentials always come from the options. */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'userIdentifier' | 'userSecret'>>
}

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
  if (options.cache === 'offline' || options.cache === 'frozen') return false
  return !!options.credentials && !!options.baseUrl && !!options.projectId
}

/**
 * A client when the options allow network work (see {@link usesService}), else undefined. The client
 * and its HTTP library are imported only then: an offline build or command never pays for loading them.
 */
export async function clientFor(
  options: ResolvedOptions,
  settings: PipelineInput['client'] = {},
): Promise<TmsClient | undefined> {
  const { credentials, baseUrl } = options
  if (!usesService(options) || !credentials || !baseUrl) return undefined
  const { createClient } = await import('../client/index')
  return createClient({
    concurrency: options.concurrency,
    maxRequestLineBytes: options.maxRequestLineBytes,
    ...settings,
    baseUrl,
    userIdentifier: credentials.userIdentifier,
    userSecret: credentials.userSecret,
  })
}

/** Adapts the client's jobs area to what the sync engine calls. */
export function syncClientOf(client: TmsClient): SyncClient {
  return {
    strings: client.strings,
    jobs: {
      findByName: async (projectId, name) => (await client.jobs.findByName(projectId, name)) ?? undefined,
      create: (projectId, job) => client.jobs.create(projectId, job),
      addStrings: (projectId, uid, request) => client.jobs.addStrings(projectId, uid, request),
      get: (projectId, uid) => client.jobs.get(projectId, uid),
      authorize: (projectId, uid) => client.jobs.authorize(projectId, uid),
    },
  }
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
  const nothing = noFileProblem(options, extraction)
  if (nothing && input.strict !== false) throw new TmsSyncError('include', nothing)
  if (nothing) logger.warn(nothing)
  const client = await clientFor(options, input.client)
  try {
    const sync = await syncTranslations({
      options,
      messages: extraction.messages,
      client: client && syncClientOf(client),
      logger,
      push: input.push,
      pull: input.pull,
      strict: input.strict,
    })
    return { sync, report: buildReport(sync, client?.stats.total ?? 0) }
  } finally {
    await client?.close()
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
