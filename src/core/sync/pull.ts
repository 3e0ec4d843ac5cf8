import type { DiskCache } from '../cache'
import type { ResolvedOptions } from '../model/options'
import { singularTranslation } from '../model/wire'
import { describeError, type Refusal, refusalOf, type ServiceFailure, TmsSyncError } from './refusals'
import type { SyncClient, SyncLogger } from './types'

/**
 * The pull of one locale (a step of `syncTranslations` in `src/core/sync.ts`): its translations from
 * the service, merged into the cache, or the cache's when the network may not or cannot answer.
 */

/** What the pull reads of the sync's input. */
export interface PullInput {
  options: ResolvedOptions
  logger: SyncLogger
  /** Whether translations are fetched now (default true). */
  pull?: boolean
  /** See `SyncInput.strict`. */
  strict?: boolean
}

/** One locale's translations (hashcode -> text) and where they came from. */
export interface PulledLocale {
  translations: Record<string, string>
  source: 'network' | 'cache' | 'none'
  failure?: ServiceFailure
  /** Set in a strict run: the service refused the pull, and the run fails. */
  refusal?: Refusal
  /** Hashcodes asked for that the service did not return (see awaitingAuthorization). */
  absent?: string[]
}

/** The pull of `locale`, the cache standing in as the mode and the network say. */
export async function translationsFor(
  locale: string,
  ctx: {
    input: PullInput
    cache: DiskCache
    network: SyncClient | undefined
    projectId: string | undefined
    wanted: string[]
  },
): Promise<PulledLocale> {
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
