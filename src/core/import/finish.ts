import type { Formats } from '../model/formats'
import { messageProblem, translationProblem } from './check'
import type { ConvertedCatalog, ConvertedMessage, ImportedCatalog, ImportedEntry } from './types'

/**
 * The part every conversion shares: an empty translation is counted as untranslated, each text is
 * turned into our form by the library's own `toOurs`, and the result is kept only when it passes
 * the checks (its own, and against its source when the source is known); otherwise a refusal
 * names the file, the line and why.
 */

export type ToOurs = (text: string) => { text: string } | { problem: string }

export function emptyConversion(catalog: ImportedCatalog): ConvertedCatalog {
  const converted: ConvertedCatalog = {
    locale: catalog.locale,
    file: catalog.file,
    messages: [],
    refusals: [],
    untranslated: [],
  }
  if (catalog.namespace !== undefined) converted.namespace = catalog.namespace
  return converted
}

const nameOf = (entry: { key?: string; source?: string }): string | undefined => entry.key ?? entry.source

/** Converts one entry into `into`, or records why it cannot be. */
export function convertEntry(into: ConvertedCatalog, entry: ImportedEntry, toOurs: ToOurs): void {
  if (entry.translation === '') {
    const untranslated: ConvertedCatalog['untranslated'][number] = { line: entry.line }
    if (entry.key !== undefined) untranslated.key = entry.key
    if (entry.source !== undefined) untranslated.source = entry.source
    into.untranslated.push(untranslated)
    return
  }
  const refuse = (reason: string): void => {
    const key = nameOf(entry)
    into.refusals.push(
      key === undefined
        ? { file: into.file, line: entry.line, reason }
        : { file: into.file, line: entry.line, key, reason },
    )
  }
  let source: string | undefined
  if (entry.source !== undefined) {
    const ours = toOurs(entry.source)
    if ('problem' in ours) {
      refuse(`its source text: ${ours.problem}`)
      return
    }
    const problem = messageProblem(ours.text)
    if (problem) {
      refuse(`its source text: ${problem}`)
      return
    }
    source = ours.text
  }
  const ours = toOurs(entry.translation)
  if ('problem' in ours) {
    refuse(ours.problem)
    return
  }
  // Read without the config's formats: the match against our messages (match.ts) checks again with them.
  const problem =
    messageProblem(ours.text) ??
    (source === undefined ? undefined : translationProblem(source, ours.text, into.locale, undefined))
  if (problem) {
    refuse(problem)
    return
  }
  const message: ConvertedMessage = { text: ours.text, line: entry.line }
  if (entry.key !== undefined) message.key = entry.key
  if (source !== undefined) message.source = source
  if (entry.context !== undefined) message.context = entry.context
  if (entry.comment !== undefined) message.comment = entry.comment
  if (entry.fuzzy) message.fuzzy = true
  into.messages.push(message)
}

const identity = (m: { key?: string; context?: string }): string => `${m.context ?? ''}\u0000${m.key}`

/**
 * Gives each message that has a key but no source (a Lingui explicit id, a FormatJS id, an i18next
 * key) the source text of the same key and context in the source locale's converted catalog, and
 * checks the translation against it with the config's `formats`, as a build would. A key the source
 * catalog lacks is refused, not guessed.
 */
export function attachSources(
  target: ConvertedCatalog,
  source: ConvertedCatalog,
  formats?: Formats,
): ConvertedCatalog {
  const sources = new Map<string, string>()
  for (const m of source.messages) if (m.key !== undefined) sources.set(identity(m), m.source ?? m.text)
  const result: ConvertedCatalog = { ...target, messages: [], refusals: [...target.refusals] }
  for (const m of target.messages) {
    if (m.source !== undefined || m.key === undefined) {
      result.messages.push(m)
      continue
    }
    const text = sources.get(identity(m))
    // One reading of an i18next family (`files_few` read as its own key) that the source locale's
    // catalog has no key for: its plural reading carries it.
    if (text === undefined && m.reading !== undefined) continue
    // Such a reading is checked once it matches a message (match.ts): the app may not use the key
    // alone, and a refusal of a text it never shows (`files_few` against an English placeholder) is noise.
    const problem =
      text === undefined
        ? `its key has no message in the source locale's catalog ${source.file} (${source.locale}), so its source text is unknown`
        : m.reading !== undefined
          ? undefined
          : translationProblem(text, m.text, target.locale, formats)
    if (problem) result.refusals.push({ file: target.file, line: m.line, key: m.key, reason: problem })
    else result.messages.push({ ...m, source: text! })
  }
  return result
}
