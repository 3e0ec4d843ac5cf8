import { checkMessageTranslation } from '../check/message'
import type { Formats } from '../model/formats'
import type { PlaceholderSpec } from '../model/placeholders'

/**
 * Where a message stands in one locale, as a reviewer needs it: the text a reader of that locale
 * would get from the service, and whether a build would ship it.
 */

export type LocaleStateCode = 'published' | 'pending' | 'missing' | 'rejected' | 'pseudo'

export interface LocaleState {
  locale: string
  state: LocaleStateCode
  /** The translation, in the app's placeholder spelling when it passed the check. */
  text?: string
  /** Rejected: what the translation check found (a dropped placeholder, an ICU error). */
  reason?: string
  /** Rejected: whether the rejected text is the published one or a pending one. */
  of?: 'published' | 'pending'
  /** Characters of `text`: against the message's `maxLength`. */
  length?: number
}

export interface StateMessage {
  text: string
  placeholders: readonly string[]
}

/**
 * One locale's state from its published and pending (any saved) translation: published wins, a
 * translation that fails the check is rejected with the check's reason, since no build ships it.
 */
export function localeState(
  locale: string,
  message: StateMessage,
  texts: { published?: string; pending?: string },
  spec: PlaceholderSpec,
  formats?: Formats,
): LocaleState {
  const of = texts.published !== undefined ? 'published' : texts.pending !== undefined ? 'pending' : undefined
  if (!of) return { locale, state: 'missing' }
  const raw = (of === 'published' ? texts.published : texts.pending)!
  const checked = checkMessageTranslation(raw, message, spec, locale, formats)
  if (!checked.ok)
    return { locale, state: 'rejected', text: raw, reason: checked.reason, of, length: raw.length }
  return { locale, state: of, text: checked.parsed, length: checked.parsed.length }
}
