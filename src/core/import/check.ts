import { checkIcuTranslation, sourceMessageProblem } from '../icu/check'
import type { Formats } from '../model/formats'

/**
 * The checks an imported message passes before it counts as converted: its text is valid in our
 * form (the same checks as an extracted message: syntax, `other`, nesting, Intl's options), and a
 * translation agrees with its source as a build would demand (arguments, kinds, tags, currencies),
 * with the config's `formats` as the build passes them: a currency or style reached through a named
 * format (`{v, number, EUR}`) is read as the build reads it, not waved through.
 */

/** Why `text` is not a valid message in our form, or undefined. */
export function messageProblem(text: string): string | undefined {
  const problem = sourceMessageProblem(text)
  return problem
    ? `it is not valid ICU MessageFormat: ${problem.problem}, at character ${problem.offset} of ${JSON.stringify(text)}`
    : undefined
}

/** Why the translation would be rejected against its source in `locale` by a build with `formats`, or undefined. */
export function translationProblem(
  source: string,
  translation: string,
  locale: string,
  formats: Formats | undefined,
): string | undefined {
  const checked = checkIcuTranslation(source, translation, locale, formats)
  return checked.ok
    ? undefined
    : `its translation ${JSON.stringify(translation)} would be rejected against the source ${JSON.stringify(source)}: ${checked.reason}`
}
