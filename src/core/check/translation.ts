import { isAppSpec, structuralPlaceholders } from '../icu/placeholders'
import {
  type PlaceholderMatch,
  type PlaceholderSpec,
  placeholderRegex,
  placeholderTrigger,
} from '../model/placeholders'

/**
 * Translations checked against their placeholders before they reach a bundle: a translation that
 * drops or adds one is rejected with the reason, and the build uses the source text.
 */

export type TranslationCheck = { ok: true; parsed: string } | { ok: false; reason: string }

const INDEXED_SOURCE = String.raw`\{\d+\}`
const translationRegexes = new Map<RegExp | null, RegExp>()
let recent: { format: PlaceholderSpec['format']; custom: PlaceholderSpec['custom']; re: RegExp } | undefined

/** The spec's placeholders or `{N}`: compiled once per spec, since a pull checks thousands of texts. */
function translationRegex(spec: PlaceholderSpec): RegExp {
  // A pull checks every translation with the same spec: skip even the lookup by spec key.
  if (recent && recent.format === spec.format && recent.custom === spec.custom) return recent.re
  const specRe = placeholderRegex(spec)
  let re = translationRegexes.get(specRe)
  if (!re) {
    re = new RegExp(specRe ? `${specRe.source}|${INDEXED_SOURCE}` : INDEXED_SOURCE, 'gu')
    translationRegexes.set(specRe, re)
  }
  recent = { format: spec.format, custom: spec.custom, re }
  return re
}

/**
 * Brings a translation to the `{0}` form and checks that it uses exactly the source's placeholders.
 * Accepts both forms the service sends: `{0}` (showPlaceholderValues=false) and the original spelling
 * restored (`Bonjour {name} !`). A placeholder dropped or added is a rejection with the reason.
 */
export function checkTranslation(
  translation: string,
  source: { placeholders: readonly string[] },
  spec: PlaceholderSpec,
): TranslationCheck {
  return check(translation, source, spec, false)
}

/**
 * {@link checkTranslation} and `restorePlaceholders` in one pass: the checked translation in the app's
 * own spelling (`Bonjour {name} !`), as a catalog holds it.
 */
export function checkAppText(
  translation: string,
  source: { placeholders: readonly string[] },
  spec: PlaceholderSpec,
): TranslationCheck {
  return check(translation, source, spec, true)
}

/** Whether a text may hold a placeholder of the spec or a `{N}`; true when that cannot be told cheaply. */
function mayHoldPlaceholder(text: string, spec: PlaceholderSpec): boolean {
  if (text.includes('{')) return true
  const trigger = placeholderTrigger(spec)
  return trigger === undefined || (trigger !== null && text.includes(trigger))
}

function check(
  translation: string,
  source: { placeholders: readonly string[] },
  spec: PlaceholderSpec,
  app: boolean,
): TranslationCheck {
  const count = source.placeholders.length
  // Most translations hold no placeholder at all: nothing to bring to the `{0}` form.
  if (!mayHoldPlaceholder(translation, spec)) {
    return count === 0
      ? { ok: true, parsed: translation }
      : { ok: false, reason: `it drops the placeholder ${source.placeholders[0]}` }
  }
  const re = translationRegex(spec)
  re.lastIndex = 0
  const first = re.exec(translation)
  if (!first) {
    return count === 0
      ? { ok: true, parsed: translation }
      : { ok: false, reason: `it drops the placeholder ${source.placeholders[0]}` }
  }
  const matches = function* (): Generator<PlaceholderMatch> {
    for (let m: RegExpExecArray | null = first; m; m = re.exec(translation)) {
      if (m[0] !== '%%') yield { text: m[0], start: m.index, end: m.index + m[0].length }
    }
  }
  return assemble(translation, source.placeholders, matches(), app)
}

/**
 * {@link checkTranslation} of an ICU message's translation under the app's spec: its placeholders are
 * read from its structure, as the source's were (`../icu/placeholders.ts`), so `one {fichier}` is the
 * translator's text and not a placeholder the source lacks. Other specs, and a text that does not
 * parse, are read by the regex.
 */
export function checkIcuTranslationPlaceholders(
  translation: string,
  source: { placeholders: readonly string[] },
  spec: PlaceholderSpec,
): TranslationCheck {
  const structural = isAppSpec(spec) ? structuralPlaceholders(translation) : undefined
  if (structural === undefined) return check(translation, source, spec, false)
  return assemble(translation, source.placeholders, structural, false)
}

/** The `{0}` form (or the app spelling) of a translation from its placeholders, each matched to the source's. */
function assemble(
  translation: string,
  placeholders: readonly string[],
  matches: Iterable<PlaceholderMatch>,
  app: boolean,
): TranslationCheck {
  const count = placeholders.length
  /** Per source placeholder: whether the translation has used it yet. */
  const used: boolean[] = new Array(count).fill(false)
  let parsed = ''
  let last = 0
  for (const m of matches) {
    let index = -1
    const indexed = /^\{(\d+)\}$/.exec(m.text)
    // The original spelling first: a source placeholder may itself be `{0}`.
    for (let i = 0; i < count; i++) {
      if (placeholders[i] === m.text && !used[i]) {
        index = i
        break
      }
    }
    if (index < 0) index = placeholders.indexOf(m.text)
    if (index < 0 && indexed && Number(indexed[1]) < count) index = Number(indexed[1])
    if (index < 0) return { ok: false, reason: `it has the placeholder ${m.text}, which the source does not` }
    used[index] = true
    // Every `{N}` of the translation is a match, so the app spelling can be put in place right here:
    // the same text restorePlaceholders would make of the `{0}` form.
    parsed += `${translation.slice(last, m.start)}${app ? placeholders[index] : `{${index}}`}`
    last = m.end
  }
  parsed += translation.slice(last)
  for (let i = 0; i < count; i++) {
    if (!used[i]) return { ok: false, reason: `it drops the placeholder ${placeholders[i]}` }
  }
  return { ok: true, parsed }
}
