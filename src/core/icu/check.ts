import type { Formats } from '../model/formats'
import { currenciesOf, describeFormattingProblem, formattingProblem } from './formatting'
import { depthProblem, lengthProblem } from './limits'
import { type MessageFormatElement, parseIcu, TYPE } from './parse'
import { unknownStylesOf } from './styles'

/**
 * The checks of ICU messages: a source message at extraction (syntax, `other`, nesting, what Intl
 * makes of its numbers and dates), and a translation against its source before a catalog uses it
 * (size, syntax, nesting, arguments and their kinds, tags, their nesting and how often each renders,
 * currencies, what Intl makes of its numbers and dates in the target locale, `other`, plural
 * categories of the target locale). Whatever passes compiles, and formats in the page without a throw
 * that its text could cause.
 */

/** What an argument is used as; `date` and `time` are one kind (both take a date). */
export type ArgumentKind = 'text' | 'number' | 'date' | 'plural' | 'selectordinal' | 'select'

/** Each argument of a message and the kinds it is used as (one, almost always). */
export function argumentsOf(ast: readonly MessageFormatElement[]): Map<string, Set<ArgumentKind>> {
  const out = new Map<string, Set<ArgumentKind>>()
  const add = (name: string, kind: ArgumentKind): void => {
    const kinds = out.get(name)
    if (kinds) kinds.add(kind)
    else out.set(name, new Set([kind]))
  }
  const walk = (elements: readonly MessageFormatElement[]): void => {
    for (const el of elements) {
      switch (el.type) {
        case TYPE.argument:
          add(el.value, 'text')
          break
        case TYPE.number:
          add(el.value, 'number')
          break
        case TYPE.date:
        case TYPE.time:
          add(el.value, 'date')
          break
        case TYPE.select:
          add(el.value, 'select')
          for (const o of Object.values(el.options)) walk(o.value)
          break
        case TYPE.plural:
          add(el.value, el.pluralType === 'ordinal' ? 'selectordinal' : 'plural')
          for (const o of Object.values(el.options)) walk(o.value)
          break
        case TYPE.tag:
          walk(el.children)
          break
      }
    }
  }
  walk(ast)
  return out
}

/**
 * Each tag of a message with the tags it sits inside (`a/b`: `<b>` inside `<a>`). A set: a tag in each
 * branch of a plural is one path, so a translation may add the branches its language needs.
 */
export function tagPathsOf(ast: readonly MessageFormatElement[]): Set<string> {
  const out = new Set<string>()
  const walk = (elements: readonly MessageFormatElement[], outer: string): void => {
    for (const el of elements) {
      if (el.type === TYPE.tag) {
        const path = outer + el.value
        out.add(path)
        walk(el.children, `${path}/`)
      } else if (el.type === TYPE.select || el.type === TYPE.plural)
        for (const o of Object.values(el.options)) walk(o.value, outer)
    }
  }
  walk(ast, '')
  return out
}

const tagOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
const placeOf = (path: string): string =>
  path.includes('/')
    ? `inside <${path.slice(0, path.lastIndexOf('/')).split('/').join('> inside <')}>`
    : 'outside any tag'

/** Why a translation's tags differ from its source's (dropped, added, renamed, nested otherwise). */
function tagProblem(expected: Set<string>, found: Set<string>): string | undefined {
  const names = (paths: Set<string>): Set<string> => new Set([...paths].map(tagOf))
  const ours = names(expected)
  const theirs = names(found)
  for (const name of theirs) if (!ours.has(name)) return `it has the tag <${name}>, which the source does not`
  for (const name of ours) if (!theirs.has(name)) return `it drops the tag <${name}>`
  for (const path of found) {
    if (!expected.has(path)) {
      const name = tagOf(path)
      const where = [...expected].filter((p) => tagOf(p) === name).map(placeOf)
      return `it has the tag <${name}> ${placeOf(path)} where the source has it ${where.join(' and ')}`
    }
  }
  for (const path of expected)
    if (!found.has(path)) return `it lacks the tag <${tagOf(path)}> ${placeOf(path)}, as the source has it`
  return undefined
}

/**
 * How many times each tag renders in one formatting at most: tags in a row add up, the branches of a
 * plural or select are alternatives (the most of any branch counts).
 */
export function tagCountsOf(elements: readonly MessageFormatElement[]): Map<string, number> {
  const out = new Map<string, number>()
  const add = (counts: ReadonlyMap<string, number>): void => {
    for (const [name, n] of counts) out.set(name, (out.get(name) ?? 0) + n)
  }
  for (const el of elements) {
    if (el.type === TYPE.tag) {
      add(new Map([[el.value, 1]]))
      add(tagCountsOf(el.children))
    } else if (el.type === TYPE.select || el.type === TYPE.plural) {
      const most = new Map<string, number>()
      for (const o of Object.values(el.options))
        for (const [name, n] of tagCountsOf(o.value)) most.set(name, Math.max(most.get(name) ?? 0, n))
      add(most)
    }
  }
  return out
}

const times = (n: number): string => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)

/** A tag that renders more often in the translation than in the source (a link shown twice). */
function tagCountProblem(
  expected: ReadonlyMap<string, number>,
  found: ReadonlyMap<string, number>,
): string | undefined {
  for (const [name, n] of found) {
    const wanted = expected.get(name) ?? 0
    if (n > wanted)
      return `it renders the tag <${name}> ${times(n)} where the source renders it ${times(wanted)}`
  }
  return undefined
}

/**
 * A source message's problem (syntax, a plural or select without `other`, nesting, a number or date
 * Intl refuses), or undefined.
 */
export function sourceMessageProblem(
  text: string,
  formats?: Formats,
): { problem: string; offset: number } | undefined {
  const parsed = parseIcu(text)
  if (!parsed.ok) return { problem: parsed.problem, offset: parsed.offset }
  const deep = depthProblem(parsed.ast)
  if (deep) return { problem: deep, offset: 0 }
  // The source text is shown in every locale of the build: Intl's refusals of options do not depend
  // on the locale, so one trial in the default locale tells.
  const refused = formattingProblem(text, parsed.ast, undefined, formats)
  return refused
    ? { problem: describeFormattingProblem(refused, undefined), offset: refused.offset }
    : undefined
}

export type IcuTranslationCheck =
  | {
      ok: true
      /** Plural categories used that the locale does not have: worth a warning, still used. */
      warnings: string[]
      /** Plural categories the locale needs and the translation lacks (`few` in Polish): incomplete. */
      missingCategories: string[]
    }
  | { ok: false; reason: string }

const categoriesCache = new Map<string, readonly string[]>()

function categoriesOf(locale: string, type: 'cardinal' | 'ordinal'): readonly string[] {
  const key = `${type}:${locale}`
  let found = categoriesCache.get(key)
  if (!found) {
    try {
      found = new Intl.PluralRules(locale, { type }).resolvedOptions().pluralCategories
    } catch {
      found = ['other']
    }
    categoriesCache.set(key, found)
  }
  return found
}

const describeKinds = (kinds: ReadonlySet<ArgumentKind>): string => [...kinds].join('/')

/**
 * Checks an ICU translation against its source message, for a target locale. `formats` (the option)
 * reads style names; with it, a translation naming a style that is not known (and that its source
 * does not name alike) is refused. Without it names are not checked; the build and `tms import` both
 * pass the config's, so an import takes only what the build would.
 */
export function checkIcuTranslation(
  source: string,
  translation: string,
  locale: string,
  formats?: Formats,
): IcuTranslationCheck {
  const long = lengthProblem(translation)
  if (long) return { ok: false, reason: long }
  // Read without the locale: it only picks the hour cycle of a `j` skeleton, and Intl takes every cycle.
  const theirs = parseIcu(translation)
  if (!theirs.ok) {
    if (theirs.code === 'MISSING_OTHER_CLAUSE')
      return { ok: false, reason: `it lacks \`other\`: ${theirs.problem}` }
    return { ok: false, reason: `it does not parse: ${theirs.problem} (at character ${theirs.offset})` }
  }
  const deep = depthProblem(theirs.ast)
  if (deep) return { ok: false, reason: `it has ${deep}` }
  const ours = parseIcu(source)
  if (!ours.ok) return { ok: false, reason: `its source does not parse: ${ours.problem}` }
  const expected = argumentsOf(ours.ast)
  const found = argumentsOf(theirs.ast)
  for (const [name, kinds] of found) {
    const wanted = expected.get(name)
    if (!wanted) return { ok: false, reason: `it uses the argument {${name}}, which the source does not` }
    for (const kind of kinds) {
      if (!wanted.has(kind)) {
        return {
          ok: false,
          reason: `it uses {${name}} as ${kind} where the source uses it as ${describeKinds(wanted)}`,
        }
      }
    }
  }
  for (const name of expected.keys()) {
    if (!found.has(name)) return { ok: false, reason: `it drops the argument {${name}}` }
  }
  const sourceTags = tagPathsOf(ours.ast)
  // Counted only when there are tags: most messages have none, and tagProblem saw the same names.
  const tags =
    tagProblem(sourceTags, tagPathsOf(theirs.ast)) ??
    (sourceTags.size > 0 ? tagCountProblem(tagCountsOf(ours.ast), tagCountsOf(theirs.ast)) : undefined)
  if (tags) return { ok: false, reason: tags }
  if (formats) {
    const known = unknownStylesOf(ours.ast, formats)
    for (const style of unknownStylesOf(theirs.ast, formats)) {
      if (known.has(style)) continue
      const [kind, name] = [style.slice(0, style.indexOf(':')), style.slice(style.indexOf(':') + 1)]
      return {
        ok: false,
        reason: `it names the ${kind} format "${name}", which is neither built in nor in the formats option`,
      }
    }
  }
  const money = currenciesOf(ours.ast, formats)
  for (const code of currenciesOf(theirs.ast, formats)) {
    if (!money.has(code)) {
      const source = money.size > 0 ? `uses ${[...money].join(', ')}` : 'formats no money'
      return { ok: false, reason: `it formats money in ${code}, where the source ${source}` }
    }
  }
  const refused = formattingProblem(translation, theirs.ast, locale, formats)
  if (refused) return { ok: false, reason: `its ${describeFormattingProblem(refused, locale)}` }
  const warnings: string[] = []
  const missing = new Set<string>()
  const walk = (elements: readonly MessageFormatElement[]): void => {
    for (const el of elements) {
      if (el.type === TYPE.select) for (const o of Object.values(el.options)) walk(o.value)
      else if (el.type === TYPE.tag) walk(el.children)
      else if (el.type === TYPE.plural) {
        const type = el.pluralType === 'ordinal' ? 'ordinal' : 'cardinal'
        const known = categoriesOf(locale, type)
        const keys = Object.keys(el.options)
        for (const key of keys) {
          if (!key.startsWith('=') && !known.includes(key)) {
            warnings.push(
              `{${el.value}, ${type === 'ordinal' ? 'selectordinal' : 'plural'}} has the category ${key}, which ${locale} does not use`,
            )
          }
        }
        for (const category of known) if (!keys.includes(category)) missing.add(category)
        for (const o of Object.values(el.options)) walk(o.value)
      }
    }
  }
  walk(theirs.ast)
  return { ok: true, warnings, missingCategories: [...missing] }
}
