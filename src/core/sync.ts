import { awaitingAuthorization, type Unauthorized } from './authorization'
import type { CacheFs, DiskCache, ManifestRecord } from './cache'
import { CatalogMemos, type MemoCheck } from './catalog-memo'
import { checkLocale, reportProblems, where } from './locale-check'
import { lostMessages } from './lost-strings'
import { mayUseNetwork, type PseudoLocale, type ResolvedOptions, TmsConfigError } from './model/options'
import { singularTranslation } from './model/wire'
import { pseudoLocalize } from './pseudo'
import { addToJob, metaDigest, pushNewMessages } from './push'
import {
  describeFailures,
  missingCredentials,
  missingSettings,
  offlineReason,
  type Refusal,
  refusalOf,
  type ServiceFailure,
} from './refusals'
import { hashcodesOf, type OpenedCache, openCache, readManifest, recordedHashcodes } from './sync-manifest'
import type { SyncClient, SyncLogger, SyncMessage } from './sync-types'
import { templateNamespaceWarning } from './template-names'
import { counted } from './wording'

export type { SyncClient, SyncLogger, SyncMessage }
export { metaDigest, type OpenedCache, openCache, type ServiceFailure }

/**
 * The sync engine: between extraction and injection, with no bundler knowledge. Push creates the
 * strings the cache does not know yet, pull brings the translations of every target locale, and the
 * cache stands in for the service whenever the mode or the network says so.
 */

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
  /** The cache opened already ({@link openCache} with these options); absent: opened now. */
  opened?: Promise<OpenedCache>
  /**
   * A production build or a command (default): a refusal of the service or a missing setting fails
   * the run. False in a dev server or a watch, which warn and go on with the cache.
   */
  strict?: boolean
  /**
   * A production build in runtime mode: with no network, each locale's outcome and catalog literal
   * come from its catalog memo when the inputs are the same as the last build's (`src/core/catalog-memo.ts`).
   */
  memo?: boolean
  /** `tms push`: ask the service for the strings the manifest records, and create the lost ones again. */
  verify?: boolean
}

/**
 * Per locale: message key -> translated text in the app's placeholder spelling. Not yet a catalog (one
 * locale's map from id to compiled translation, made per build in src/core/locale-catalog.ts).
 */
export type Translations = Map<string, Map<string, string>>

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
  translations: Translations
  /** Message key -> hashcode, for every message the cache or the service knows. */
  hashcodes: Map<string, string>
  coverage: Record<string, LocaleCoverage>
  /** Strings created in this run. */
  pushed: number
  /** Where each locale's translations came from. */
  sources: Record<string, 'network' | 'cache' | 'none' | 'pseudo'>
  /** What the network should have done and the cache or the source text did instead (one warning said so). */
  failures: ServiceFailure[]
  /** Strings on the service that the pull did not get back: they wait for an authorization. */
  unauthorized?: Unauthorized
  /**
   * A build's catalog memos (`memo` of the input): a locale they answered has its translations in
   * `translations` only once asked through {@link translationsOf}.
   */
  memos?: CatalogMemos
}

/** A locale's translations (message key -> text), decoded now when its memo kept them until asked. */
export function translationsOf(
  sync: SyncResult | undefined,
  locale: string,
): Map<string, string> | undefined {
  if (!sync) return undefined
  let texts = sync.translations.get(locale)
  if (texts === undefined && sync.memos) {
    texts = sync.memos.translations(locale)
    if (texts) sync.translations.set(locale, texts)
  }
  return texts
}

/**
 * A failure the build must stop on (frozen cache, a refusal, a missing setting); the message names the
 * option and the location. A configuration error (`instanceof TmsConfigError`) under its own name.
 */
export class TmsSyncError extends TmsConfigError {
  override readonly name = 'TmsSyncError'
}

function describeError(error: unknown): string {
  // The client's errors name the endpoint, the code and the status, and never a secret.
  return error instanceof Error ? error.message : String(error)
}

/** Runs push and pull as the options say and returns the translations the bundle's catalogs are made of. */
export async function syncTranslations(input: SyncInput): Promise<SyncResult> {
  const { options, messages, logger } = input
  const strict = input.strict !== false
  checkSettings(options, strict, logger)
  const network = mayUseNetwork(options) ? input.client : undefined
  const projectId = options.projectId
  const opened = await (input.opened ?? openCache(options, input.fs, input.memo && !network))
  const { cache, project: cacheProject } = opened
  if (cacheProject && !projectId) {
    logger.info(`TMS_PROJECT_ID is not set: the cache of project ${cacheProject} is read`)
  }

  // A production build without network: each locale's sync outcome and catalog through its memo;
  // when every locale's answers, they also tell what the manifest says, which is then not parsed.
  const memos =
    input.memo && !network && opened.manifestBytes
      ? new CatalogMemos(cache, options, messages, opened.manifestBytes)
      : undefined
  const remembered = memos && (await memos.probe(options.locales))
  const { manifest, records, unknown, sums } = remembered
    ? { manifest: {}, records: [], unknown: [], sums: remembered }
    : readManifest(opened, input, memos)
  if (options.cache === 'frozen' && sums.absent >= 0) {
    throw new TmsSyncError(
      'cache',
      `cache: 'frozen' and the message ${where(messages[sums.absent]!, options.root)} is not in ${cache.manifestFile}. ` +
        `Run a build with cache: 'prefer-network' and credentials to push it, then keep the cache directory.`,
    )
  }

  let pushed = 0
  const failures: ServiceFailure[] = []
  const toPush =
    input.verify && network && projectId
      ? [...unknown, ...(await lostOnService(input, network, projectId, { records, unknown, failures }))]
      : unknown
  // The memos may answer with the count alone (`unknown` then empty): the sums say what is new.
  const shouldPush = (input.push ?? options.push) && sums.unknown + toPush.length - unknown.length > 0
  let created: Record<string, ManifestRecord> | undefined
  if (shouldPush && network && projectId) {
    created = {}
    try {
      await pushNewMessages(network, options, projectId, toPush, cache, created)
    } catch (error) {
      const refusal = refusalOf(error, options)
      if (refusal && strict) throw new TmsSyncError(refusal.option, refusal.message)
      const missed = toPush.filter((m) => !created?.[m.key]).length
      failures.push({
        what: `${missed} of ${toPush.length} new strings not created (they keep their source text)`,
        error: refusal?.message ?? describeError(error),
        refused: !!refusal,
      })
    }
    // Every batch that was created counts, also when another failed: the pull asks for them.
    Object.assign(manifest, created)
    pushed = Object.keys(created).length
    if (pushed > 0 && options.job && network.jobs) {
      const hashcodes = toPush.map((m) => manifest[m.key]?.hashcode).filter((h): h is string => !!h)
      try {
        await addToJob(network.jobs, options, projectId, hashcodes, logger)
      } catch (error) {
        logger.warn(
          `could not add ${counted(hashcodes.length, 'new string')} to job "${options.job.name}": ${describeError(error)}`,
        )
      }
    }
  } else if (shouldPush && !network && options.cache !== 'frozen') {
    logger.warn(`${counted(sums.unknown, 'new message')} not pushed: ${offlineReason(options, input.client)}`)
  }

  // Looked up once for all locales; a string created now has its record in `created`. Remembered by
  // the memos: looked up only if a catalog needs the translations.
  let messageHashcodes = remembered
    ? undefined
    : messages.map((m, i) => (created?.[m.key] ?? records[i])?.hashcode)
  const hashcodesNow = (): readonly (string | undefined)[] => {
    messageHashcodes ??= recordedHashcodes(opened.manifest(), messages)
    return messageHashcodes
  }

  const translations: Translations = new Map()
  const coverage: Record<string, LocaleCoverage> = {}
  const sources: SyncResult['sources'] = {}
  // The hashcodes a pull asks for: none without the network.
  const wanted = network ? [...new Set(hashcodesNow().filter((h) => h !== undefined))].sort() : []
  const refusals: Refusal[] = []
  const absent = new Map<string, string[]>()

  const eachLocale = async (locale: string): Promise<void> => {
    const checkOf = (byHashcode: Readonly<Record<string, string>>) =>
      checkLocale(byHashcode, messages, hashcodesNow(), locale, options.placeholder)
    const pull = async (): Promise<MemoCheck> => {
      const pulled = await translationsFor(locale, { input, cache, network, projectId, wanted })
      const { translations: byHashcode, source, failure, refusal } = pulled
      if (refusal) refusals.push(refusal)
      if (pulled.absent && pulled.absent.length > 0) absent.set(locale, pulled.absent)
      if (failure) failures.push(failure)
      sources[locale] = source
      const checked = checkOf(byHashcode)
      return { ...checked, translated: checked.texts.size }
    }
    const memoed = memos?.checkCached(locale, checkOf)
    if (memoed) sources[locale] = 'cache'
    const outcome = memoed || (await pull())
    if (outcome.texts) translations.set(locale, outcome.texts)
    reportProblems(outcome.problems, messages, locale, options.root, logger)
    coverage[locale] = coverageOf(messages.length, outcome.translated)
    if (outcome.incomplete.length > 0) coverage[locale].incomplete = outcome.incomplete
  }
  await Promise.all(options.locales.map(eachLocale))
  // Every locale has settled: no pull is left running behind the error.
  if (refusals[0]) throw new TmsSyncError(refusals[0].option, refusals[0].message)
  if (failures.length > 0) logger.warn(describeFailures(failures))
  const unauthorized =
    network && projectId ? await awaitingAuthorization(network.strings, projectId, absent) : undefined
  const bare = options.locales.filter((l) => sources[l] === 'none')
  if (!network && bare.length > 0 && messages.length > 0) {
    logger.warn(
      `no translations for ${bare.join(', ')}: ${offlineReason(options, input.client)} and the cache ` +
        `(${options.cacheDir}) has none, so the build uses the source text`,
    )
  }
  for (const locale of options.pseudo) {
    if (!memos) translations.set(locale, pseudoTranslations(messages, locale))
    sources[locale] = 'pseudo'
  }
  if (memos) {
    // Their catalogs are made of the messages alone: made again only when a catalog misses its memo.
    const made = options.pseudo.map((locale) =>
      memos.made(locale, () => pseudoTranslations(messages, locale)),
    )
    if (options.sourceCatalog) made.push(memos.made(options.sourceLocale))
    await Promise.all(made)
  }
  let hashcodeMap: Map<string, string> | undefined
  return {
    translations,
    ...(memos ? { memos } : {}),
    // Made when asked (the dev overlay, the commands): a build's catalogs do not need it.
    get hashcodes() {
      hashcodeMap ??= hashcodesOf(messages, hashcodesNow())
      return hashcodeMap
    },
    coverage,
    pushed,
    sources,
    failures,
    ...(unauthorized ? { unauthorized } : {}),
  }
}

/**
 * The failure of a strict run's settings, which the sync throws before anything else: exported for
 * vite's buildApp, which fails with it before bundling (TmsSession.checked).
 */
export function settingsFailure(options: ResolvedOptions): TmsSyncError | undefined {
  const missing = missingSettings(options)
  if (missing) return new TmsSyncError(missing.option, missing.message)
  const unsigned = missingCredentials(options)
  if (unsigned?.fails) return new TmsSyncError('userIdentifier', unsigned.message)
  return undefined
}

/** Settings that stop or question network work: a failure in a strict run, else a warning. */
function checkSettings(options: ResolvedOptions, strict: boolean, logger: SyncLogger): void {
  const failure = strict ? settingsFailure(options) : undefined
  if (failure) throw failure
  const missing = missingSettings(options)
  if (missing) logger.warn(missing.message)
  const unsigned = missingCredentials(options)
  if (unsigned) logger.warn(unsigned.message)
  const template = templateNamespaceWarning(options)
  if (template) logger.warn(template)
}

/** `tms push`: the recorded messages the service lost, to create again (see src/core/lost-strings.ts). */
async function lostOnService(
  input: SyncInput,
  network: SyncClient,
  projectId: string,
  read: {
    records: readonly (ManifestRecord | undefined)[]
    unknown: SyncMessage[]
    failures: ServiceFailure[]
  },
): Promise<SyncMessage[]> {
  const { options, messages, logger } = input
  try {
    const lost = await lostMessages(network.strings, projectId, messages, read.records, read.unknown)
    if (lost.length > 0) {
      const n = lost.length
      logger.info(
        `${counted(n, 'string')} the cache's manifest records ${n === 1 ? 'is' : 'are'} no longer on the service (project ${projectId}): creating ${n === 1 ? 'it' : 'them'} again`,
      )
    }
    return lost
  } catch (error) {
    const refusal = refusalOf(error, options)
    if (refusal && input.strict !== false) throw new TmsSyncError(refusal.option, refusal.message)
    const what = 'no check of the strings the cache records'
    read.failures.push({ what, error: refusal?.message ?? describeError(error), refused: !!refusal })
    return []
  }
}

function pseudoTranslations(messages: readonly SyncMessage[], locale: PseudoLocale): Map<string, string> {
  return new Map(messages.map((m) => [m.key, pseudoLocalize(m.text, locale)]))
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
  failure?: ServiceFailure
  /** Set in a strict run: the service refused the pull, and the run fails. */
  refusal?: Refusal
  /** Hashcodes asked for that the service did not return (see awaitingAuthorization). */
  absent?: string[]
}> {
  const { input, cache, network, projectId, wanted } = ctx
  const { options } = input
  const retrievalType = options.retrievalType
  let error: string | undefined
  let refused = false
  // What arrived before a failure: kept, never thrown away with the rest.
  const fetched: Record<string, string> = {}
  const returned = new Set<string>()
  if (network && projectId && input.pull !== false && wanted.length > 0) {
    try {
      for await (const item of network.strings.translations(projectId, {
        targetLocaleId: locale,
        hashcodes: wanted,
        retrievalType,
        showPlaceholderValues: false,
      })) {
        returned.add(item.hashcode)
        const text = singularTranslation(item.translations)
        if (typeof text === 'string') fetched[item.hashcode] = text
      }
    } catch (e) {
      const refusal = refusalOf(e, options, locale)
      if (refusal && input.strict !== false) return { translations: {}, source: 'none', refusal }
      error = refusal?.message ?? describeError(e)
      refused = !!refusal
    }
    if (!error) {
      // The service answered for every hashcode asked: what it did not return has no translation.
      await cache.mergeLocale(locale, retrievalType, fetched, wanted).catch((e: unknown) => {
        input.logger.warn(`${cache.localeFile(locale, retrievalType)} not updated: ${describeError(e)}`)
      })
      return { translations: fetched, source: 'network', absent: wanted.filter((h) => !returned.has(h)) }
    }
  }
  const received = returned.size
  const partial = received > 0 ? ` and ${received} answers received before the failure` : ''
  const cached = await cache.readLocale(locale, retrievalType)
  // A failed pull drops nothing: what did arrive goes over the cached translations.
  const merged =
    received > 0 ? await cache.mergeLocale(locale, retrievalType, fetched, []).catch(() => null) : null
  if (options.cache === 'refresh' && error) {
    return {
      translations: fetched,
      source: received > 0 ? 'network' : 'none',
      failure: { what: `${locale}: source text${partial} (refresh ignores the cache)`, error, refused },
    }
  }
  if (cached.hit) {
    const failure = error
      ? { what: `${locale}: cached translations of ${cached.value.fetchedAt}${partial}`, error, refused }
      : undefined
    // An offline build fetched nothing: the cached object itself, not a copy of its thousands of keys.
    const translations =
      merged ?? (received > 0 ? { ...cached.value.translations, ...fetched } : cached.value.translations)
    return { translations, source: 'cache', failure }
  }
  if (received > 0) {
    return {
      translations: fetched,
      source: 'network',
      failure: error ? { what: `${locale}: source text for the rest${partial}`, error, refused } : undefined,
    }
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
    failure: error ? { what: `${locale}: source text (not in the cache)`, error, refused } : undefined,
  }
}

/** A locale's coverage: translated of all messages, to a tenth of a percent, rounded down. */
export function coverageOf(messages: number, translated: number): LocaleCoverage {
  return {
    messages,
    translated,
    missing: messages - translated,
    coverage: messages === 0 ? 100 : Math.floor((translated / messages) * 1000) / 10,
  }
}
