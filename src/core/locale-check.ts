import { checkMessageTranslation } from './icu/translation'
import type { PlaceholderSpec } from './placeholders'

/**
 * One locale's translations (by hashcode, as pulled or cached) checked against the messages they
 * translate: the texts a catalog may hold, and the problems the build reports. The problems name
 * their message by its index, so a catalog memo (`src/core/catalog-memo.ts`) keeps them and a later
 * build reports them again with the messages' locations of that build.
 */

/** What a check needs of a message (the sync's `SyncMessage` has all of it). */
export interface CheckedMessage {
  key: string
  text: string
  placeholders: readonly string[]
  locations: readonly { file: string; line: number; column: number }[]
}

/** A translation rejected (`reason`), or kept with a note (`note`), of the message at `index`. */
export type LocaleProblem =
  | { index: number; hashcode: string; reason: string }
  | { index: number; hashcode: string; note: string }

export interface LocaleCheck {
  /** Message key -> checked translation in the app's placeholder spelling. */
  texts: Map<string, string>
  /** In message order, as they are reported. */
  problems: LocaleProblem[]
  /** ICU translations lacking plural categories of the locale: `<hashcode>: few, many`, sorted. */
  incomplete: string[]
}

/** Checks each message's translation in `locale`; `hashcodes[i]` is message i's hashcode. */
export function checkLocale(
  byHashcode: Readonly<Record<string, string>>,
  messages: readonly CheckedMessage[],
  hashcodes: readonly (string | undefined)[],
  locale: string,
  placeholder: PlaceholderSpec,
): LocaleCheck {
  const texts = new Map<string, string>()
  const problems: LocaleProblem[] = []
  const incomplete: string[] = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const hashcode = hashcodes[i]
    const raw = hashcode ? byHashcode[hashcode] : undefined
    if (raw === undefined || raw === '' || hashcode === undefined) continue
    const checked = checkMessageTranslation(raw, m, placeholder, locale)
    if (!checked.ok) {
      problems.push({ index: i, hashcode, reason: checked.reason })
      continue
    }
    if ('warnings' in checked && checked.warnings) {
      for (const note of checked.warnings) problems.push({ index: i, hashcode, note })
    }
    if ('missingCategories' in checked && checked.missingCategories) {
      incomplete.push(`${hashcode}: ${checked.missingCategories.join(', ')}`)
    }
    texts.set(m.key, checked.parsed)
  }
  return { texts, problems, incomplete: incomplete.sort() }
}

/** The warning of a problem, naming the message's first location under `root`. */
export function problemWarning(
  problem: LocaleProblem,
  message: CheckedMessage,
  locale: string,
  root: string,
): string {
  if ('note' in problem) return `translation of ${problem.hashcode} for ${locale}: ${problem.note}`
  return (
    `translation of ${problem.hashcode} for ${locale} rejected: ${problem.reason}; ` +
    `the source text ${where(message, root)} is used`
  )
}

/** A message's text and first location, for a warning or an error. */
export function where(message: Pick<CheckedMessage, 'text' | 'locations'>, root: string): string {
  const at = message.locations[0]
  if (!at) return JSON.stringify(message.text)
  const file = at.file.startsWith(`${root}/`) ? at.file.slice(root.length + 1) : at.file
  return `${JSON.stringify(message.text)} (${file}:${at.line}:${at.column})`
}
