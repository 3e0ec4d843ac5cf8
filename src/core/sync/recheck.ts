import { type CacheFs, DiskCache } from '../cache'
import { checkLocale, type LocaleCheckMemo, reportProblems } from '../check/locale'
import type { ResolvedOptions } from '../model/options'
import { checkedCoverage, type LocaleCoverage } from './coverage'
import type { SyncResult } from './index'
import type { SyncLogger, SyncMessage } from './types'

/**
 * A dev server's answer to a `tms pull`: the locales whose cache file changed, read and checked again
 * for the messages of the last sync, whose manifest (each message's hashcode) did not change. That is
 * what a new build start would give those locales (the same check of every translation, the same
 * coverage), without extracting the app again, parsing the manifest, or checking the locales whose
 * file is as it was. A locale whose file cannot be read is not answered: the caller starts anew.
 */

export interface RecheckInput {
  options: ResolvedOptions
  /** The messages the last sync was given, in its order. */
  messages: readonly SyncMessage[]
  /** The last sync's result: its hashcodes and the cache's project. */
  sync: SyncResult
  locales: readonly string[]
  logger: SyncLogger
  fs?: CacheFs
  /**
   * Each locale's last recheck, kept by the caller for the next one over the same messages: a
   * translation as it was keeps its check (made here for a locale that has none).
   */
  memos?: Map<string, LocaleCheckMemo>
}

export interface RecheckedLocale {
  texts: Map<string, string>
  coverage: LocaleCoverage
}

/** Each locale's checked translations and coverage; undefined when a locale's file does not read. */
export async function recheckLocales(input: RecheckInput): Promise<Map<string, RecheckedLocale> | undefined> {
  const { options, messages, sync, logger } = input
  const cache = new DiskCache(options.cacheDir, sync.cacheProject, input.fs)
  const known = sync.hashcodes
  const hashcodes = messages.map((m) => known.get(m.key))
  const reads = await Promise.all(input.locales.map((l) => cache.readLocale(l, options.retrievalType)))
  const rechecked = new Map<string, RecheckedLocale>()
  for (let i = 0; i < input.locales.length; i++) {
    const read = reads[i]!
    if (!read.hit) return undefined
    const locale = input.locales[i]!
    let memo = input.memos?.get(locale)
    if (input.memos && !memo) {
      memo = { raw: [], checked: [] }
      input.memos.set(locale, memo)
    }
    const checked = checkLocale(
      read.value.translations,
      messages,
      hashcodes,
      locale,
      options.placeholder,
      options.formats,
      memo,
    )
    reportProblems(checked.problems, messages, locale, options.root, logger)
    const coverage = checkedCoverage(messages.length, checked.texts.size, checked.incomplete)
    rechecked.set(locale, { texts: checked.texts, coverage })
  }
  return rechecked
}

/** The message keys whose translation differs between two checks of a locale: added, changed or dropped. */
export function changedTranslations(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Set<string> {
  const keys = new Set<string>()
  for (const [key, text] of after) if (before.get(key) !== text) keys.add(key)
  for (const key of before.keys()) if (!after.has(key)) keys.add(key)
  return keys
}
