import { createHash } from 'node:crypto'
import type { PseudoLocale, ResolvedOptions } from '../options'
import { type CacheFs, DiskCache, type ManifestEntry } from './cache'
import { checkMessageTranslation } from './icu/translation'
import { pseudoLocalize } from './pseudo'

/**
 * The sync engine: between extraction and injection, with no bundler knowledge. Push creates the
 * strings the cache does not know yet, pull brings the translations of every target locale, and the
 * cache stands in for the service whenever the mode or the network says so.
 */

/** What the engine needs of an extracted message (the extractor's Message has all of it). */
export interface SyncMessage {
  key: string
  text: string
  parsed: string
  placeholders: string[]
  variant: string | null
  instruction?: string
  maxLength?: number
  locations: { file: string; line: number; column: number }[]
}

/** The slice of the API client the engine uses; `createClient()` gives all of it. */
export interface SyncClient {
  strings: {
    createInBatches(
      projectId: string,
      request: {
        placeholderFormat?: Exclude<ResolvedOptions['placeholder']['format'], null>
        placeholderFormatCustom?: string
        namespace?: string | null
        strings: { stringText: string; variant?: string | null; instruction?: string; maxLength?: number }[]
      },
    ): Promise<{ items: { hashcode: string; parsedStringText: string }[] }[]>
    translations(
      projectId: string,
      query: {
        targetLocaleId: string
        hashcodes?: readonly string[]
        retrievalType?: 'published' | 'pending'
        showPlaceholderValues?: boolean
      },
    ): AsyncIterable<{ hashcode: string; translations: { translation: string; pluralForm: string | null }[] }>
  }
  jobs?: JobClient
}

/** The jobs calls a `job` option needs. */
export interface JobClient {
  findByName(
    projectId: string,
    jobName: string,
  ): Promise<{ translationJobUid: string; jobStatus: string } | undefined>
  create(
    projectId: string,
    job: { jobName: string; targetLocaleIds: string[] },
  ): Promise<{ translationJobUid: string; jobStatus: string }>
  addStrings(
    projectId: string,
    jobUid: string,
    request: { hashcodes: string[]; targetLocaleIds?: string[]; moveEnabled?: boolean },
  ): Promise<{ successCount: number; failCount: number }>
  get(projectId: string, jobUid: string): Promise<{ jobStatus: string }>
  authorize(projectId: string, jobUid: string): Promise<unknown>
}

export interface SyncLogger {
  info(message: string): void
  warn(message: string): void
}

export interface SyncInput {
  options: ResolvedOptions
  messages: readonly SyncMessage[]
  /** Absent: no network (offline mode, no credentials). */
  client?: SyncClient
  logger: SyncLogger
  /** Whether new strings are created now (`options.push` unless a command says otherwise). */
  push?: boolean
  /** Whether translations are fetched now (default true). */
  pull?: boolean
  fs?: CacheFs
}

/** Per locale: message key -> translated text in the app's placeholder spelling. */
export type Catalogs = Map<string, Map<string, string>>

export interface LocaleCoverage {
  messages: number
  translated: number
  missing: number
  coverage: number
  /**
   * ICU translations that lack plural categories the locale needs (Polish without `few`): still
   * used, listed as `<hashcode>: few, many`. Absent when there are none.
   */
  incomplete?: string[]
}

export interface SyncResult {
  catalogs: Catalogs
  /** Message key -> hashcode, for every message the cache or the service knows. */
  hashcodes: Map<string, string>
  coverage: Record<string, LocaleCoverage>
  /** Strings created in this run. */
  pushed: number
  /** Where each locale's translations came from. */
  sources: Record<string, 'network' | 'cache' | 'none' | 'pseudo'>
}

/** A failure the build must stop on (frozen cache); the message names the option and the location. */
export class TmsSyncError extends Error {
  readonly option: string
  constructor(option: string, message: string) {
    super(`[unplugin-tms] ${message}`)
    this.name = 'TmsSyncError'
    this.option = option
  }
}

/** The metadata JSON -> its digest: a build compares the digest of every message with the manifest. */
const metaDigests = new Map<string, string>()

/** The metadata sent with a string: a change re-creates it so the service gets the new values. */
export function metaDigest(message: SyncMessage, placeholder: ResolvedOptions['placeholder']): string {
  const meta = JSON.stringify([
    message.instruction ?? null,
    message.maxLength ?? null,
    placeholder.format,
    placeholder.custom,
  ])
  let digest = metaDigests.get(meta)
  if (digest === undefined) {
    digest = createHash('sha1').update(meta).digest('hex').slice(0, 16)
    // Bounded: most messages share one metadata (no instruction, no limit); a few have their own.
    if (metaDigests.size >= 10_000) metaDigests.clear()
    metaDigests.set(meta, digest)
  }
  return digest
}

function where(message: SyncMessage, root: string): string {
  const at = message.locations[0]
  if (!at) return JSON.stringify(message.text)
  const file = at.file.startsWith(`${root}/`) ? at.file.slice(root.length + 1) : at.file
  return `${JSON.stringify(message.text)} (${file}:${at.line}:${at.column})`
}

function describeError(error: unknown): string {
  // The client's errors name the endpoint, the code and the status, and never a secret.
  return error instanceof Error ? error.message : String(error)
}

/** Runs push and pull as the options say and returns the catalogs the bundle gets. */
export async function syncTranslations(input: SyncInput): Promise<SyncResult> {
  const { options, messages, logger } = input
  const cache = new DiskCache(options.cacheDir, options.projectId, input.fs)
  const network = options.cache !== 'offline' && options.cache !== 'frozen' ? input.client : undefined
  const projectId = options.projectId

  const manifestRead = await cache.readManifest()
  if (!manifestRead.hit && manifestRead.reason !== 'no file') {
    logger.warn(`cache manifest ${cache.manifestFile} ignored (${manifestRead.reason}); it will be rebuilt`)
  }
  const manifest = manifestRead.hit ? manifestRead.value.entries : {}

  const unknown = messages.filter((m) => manifest[m.key]?.meta !== metaDigest(m, options.placeholder))
  if (options.cache === 'frozen') {
    const absent = messages.find((m) => !manifest[m.key])
    if (absent) {
      throw new TmsSyncError(
        'cache',
        `cache: 'frozen' and the message ${where(absent, options.root)} is not in ${cache.manifestFile}. ` +
          `Run a build with cache: 'prefer-network' and credentials to push it, then keep the cache directory.`,
      )
    }
  }

  let pushed = 0
  const failures: NetworkFailure[] = []
  const shouldPush = (input.push ?? options.push) && unknown.length > 0
  if (shouldPush && network && projectId) {
    try {
      const created = await pushNewMessages(network, options, projectId, unknown, cache)
      Object.assign(manifest, created)
      pushed = Object.keys(created).length
    } catch (error) {
      failures.push({
        what: `${unknown.length} new strings not created (they keep their source text)`,
        error: describeError(error),
      })
    }
    if (pushed > 0 && options.job && network.jobs) {
      const hashcodes = unknown.map((m) => manifest[m.key]?.hashcode).filter((h): h is string => !!h)
      try {
        await addToJob(network.jobs, options, projectId, hashcodes, logger)
      } catch (error) {
        logger.warn(
          `could not add ${hashcodes.length} new strings to job "${options.job.name}": ${describeError(error)}`,
        )
      }
    }
  } else if (shouldPush && !network && options.cache !== 'frozen') {
    logger.warn(`${unknown.length} new messages not pushed: ${offlineReason(options, input.client)}`)
  }

  const hashcodes = new Map<string, string>()
  for (const m of messages) {
    const entry = manifest[m.key]
    if (entry) hashcodes.set(m.key, entry.hashcode)
  }

  const catalogs: Catalogs = new Map()
  const coverage: Record<string, LocaleCoverage> = {}
  const sources: SyncResult['sources'] = {}
  const wanted = [...new Set(hashcodes.values())].sort()
  // Looked up once for all locales.
  const messageHashcodes = messages.map((m) => hashcodes.get(m.key))

  await Promise.all(
    options.locales.map(async (locale) => {
      const { translations, source, failure } = await translationsFor(locale, {
        input,
        cache,
        network,
        projectId,
        wanted,
      })
      if (failure) failures.push(failure)
      sources[locale] = source
      const catalog = new Map<string, string>()
      const incomplete: string[] = []
      for (let i = 0; i < messages.length; i++) {
        const m = messages[i]!
        const hashcode = messageHashcodes[i]
        const raw = hashcode ? translations[hashcode] : undefined
        if (raw === undefined || raw === '') continue
        const checked = checkMessageTranslation(raw, m, options.placeholder, locale)
        if (!checked.ok) {
          logger.warn(
            `translation of ${hashcode} for ${locale} rejected: ${checked.reason}; the source text ${where(m, options.root)} is used`,
          )
          continue
        }
        if ('warnings' in checked && checked.warnings) {
          for (const w of checked.warnings) logger.warn(`translation of ${hashcode} for ${locale}: ${w}`)
        }
        if ('missingCategories' in checked && checked.missingCategories) {
          incomplete.push(`${hashcode}: ${checked.missingCategories.join(', ')}`)
        }
        catalog.set(m.key, checked.parsed)
      }
      catalogs.set(locale, catalog)
      coverage[locale] = coverageOf(messages.length, catalog.size)
      if (incomplete.length > 0) coverage[locale].incomplete = incomplete.sort()
    }),
  )
  if (failures.length > 0) logger.warn(describeFailures(failures))
  const bare = options.locales.filter((l) => sources[l] === 'none')
  if (!network && bare.length > 0 && messages.length > 0) {
    logger.warn(
      `no translations for ${bare.join(', ')}: ${offlineReason(options, input.client)} and the cache ` +
        `(${options.cacheDir}) has none, so the build uses the source text`,
    )
  }
  for (const locale of options.pseudo) {
    catalogs.set(locale, pseudoCatalog(messages, locale))
    sources[locale] = 'pseudo'
  }
  return { catalogs, hashcodes, coverage, pushed, sources }
}

function coverageOf(messages: number, translated: number): LocaleCoverage {
  return {
    messages,
    translated,
    missing: messages - translated,
    coverage: messages === 0 ? 100 : Math.floor((translated / messages) * 1000) / 10,
  }
}

function pseudoCatalog(messages: readonly SyncMessage[], locale: PseudoLocale): Map<string, string> {
  return new Map(messages.map((m) => [m.key, pseudoLocalize(m.text, locale)]))
}

function offlineReason(options: ResolvedOptions, client: SyncClient | undefined): string {
  if (options.cache === 'offline') return "cache is 'offline' (TMS_OFFLINE=1 or the cache option)"
  if (!client) return 'no credentials (set TMS_USER_IDENTIFIER and TMS_USER_SECRET)'
  if (!options.projectId) return 'no projectId (set TMS_PROJECT_ID or the projectId option)'
  return 'no network'
}

/**
 * Creates the messages in batches of 100 (the client runs them within its concurrency limit and
 * follows 202 answers), then records the hashcodes. Creating is safe to repeat: the service overwrites
 * a string with the same identity, so an interrupted push loses nothing on the next run.
 */
export async function pushNewMessages(
  client: SyncClient,
  options: ResolvedOptions,
  projectId: string,
  messages: readonly SyncMessage[],
  cache: DiskCache,
): Promise<Record<string, ManifestEntry>> {
  const batches = await client.strings.createInBatches(projectId, {
    ...(options.placeholder.custom
      ? { placeholderFormatCustom: options.placeholder.custom }
      : { placeholderFormat: options.placeholder.format ?? 'none' }),
    namespace: options.namespace,
    strings: messages.map((m) => ({
      stringText: m.text,
      ...(m.variant != null ? { variant: m.variant } : {}),
      ...(m.instruction !== undefined ? { instruction: m.instruction } : {}),
      ...(m.maxLength !== undefined ? { maxLength: m.maxLength } : {}),
    })),
  })
  const items = batches.flatMap((b) => b.items)
  const entries: Record<string, ManifestEntry> = {}
  messages.forEach((m, i) => {
    const item = items[i]
    if (!item) return
    entries[m.key] = {
      hashcode: item.hashcode,
      parsed: item.parsedStringText,
      variant: m.variant,
      meta: metaDigest(m, options.placeholder),
    }
  })
  await cache.updateManifest(entries)
  return entries
}

async function addToJob(
  jobs: JobClient,
  options: ResolvedOptions,
  projectId: string,
  hashcodes: string[],
  logger: SyncLogger,
): Promise<void> {
  if (!options.job || hashcodes.length === 0) return
  const name = options.job.name
  const found = await jobs.findByName(projectId, name)
  if (found && (found.jobStatus === 'CLOSED' || found.jobStatus === 'CANCELLED')) {
    logger.warn(
      `job "${name}" is ${found.jobStatus}: ${hashcodes.length} new strings were not added to it; name a new job in the job option`,
    )
    return
  }
  const job = found ?? (await jobs.create(projectId, { jobName: name, targetLocaleIds: options.locales }))
  const added = await jobs.addStrings(projectId, job.translationJobUid, {
    hashcodes,
    targetLocaleIds: options.locales,
  })
  const skipped = added.failCount > 0 ? ` (${added.failCount} already in another job)` : ''
  logger.info(
    `added ${added.successCount} string${added.successCount === 1 ? '' : 's'} to job "${name}"${skipped}`,
  )
  // Only content waiting for authorization can be authorized; a job whose new strings were all
  // skipped stays where it was.
  if (
    options.job.authorize &&
    (await jobs.get(projectId, job.translationJobUid)).jobStatus === 'AWAITING_AUTHORIZATION'
  ) {
    await jobs.authorize(projectId, job.translationJobUid)
  }
}

async function translationsFor(
  locale: string,
  ctx: {
    input: SyncInput
    cache: DiskCache
    network: SyncClient | undefined
    projectId: string | undefined
    wanted: string[]
  },
): Promise<{
  translations: Record<string, string>
  source: 'network' | 'cache' | 'none'
  failure?: NetworkFailure
}> {
  const { input, cache, network, projectId, wanted } = ctx
  const { options } = input
  const retrievalType = options.retrievalType
  let error: string | undefined
  if (network && projectId && input.pull !== false && wanted.length > 0) {
    try {
      const translations: Record<string, string> = {}
      for await (const item of network.strings.translations(projectId, {
        targetLocaleId: locale,
        hashcodes: wanted,
        retrievalType,
        showPlaceholderValues: false,
      })) {
        const text = item.translations.find((t) => t.pluralForm == null)?.translation
        if (typeof text === 'string') translations[item.hashcode] = text
      }
      await cache.writeLocale(locale, retrievalType, translations)
      return { translations, source: 'network' }
    } catch (e) {
      error = describeError(e)
    }
  }
  if (options.cache === 'refresh' && error) {
    return {
      translations: {},
      source: 'none',
      failure: { what: `${locale}: source text (refresh ignores the cache)`, error },
    }
  }
  const cached = await cache.readLocale(locale, retrievalType)
  if (cached.hit) {
    const failure = error
      ? { what: `${locale}: cached translations of ${cached.value.fetchedAt}`, error }
      : undefined
    return { translations: cached.value.translations, source: 'cache', failure }
  }
  if (options.cache === 'frozen') {
    throw new TmsSyncError(
      'cache',
      `cache: 'frozen' and ${cache.localeFile(locale, retrievalType)} is missing (${cached.reason}). ` +
        `Pull ${locale} once with cache: 'prefer-network' and keep the cache directory.`,
    )
  }
  return {
    translations: {},
    source: 'none',
    failure: error ? { what: `${locale}: source text (not in the cache)`, error } : undefined,
  }
}

interface NetworkFailure {
  what: string
  error: string
}

/** One warning for a bad day, however many requests failed: what failed and what the build used instead. */
function describeFailures(failures: NetworkFailure[]): string {
  const errors = [...new Set(failures.map((f) => f.error))]
  return `the service could not be reached (${errors.join('; ')}); the build goes on with ${failures.map((f) => f.what).join(', ')}`
}
