import type { Formats } from '../model/formats'
import type { PlaceholderSpec } from '../model/placeholders'
import { checkMessageTranslation, type MessageTranslationCheck } from './message'
import type { TranslationCheck } from './translation'

/**
 * One locale's translations (by hashcode, as pulled or cached) checked against the messages they
 * translate: the texts a catalog may hold, and the problems the build reports. The problems name
 * their message by its index, so a catalog memo (`src/core/sync/catalog-memo.ts`) keeps them and a later
 * build reports them again with the messages' locations of that build.
 */

/** What a check needs of a message (the sync's `SyncMessage` has all of it). */
export interface CheckedMessage {
  key: string
  text: string
  placeholders: readonly string[]
  locations: readonly { file: string; line: number; column: number }[]
}

/**
 * A translation of the message at `index` rejected (`reason`), kept with a note (`note`), or kept
 * though it lacks plural categories the locale needs (`lacks`, reported once per locale).
 */
export type LocaleProblem =
  | { index: number; hashcode: string; reason: string }
  | { index: number; hashcode: string; note: string }
  | { index: number; hashcode: string; lacks: string[] }

export interface LocaleCheck {
  /** Message key -> checked translation in the app's placeholder spelling. */
  texts: Map<string, string>
  /** In message order, as they are reported. */
  problems: LocaleProblem[]
  /** ICU translations lacking plural categories of the locale: `<hashcode>: few, many`, sorted. */
  incomplete: string[]
}

/**
 * The last check of one locale's translations over the same messages, by message index: a dev server
 * checks a locale again after each `tms pull`, which changes a few translations of thousands.
 */
export interface LocaleCheckMemo {
  raw: (string | undefined)[]
  checked: (MessageTranslationCheck | TranslationCheck | undefined)[]
}

/**
 * Checks each message's translation in `locale`; `hashcodes[i]` is message i's hashcode. With `memo`
 * (the same messages, placeholder and formats), a translation as it was last time keeps its result,
 * and the memo is brought up to this check.
 */
export function checkLocale(
  byHashcode: Readonly<Record<string, string>>,
  messages: readonly CheckedMessage[],
  hashcodes: readonly (string | undefined)[],
  locale: string,
  placeholder: PlaceholderSpec,
  formats?: Formats,
  memo?: LocaleCheckMemo,
): LocaleCheck {
  const texts = new Map<string, string>()
  const problems: LocaleProblem[] = []
  const incomplete: string[] = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const hashcode = hashcodes[i]
    const raw = hashcode ? byHashcode[hashcode] : undefined
    if (raw === undefined || raw === '' || hashcode === undefined) continue
    let checked: MessageTranslationCheck | TranslationCheck | undefined =
      memo?.raw[i] === raw ? memo.checked[i] : undefined
    if (!checked) {
      checked = checkMessageTranslation(raw, m, placeholder, locale, formats)
      if (memo) {
        memo.raw[i] = raw
        memo.checked[i] = checked
      }
    }
    if (!checked.ok) {
      problems.push({ index: i, hashcode, reason: checked.reason })
      continue
    }
    if ('warnings' in checked && checked.warnings) {
      for (const note of checked.warnings) problems.push({ index: i, hashcode, note })
    }
    if ('missingCategories' in checked && checked.missingCategories) {
      incomplete.push(`${hashcode}: ${checked.missingCategories.join(', ')}`)
      problems.push({ index: i, hashcode, lacks: checked.missingCategories })
    }
    texts.set(m.key, checked.parsed)
  }
  return { texts, problems, incomplete: incomplete.sort() }
}

/**
 * The warning of a rejected or noted translation, naming the message's first location under `root`
 * and what to do; undefined for a `lacks` problem, which {@link incompleteNotice} reports with the
 * locale's others.
 */
export function problemWarning(
  problem: LocaleProblem,
  message: CheckedMessage,
  locale: string,
  root: string,
): string | undefined {
  if ('lacks' in problem) return undefined
  if ('note' in problem) {
    return (
      `translation of ${problem.hashcode} for ${locale} (the message ${where(message, root)}): ` +
      `${problem.note}; the translation is used, remove that branch on the service`
    )
  }
  return (
    `translation of ${problem.hashcode} for ${locale} rejected: ${problem.reason}; ` +
    `the source text ${where(message, root)} is used until the translation is corrected on the service`
  )
}

/**
 * A locale's problems told through `logger`: a warning per rejected or noted translation, one line
 * for those lacking plural categories.
 */
export function reportProblems(
  problems: readonly LocaleProblem[],
  messages: readonly CheckedMessage[],
  locale: string,
  root: string,
  logger: { info(message: string): void; warn(message: string): void },
): void {
  for (const p of problems) {
    const warning = problemWarning(p, messages[p.index]!, locale, root)
    if (warning) logger.warn(warning)
  }
  const incomplete = incompleteNotice(problems, messages, locale, root)
  if (incomplete) logger.info(incomplete)
}

/** How many incomplete translations one warning names; the JSON report lists every one. */
const NAMED_INCOMPLETE = 5

/**
 * One line for a locale's translations that lack plural categories it needs (Polish without `few`):
 * each named with its message and the categories, or undefined when there are none. Per locale and
 * at the report's level, as the report's count was: a French plural without `many` (1 000 000) is
 * common, and a warning each would drown the rest.
 */
export function incompleteNotice(
  problems: readonly LocaleProblem[],
  messages: readonly CheckedMessage[],
  locale: string,
  root: string,
): string | undefined {
  const lacking = problems.filter((p): p is Extract<LocaleProblem, { lacks: string[] }> => 'lacks' in p)
  if (lacking.length === 0) return undefined
  const n = lacking.length
  const named = lacking
    .slice(0, NAMED_INCOMPLETE)
    .map((p) => `${p.hashcode} ${where(messages[p.index]!, root, 60)} lacks ${p.lacks.join(', ')}`)
  const more =
    n > NAMED_INCOMPLETE ? `; ${n - NAMED_INCOMPLETE} more under "incomplete" in tms-report.json` : ''
  return (
    `${locale}: ${n} ICU translation${n === 1 ? ' lacks' : 's lack'} plural categories ${locale} needs, so ` +
    `numbers of those categories show the \`other\` branch: ${named.join('; ')}${more}. ` +
    `Add ${n === 1 ? 'the categories to the translation' : 'the categories to these translations'} on the service.`
  )
}

/**
 * A message's text and first location, for a warning or an error; with `max`, a longer text is cut
 * to its first `max` characters (`...` after them).
 */
export function where(
  message: Pick<CheckedMessage, 'text' | 'locations'>,
  root: string,
  max?: number,
): string {
  const at = message.locations[0]
  const text = JSON.stringify(
    max !== undefined && message.text.length > max ? `${message.text.slice(0, max)}...` : message.text,
  )
  if (!at) return text
  const file = at.file.startsWith(`${root}/`) ? at.file.slice(root.length + 1) : at.file
  return `${text} (${file}:${at.line}:${at.column})`
}
