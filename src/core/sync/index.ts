/**
 * The sync folder: what the service is told and asked, and what a build gets back. This file runs one
 * sync (`syncTranslations`); `types.ts` holds its inputs (messages, the client's slice, the logger) so its
 * parts depend on shapes, not on it. `manifest.ts` reads what the cache's manifest knows of the messages;
 * `push.ts` creates the unknown ones in batches and adds them to the job; `pull.ts` brings one locale's translations; `lost-strings.ts` finds the
 * recorded strings the service lost (`tms push`); `authorization.ts` the strings waiting for one;
 * `refusals.ts` tells a refusal (fail) from a bad network day (the cache stands in) and names the option
 * or variable to fix; `template-names.ts` warns of a template's package name as namespace;
 * `catalog-memo.ts` keeps each locale's catalog literal and sync outcome for the next build;
 * `recheck.ts` checks again the locales a `tms pull` changed while a dev server runs; `coverage.ts` says
 * how much of the messages a locale's translations cover.
 */
import type { CacheFs, DiskCache, ManifestRecord } from '../cache'
import { checkLocale, reportProblems, where } from '../check/locale'
import { mayUseNetwork, type PseudoLocale, type ResolvedOptions } from '../model/options'
import { pseudoLocalize } from '../model/pseudo'
import { counted } from '../wording'
import { awaitingAuthorization, type Unauthorized } from './authorization'
import { CatalogMemos, type MemoCheck, type MemoMessages, memoMessagesOf } from './catalog-memo'
import { checkedCoverage, type LocaleCoverage } from './coverage'
import { lostMessages } from './lost-strings'
import {
  hashcodesOf,
  type ManifestRead,
  type OpenedCache,
  openCache,
  readManifest,
  recordedHashcodes,
} from './manifest'
import { translationsFor } from './pull'
import { addToJob, metaDigest, pushNewMessages } from './push'
import {
  describeError,
  describeFailures,
  missingCredentials,
  missingSettings,
  offlineReason,
  type Refusal,
  refusalOf,
  type ServiceFailure,
  TmsSyncError,
} from './refusals'
import { templateNamespaceWarning } from './template-names'
import type { SyncClient, SyncLogger, SyncMessage } from './types'

export { checkedCoverage, coverageOf, type LocaleCoverage } from './coverage'
export type { SyncClient, SyncLogger, SyncMessage }
export { metaDigest, type OpenedCache, openCache, type ServiceFailure, TmsSyncError }

/**
 * The sync engine: between extraction and injection, with no bundler knowledge. Push creates the
 * strings the cache does not know yet, pull brings the translations of every target locale, and the
 * cache stands in for the service whenever the mode or the network says so.
 */

export interface SyncInput {
  options: ResolvedOptions
  /** Read only when a step needs them: a build whose catalog memos answer reads none (see `count`). */
  messages: readonly SyncMessage[]
  /** The digest of `messages` (`ExtractResult.digest`), when the extraction made it: not made again. */
  messagesDigest?: string
  /** `messages.length`, when the extraction knows it without reading them (`ExtractResult.count`). */
  count?: number
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
   * Each locale's outcome and catalog literal come from its catalog memo when the inputs are the
   * same as the last build's (`src/core/sync/catalog-memo.ts`): with no network, the digests
   * of the cache files; with network, what the pull brought.
   */
  memo?: boolean
  /** With `memo`, a build that needs every translation (inline copies): the memos keep them too. */
  keepTexts?: boolean
  /** `tms push`: ask the service for the strings the manifest records, and create the lost ones again. */
  verify?: boolean
}

/**
 * Per locale: message key -> translated text in the app's placeholder spelling. Not yet a catalog (one
 * locale's map from id to compiled translation, made per build in src/core/catalog/index.ts).
 */
export type Translations = Map<string, Map<string, string>>

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
  /** The project whose cache was read (`DiskCache.projectId`): a recheck reads the same files. */
  cacheProject: string | null
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
 * Runs push and pull as the options say and returns the translations the bundle's catalogs are made
 * of, in four steps: plan (settings, cache, what is new), push, pull per locale, check. The catalog
 * memos of a build with no network wrap the steps that read the cache: the plan's
 * manifest read and each locale's pull and check, which they answer when their inputs are the same;
 * with network, they answer each locale's check when its pull brought what the last one did.
 */
export async function syncTranslations(input: SyncInput): Promise<SyncResult> {
  const plan = await planSync(input)
  const { pushed, created } = await pushNew(plan)
  const hashcodes = hashcodeLookup(plan, created)
  // With network, the memos are keyed by the hashcodes, known now, and each locale by what its pull brings.
  if (input.memo && plan.network && !plan.memos) {
    plan.memos = new CatalogMemos(
      plan.cache,
      plan.options,
      memoMessages(input),
      { pulled: hashcodes() },
      input.keepTexts,
    )
    plan.pulledMemos = true
  }
  const pulled = await pullLocales(plan, hashcodes)
  return checkSync(plan, pushed, hashcodes, pulled)
}

/** What a sync works from: its input, the network if it may use it, the cache and what it says is new. */
interface SyncPlan extends ManifestRead {
  input: SyncInput
  options: ResolvedOptions
  /** The input's messages, read when first used (see {@link count}). */
  readonly messages: readonly SyncMessage[]
  /** How many messages: what the steps a memo answers need of them. */
  count: number
  logger: SyncLogger
  strict: boolean
  /** Absent: no network (offline mode, no credentials). */
  network: SyncClient | undefined
  projectId: string | undefined
  opened: OpenedCache
  cache: DiskCache
  /** The catalog memos, when they may answer (`memo`): read before the pull with no network. */
  memos: CatalogMemos | undefined
  /** The memos are a build with network's: each locale's is asked after its pull (`checkPulled`). */
  pulledMemos?: boolean
  /** The memos answered for every locale: the manifest was not parsed (`manifest`, `records`, `unknown` empty). */
  remembered: boolean
  /** What the network should have done and the cache or the source text did instead. */
  failures: ServiceFailure[]
}

/** The plan: settings checked, the cache opened, and what the manifest (or the memos) say is new. */
async function planSync(input: SyncInput): Promise<SyncPlan> {
  const { options, logger } = input
  const strict = input.strict !== false
  checkSettings(options, strict, logger)
  const network = mayUseNetwork(options) ? input.client : undefined
  const projectId = options.projectId
  const opened = await (input.opened ?? openCache(options, input.fs, input.memo && !network))
  const { cache, project: cacheProject } = opened
  if (cacheProject && !projectId) {
    logger.info(`TMS_PROJECT_ID is not set: the cache of project ${cacheProject} is read`)
  }
  // A build without network: each locale's sync outcome and catalog through its memo;
  // when every locale's answers, they also tell what the manifest says, which is then not parsed.
  const memos =
    input.memo && !network && opened.manifestDigest
      ? new CatalogMemos(
          cache,
          options,
          memoMessages(input),
          { digest: opened.manifestDigest },
          input.keepTexts,
        )
      : undefined
  const remembered = memos && (await memos.probe(options.locales))
  const read: ManifestRead = remembered
    ? { manifest: {}, records: [], unknown: [], sums: remembered }
    : readManifest(opened, input, memos)
  if (options.cache === 'frozen' && read.sums.absent >= 0) {
    throw new TmsSyncError(
      'cache',
      `cache: 'frozen' and the message ${where(input.messages[read.sums.absent]!, options.root)} is not in ${cache.manifestFile}. ` +
        `Run a build with cache: 'prefer-network' and credentials to push it, then keep the cache directory.`,
    )
  }
  return {
    ...read,
    input,
    options,
    get messages() {
      return input.messages
    },
    count: countOf(input),
    logger,
    strict,
    network,
    projectId,
    opened,
    cache,
    memos,
    remembered: remembered !== undefined,
    failures: [],
  }
}

/** The push: the new strings created (and added to the job), or a warning saying why not. */
async function pushNew(
  plan: SyncPlan,
): Promise<{ pushed: number; created: Record<string, ManifestRecord> | undefined }> {
  const { input, options, logger, network, projectId, manifest, unknown, sums, failures } = plan
  const toPush =
    input.verify && network && projectId
      ? [...unknown, ...(await lostOnService(input, network, projectId, plan))]
      : unknown
  // The memos may answer with the count alone (`unknown` then empty): the sums say what is new.
  const shouldPush = (input.push ?? options.push) && sums.unknown + toPush.length - unknown.length > 0
  if (shouldPush && !network && options.cache !== 'frozen') {
    logger.warn(`${counted(sums.unknown, 'new message')} not pushed: ${offlineReason(options, input.client)}`)
  }
  if (!shouldPush || !network || !projectId) return { pushed: 0, created: undefined }
  const created: Record<string, ManifestRecord> = {}
  try {
    await pushNewMessages(network, options, projectId, toPush, plan.cache, created)
  } catch (error) {
    const refusal = refusalOf(error, options)
    if (refusal && plan.strict) throw new TmsSyncError(refusal.option, refusal.message)
    const missed = toPush.filter((m) => !created[m.key]).length
    failures.push({
      what: `${missed} of ${toPush.length} new strings not created (they keep their source text)`,
      error: refusal?.message ?? describeError(error),
      refused: !!refusal,
    })
  }
  // Every batch that was created counts, also when another failed: the pull asks for them.
  Object.assign(manifest, created)
  const pushed = Object.keys(created).length
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
  return { pushed, created }
}

/**
 * Each message's hashcode, looked up once for all locales; a string created now has its record in
 * `created`. Remembered by the memos: looked up only if a catalog needs the translations.
 */
function hashcodeLookup(
  plan: SyncPlan,
  created: Record<string, ManifestRecord> | undefined,
): () => readonly (string | undefined)[] {
  const { records, opened } = plan
  let messageHashcodes = plan.remembered
    ? undefined
    : plan.messages.map((m, i) => (created?.[m.key] ?? records[i])?.hashcode)
  return () => {
    messageHashcodes ??= recordedHashcodes(opened.manifest(), plan.messages)
    return messageHashcodes
  }
}

/** What the pull of every locale brought, checked. */
interface Pulled {
  translations: Translations
  coverage: Record<string, LocaleCoverage>
  sources: SyncResult['sources']
  refusals: Refusal[]
  /** Per locale, the hashcodes the service did not return. */
  absent: Map<string, string[]>
}

/** The pull of each target locale at once, its translations checked against the sources. */
async function pullLocales(
  plan: SyncPlan,
  hashcodesNow: () => readonly (string | undefined)[],
): Promise<Pulled> {
  const { input, options, logger, network, projectId, cache, failures } = plan
  const pulled: Pulled = {
    translations: new Map(),
    coverage: {},
    sources: {},
    refusals: [],
    absent: new Map(),
  }
  // The hashcodes a pull asks for: none without the network.
  const wanted = network ? [...new Set(hashcodesNow().filter((h) => h !== undefined))].sort() : []
  const eachLocale = async (locale: string): Promise<void> => {
    const checkOf = (byHashcode: Readonly<Record<string, string>>) =>
      checkLocale(byHashcode, plan.messages, hashcodesNow(), locale, options.placeholder, options.formats)
    const pullAndCheck = async (): Promise<MemoCheck> => {
      const one = await translationsFor(locale, { input, cache, network, projectId, wanted })
      if (one.refusal) pulled.refusals.push(one.refusal)
      if (one.absent && one.absent.length > 0) pulled.absent.set(locale, one.absent)
      if (one.failure) failures.push(one.failure)
      pulled.sources[locale] = one.source
      if (plan.pulledMemos && plan.memos) {
        return plan.memos.checkPulled(locale, one.translations, hashcodesNow(), checkOf)
      }
      const checked = checkOf(one.translations)
      return { ...checked, translated: checked.texts.size }
    }
    const outcome = await withMemo(plan, locale, checkOf, pullAndCheck, pulled.sources)
    if (outcome.texts) pulled.translations.set(locale, outcome.texts)
    if (outcome.problems.length > 0)
      reportProblems(outcome.problems, plan.messages, locale, options.root, logger)
    pulled.coverage[locale] = checkedCoverage(plan.count, outcome.translated, outcome.incomplete)
  }
  await Promise.all(options.locales.map(eachLocale))
  return pulled
}

/** A locale's pull and check, answered by its catalog memo when it has the same inputs. */
async function withMemo(
  plan: SyncPlan,
  locale: string,
  checkOf: (byHashcode: Readonly<Record<string, string>>) => ReturnType<typeof checkLocale>,
  pullAndCheck: () => Promise<MemoCheck>,
  sources: SyncResult['sources'],
): Promise<MemoCheck> {
  const memoed = plan.pulledMemos ? undefined : plan.memos?.checkCached(locale, checkOf)
  if (!memoed) return pullAndCheck()
  sources[locale] = 'cache'
  return memoed
}

/** The check: the run fails on a refusal, says what fell back, and adds the pseudo-locales. */
async function checkSync(
  plan: SyncPlan,
  pushed: number,
  hashcodesNow: () => readonly (string | undefined)[],
  pulled: Pulled,
): Promise<SyncResult> {
  const { input, options, logger, network, projectId, memos, failures } = plan
  const { translations, sources, refusals, absent } = pulled
  // Every locale has settled: no pull is left running behind the error.
  if (refusals[0]) throw new TmsSyncError(refusals[0].option, refusals[0].message)
  if (failures.length > 0) logger.warn(describeFailures(failures))
  const unauthorized =
    network && projectId ? await awaitingAuthorization(network.strings, projectId, absent) : undefined
  const bare = options.locales.filter((l) => sources[l] === 'none')
  if (!network && bare.length > 0 && plan.count > 0) {
    logger.warn(
      `no translations for ${bare.join(', ')}: ${offlineReason(options, input.client)} and the cache ` +
        `(${options.cacheDir}) has none, so the build uses the source text`,
    )
  }
  for (const locale of options.pseudo) {
    if (!memos) translations.set(locale, pseudoTranslations(plan.messages, locale))
    sources[locale] = 'pseudo'
  }
  if (memos) {
    // Their catalogs are made of the messages alone: made again only when a catalog misses its memo.
    const made = options.pseudo.map((locale) =>
      memos.made(locale, () => pseudoTranslations(plan.messages, locale)),
    )
    // The source locale's catalog (`sourceCatalog`), or its inline copy's texts (`keepTexts`), has a memo too.
    if (options.sourceCatalog || input.keepTexts) made.push(memos.made(options.sourceLocale))
    await Promise.all(made)
  }
  let hashcodeMap: Map<string, string> | undefined
  return {
    translations,
    ...(memos ? { memos } : {}),
    // Made when asked (the dev overlay, the commands): a build's catalogs do not need it.
    get hashcodes() {
      hashcodeMap ??= hashcodesOf(plan.messages, hashcodesNow())
      return hashcodeMap
    },
    coverage: pulled.coverage,
    pushed,
    sources,
    cacheProject: plan.cache.projectId,
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

/** `tms push`: the recorded messages the service lost, to create again (see src/core/sync/lost-strings.ts). */
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

/** How many messages the input has, read from them only when the extraction did not say. */
function countOf(input: SyncInput): number {
  return input.count ?? input.messages.length
}

/** What the catalog memos know of the input's messages: read only if a memo asks for them. */
function memoMessages(input: SyncInput): MemoMessages {
  return memoMessagesOf(() => input.messages, { count: input.count, digest: input.messagesDigest })
}

function pseudoTranslations(messages: readonly SyncMessage[], locale: PseudoLocale): Map<string, string> {
  return new Map(messages.map((m) => [m.key, pseudoLocalize(m.text, locale)]))
}
