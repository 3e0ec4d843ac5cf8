import { convertEntry, emptyConversion } from './finish'
import { escapeIcuLiteral } from './icu-text'
import type { ConvertedCatalog, ImportedCatalog, ImportedEntry, NameMapping } from './types'

/**
 * i18next's texts into our form. `{{x}}` (and unescaped `{{- x}}`) become `{x}`; a family of keys
 * with plural suffixes (`items_one`, `items_few`, `items_other`) becomes one message
 * `{count, plural, one {…} few {…} other {…}}` under the family's key, with `count` as i18next names
 * it; `_zero` becomes `=0`, since i18next picks it for a count of 0 in every language; a form of a
 * category the file's locale never picks (English `_few`) is left out, as i18next never shows it.
 * Keys that add `_male`-style suffixes to a key that exists (`friend`, `friend_male`) become
 * `{context, select, male {…} other {…}}` under `friend` + CONTEXT_READING, the bare key being
 * `other`. Each key is also read as its own message (i18next applies suffixes only for a `count` or
 * a `context`), marked with its family's `reading`. Tags (react-i18next's `<1>`,
 * `<br/>`) are renamed through `mapping` like Lingui's. Formatted values (`{{x, number}}`), nested
 * lookups (`$t(key)`), value paths (`{{user.name}}`) and ordinal suffixes are refused, not guessed.
 */

export interface I18nextOptions {
  mapping?: NameMapping
  /**
   * Read `base_suffix` next to `base` as a context of `base` (i18next's `context` option). A pair of
   * unrelated keys such as `title` and `title_short` reads the same way; the caller that knows the
   * code's `t()` calls turns this off for them. @default true
   */
  contexts?: boolean
}

/**
 * Appended to a key for its context reading: `friend` + this is `{context, select, male {…} other
 * {…}}` made of `friend` and `friend_male`, which `t('friend', { context })` shows.
 */
export const CONTEXT_READING = '{context}'

const PLURAL = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/
const ORDER = ['zero', 'one', 'two', 'few', 'many', 'other']
const TOKEN = /\{\{(-?)\s*([^}]*?)\s*\}\}|\$t\(([^)]*)\)|<(\/?)([A-Za-z0-9_-]+)\s*(\/?)>/g
const NAME = /^[A-Za-z_$][\w$]*$/

interface Family {
  key: string
  line: number
  plain?: ImportedEntry
  forms: Map<string, ImportedEntry>
  contexts: Map<string, Family>
}

type Built = { text: string } | { problem: string }

/** One i18next text in our form; `inPlural` quotes a literal `#`. */
export function i18nextText(text: string, inPlural: boolean, mapping: NameMapping = {}): Built {
  let out = ''
  let last = 0
  const open: string[] = []
  for (const m of text.matchAll(TOKEN)) {
    out += escapeIcuLiteral(text.slice(last, m.index), inPlural)
    last = m.index + m[0].length
    const [whole, , name, nested, close, tag, selfClosing] = m
    if (nested !== undefined)
      return { problem: `it nests another key with ${whole}, which has no ICU form; write the text out` }
    if (tag !== undefined) {
      // react-i18next counts numbers again inside each element: `<1>` within `<1>` is another
      // element, named by its path (`1-1`) so that one name stands for one element.
      const scoped = close
        ? (open.pop() ?? tag)
        : /^\d+$/.test(tag) && open.length > 0
          ? `${open[open.length - 1]}-${tag}`
          : tag
      if (!close && !selfClosing) open.push(scoped)
      const ours = mapping.tags?.[scoped] ?? scoped
      if (mapping.tags && mapping.tags[scoped] === undefined && /^\d+(-\d+)*$/.test(scoped))
        return { problem: `its tag ${whole} matches no element of our message` }
      out += selfClosing ? `<${ours}></${ours}>` : `<${close}${ours}>`
      continue
    }
    if (name!.includes(','))
      return {
        problem: `its value ${whole} is formatted by i18next (${name!.slice(name!.indexOf(',') + 1).trim()}); write it as ICU ({x, number}, {x, date}) by hand`,
      }
    if (!NAME.test(name!))
      return { problem: `its value ${whole} is not a plain name (ICU arguments have no paths or spaces)` }
    out += `{${mapping.arguments?.[name!] ?? name}}`
  }
  return { text: out + escapeIcuLiteral(text.slice(last), inPlural) }
}

/**
 * The plural categories i18next can pick for `locale`: it asks Intl.PluralRules too, so a form of
 * another category (English `_few`, often a placeholder such as `__NO_TRANSLATION__`) is never shown
 * and is left out of the message. All of them for a locale Intl does not know, where nothing is sure.
 */
function reachableCategories(locale: string): ReadonlySet<string> {
  try {
    if (Intl.PluralRules.supportedLocalesOf(locale).length > 0)
      return new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories)
  } catch {
    // An invalid tag: keep every form.
  }
  return new Set(ORDER)
}

function familyText(family: Family, mapping: NameMapping, categories: ReadonlySet<string>): Built {
  if (family.forms.size === 0 && !family.plain) return { problem: 'it has no text' }
  if (family.forms.size === 0) return i18nextText(family.plain!.translation, false, mapping)
  if (!family.forms.has('other'))
    return {
      problem: `its plural forms (${[...family.forms.keys()].map((c) => `_${c}`).join(', ')}) have no _other`,
    }
  const branches: string[] = []
  for (const category of ORDER) {
    const entry = family.forms.get(category)
    // `_zero` is i18next's own: picked for a count of 0 in every language.
    if (!entry || (category !== 'zero' && !categories.has(category))) continue
    const body = i18nextText(entry.translation, true, mapping)
    if ('problem' in body) return { problem: `its _${category} form: ${body.problem}` }
    branches.push(`${category === 'zero' ? '=0' : category} {${body.text}}`)
  }
  return { text: `{count, plural, ${branches.join(' ')}}` }
}

function messageOf(family: Family, mapping: NameMapping, categories: ReadonlySet<string>): Built {
  const base = familyText(family, mapping, categories)
  if (family.contexts.size === 0 || 'problem' in base) return base
  const branches: string[] = []
  for (const [context, variant] of family.contexts) {
    const body = familyText(variant, mapping, categories)
    if ('problem' in body) return { problem: `its context ${context} (${variant.key}): ${body.problem}` }
    branches.push(`${context} {${body.text}}`)
  }
  return { text: `{context, select, ${branches.join(' ')} other {${base.text}}}` }
}

// Grouping first (plural families by stem, then contexts by an existing base), then one message per
// family: a family's forms may stand anywhere in the file, and a context names its base by key.
export function convertI18next(catalog: ImportedCatalog, options: I18nextOptions = {}): ConvertedCatalog {
  const converted = emptyConversion(catalog)
  const mapping = options.mapping ?? {}
  const categories = reachableCategories(catalog.locale)
  const families = new Map<string, Family>()
  const familyOf = (key: string, line: number): Family => {
    let f = families.get(key)
    if (!f) {
      f = { key, line, forms: new Map(), contexts: new Map() }
      families.set(key, f)
    }
    return f
  }
  for (const entry of catalog.entries) {
    const key = entry.key!
    const plural = PLURAL.exec(key)
    if (plural?.[2]) {
      converted.refusals.push({
        file: catalog.file,
        line: entry.line,
        key,
        reason:
          'it is an ordinal plural form (_ordinal_...), which is not converted yet; write it as {count, selectordinal, ...} by hand',
      })
    } else if (plural) familyOf(plural[1]!, entry.line).forms.set(plural[3]!, entry)
    else familyOf(key, entry.line).plain = entry
  }
  for (const family of [...families.values()]) {
    if (family.plain && family.forms.size > 0) {
      converted.refusals.push({
        file: catalog.file,
        line: family.plain.line,
        key: family.key,
        reason: `the key has a text of its own and plural forms (_${[...family.forms.keys()].join(', _')}); one message cannot be both`,
      })
      delete family.plain
    }
    const cut = family.key.lastIndexOf('_')
    const base = cut > 0 && options.contexts !== false ? families.get(family.key.slice(0, cut)) : undefined
    if (base && base !== family && !family.key.slice(cut + 1).includes('.'))
      base.contexts.set(family.key.slice(cut + 1), family)
  }
  // i18next applies a plural suffix only when the call passes `count`, and a context only when it
  // passes `context`: `t('step_one')` and `t('title_short')` read their keys as written. So a family
  // is read both ways: its plural (or its context select, key `base` + CONTEXT_READING) and each key
  // as its own text. Migrate picks the reading by the call; the import keeps the one that matches.
  const add = (key: string, built: Built, line: number, reading: string | undefined, form = false): void => {
    const before = converted.messages.length
    if (reading !== undefined && 'text' in built && built.text === '') return
    // A form's own reading that fails is reported once, by its family's plural.
    if (form && 'problem' in built) return
    convertEntry(converted, { key, translation: 'problem' in built ? ' ' : built.text, line }, () => built)
    if (reading !== undefined && converted.messages.length > before)
      converted.messages[before]!.reading = reading
  }
  const readingOf = new Map<Family, string>()
  for (const family of families.values()) if (family.forms.size > 0) readingOf.set(family, family.key)
  for (const family of families.values()) {
    for (const variant of family.contexts.values()) {
      readingOf.set(family, family.key)
      readingOf.set(variant, family.key)
    }
  }
  for (const family of families.values()) {
    const reading = readingOf.get(family)
    // Forms without _other are no plural i18next could show for every count: only their keys count.
    if (family.forms.size === 0 || family.forms.has('other'))
      add(family.key, familyText(family, mapping, categories), family.line, reading)
    for (const [category, entry] of family.forms)
      add(
        `${family.key}_${category}`,
        i18nextText(entry.translation, false, mapping),
        entry.line,
        reading,
        true,
      )
    if (family.contexts.size > 0)
      add(`${family.key}${CONTEXT_READING}`, messageOf(family, mapping, categories), family.line, family.key)
  }
  return converted
}
