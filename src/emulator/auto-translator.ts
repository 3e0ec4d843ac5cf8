import { pseudoLocalize } from '../core/model/pseudo'
import type { Clock } from './clock'
import { validationError } from './http/envelope'
import { optionalNumber } from './http/params'
import type { EmulatorStore } from './store'
import type { TimerSet } from './timers'
import type { AutoTranslateMode, AutoTranslateSettings } from './types'

const MODES: readonly AutoTranslateMode[] = ['memory', 'pseudo', 'off']
const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb'])

export interface ResolvedAutoTranslate {
  mode: AutoTranslateMode
  publishDelayMs: number
}

export function parseAutoTranslate(input: unknown, where = ''): ResolvedAutoTranslate {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationError(where || 'body', 'must be a JSON object')
  }
  const body = input as Record<string, unknown>
  if (!MODES.includes(body.mode as AutoTranslateMode)) {
    throw validationError(`${where}mode`, `must be one of ${MODES.join(', ')}`)
  }
  const publishDelayMs = optionalNumber(
    body,
    'publishDelayMs',
    { min: 0, max: 3_600_000 },
    `${where}publishDelayMs`,
  )
  return { mode: body.mode as AutoTranslateMode, publishDelayMs: publishDelayMs ?? 0 }
}

/** en-XA style for left-to-right targets, ar-XB for right-to-left ones. */
function pseudoFor(localeId: string, parsed: string): string {
  const language = localeId.split(/[-_]/)[0]!.toLowerCase()
  return pseudoLocalize(parsed, RTL_LANGUAGES.has(language) ? 'ar-XB' : 'en-XA')
}

/**
 * An authorization of at most this many (string, locale) pairs is translated (and, with no delay,
 * published) before it returns, as tests and demos expect of `publishDelayMs: 0`.
 */
export const AUTO_TRANSLATE_AT_ONCE = 5000

/**
 * A larger authorization (a job of 20,000 strings in 3 locales) goes on in slices of this many
 * pairs, with other requests served in between: in one go it kept the emulator from answering
 * anyone for seconds.
 */
export const AUTO_TRANSLATE_SLICE = 250

/**
 * Plays the translators: when strings are authorized, it saves a translation for each new
 * (string, locale) pair that has none (from the seed's translation memory, or pseudo-translated),
 * then publishes it after the project's delay. Strings with no memory match stay untranslated.
 */
export class AutoTranslator {
  #settings = new Map<string, ResolvedAutoTranslate>()
  #defaults: ResolvedAutoTranslate = { mode: 'off', publishDelayMs: 0 }
  readonly #clock: Clock
  readonly #timers: TimerSet

  constructor(clock: Clock, timers: TimerSet) {
    this.#clock = clock
    this.#timers = timers
  }

  setDefaults(settings: AutoTranslateSettings | undefined): void {
    this.#defaults = settings
      ? parseAutoTranslate(settings, 'autoTranslate.')
      : { mode: 'off', publishDelayMs: 0 }
    this.#settings.clear()
  }

  set(projectId: string, settings: ResolvedAutoTranslate): void {
    this.#settings.set(projectId, settings)
  }

  get(projectId: string): ResolvedAutoTranslate {
    return this.#settings.get(projectId) ?? this.#defaults
  }

  attach(store: EmulatorStore): void {
    store.events.on('stringsAuthorized', ({ projectId, pairs }) => {
      const { mode, publishDelayMs } = this.get(projectId)
      if (mode === 'off') return
      const size = pairs.length <= AUTO_TRANSLATE_AT_ONCE ? pairs.length : AUTO_TRANSLATE_SLICE
      const slice = (from: number): void => {
        const saved: { hashcode: string; localeId: string }[] = []
        for (const { hashcode, localeId } of pairs.slice(from, from + size)) {
          const string = store.strings.get(projectId, hashcode)
          if (!string) continue
          const state = string.translations[localeId]
          if (state?.pending || state?.published) continue
          const text =
            mode === 'pseudo'
              ? pseudoFor(localeId, string.parsedStringText)
              : store.directory.recall(localeId, string.parsedStringText)
          if (text === undefined) continue
          const now = this.#clock.now()
          store.strings.setTranslation(projectId, hashcode, localeId, text, publishDelayMs === 0, now)
          saved.push({ hashcode, localeId })
        }
        if (publishDelayMs > 0 && saved.length > 0) {
          this.#timers.after(publishDelayMs, () => {
            for (const { hashcode, localeId } of saved) {
              store.strings.publish(projectId, hashcode, localeId, this.#clock.now())
            }
          })
        }
        if (from + size < pairs.length) {
          this.#timers.after(0, () => slice(from + size))
        }
      }
      slice(0)
    })
  }
}
