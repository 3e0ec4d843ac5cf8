import { checkIcuTranslation } from '../icu/check'
import { isIcuMessage } from '../icu/compile'
import { cannotBeIcu } from '../icu/parse'
import { restoreIcuPlaceholders } from '../icu/restore'
import type { Formats } from '../model/formats'
import type { PlaceholderSpec } from '../model/placeholders'
import { checkAppText, type TranslationCheck } from './translation'

/**
 * The check folder: a translation checked against its message before a catalog holds it. This file is
 * the entry; `translation.ts` checks placeholders (a plain message), the ICU checks live in
 * `../icu/check.ts`, and `locale.ts` checks a whole locale and words the problems a build reports;
 * `styles.ts` checks the app's messages' style names against the `formats` option.
 *
 * The one check a pulled translation goes through before a catalog holds it. A plain source message
 * (text and `{name}` placeholders) keeps the placeholder check, and its translations are read as plain
 * text, so an app that writes no ICU gets its translations as the service sends them (another
 * placeholder format's `{0:N2}` is no ICU). An ICU source message gets the ICU check: syntax, arguments
 * and their kinds, `other`, and the plural categories of the locale.
 */

export type MessageTranslationCheck =
  | { ok: true; parsed: string; warnings?: string[]; missingCategories?: string[] }
  | { ok: false; reason: string }

const icuSources = new WeakMap<object, boolean>()

/**
 * Whether a source message is ICU, found once per message object (a pull checks every locale). Most
 * texts are told by one regular expression, cheaper than the weak map, which then holds only the few
 * that need a parse: thousands of entries would cost every garbage collection.
 */
export function isIcuSource(message: { text: string }): boolean {
  if (cannotBeIcu(message.text)) return false
  let icu = icuSources.get(message)
  if (icu === undefined) {
    icu = isIcuMessage(message.text)
    icuSources.set(message, icu)
  }
  return icu
}

export function checkMessageTranslation(
  translation: string,
  source: { text: string; placeholders: readonly string[] },
  spec: PlaceholderSpec,
  locale: string,
  formats?: Formats,
): MessageTranslationCheck | TranslationCheck {
  if (!isIcuSource(source)) return checkAppText(translation, source, spec)
  // The service may send the `{N}` form; the ICU check reads the app's own spelling. A branch body
  // written as a bare number (`one {1}`) is the translator's text, not a placeholder.
  const text = restoreIcuPlaceholders(translation, source.placeholders)
  const checked = checkIcuTranslation(source.text, text, locale, formats)
  if (!checked.ok) return checked
  return {
    ok: true,
    parsed: text,
    ...(checked.warnings.length > 0 ? { warnings: checked.warnings } : {}),
    ...(checked.missingCategories.length > 0 ? { missingCategories: checked.missingCategories } : {}),
  }
}
