import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser'

/**
 * ICU MessageFormat (the syntax of ICU4J and intl-messageformat) read with @formatjs's parser, at
 * build time only, with rich-text tags (`<b>...</b>`) as intl-messageformat reads them: a self-closing
 * `<br/>` is text. Tag names are `[A-Za-z0-9_-]+`; the parser wants a letter first, so a numbered
 * tag (`<0>`, React's style) is read under a stand-in name and given its own name back.
 */

export type { MessageFormatElement }
export { TYPE }

export type IcuParse =
  | { ok: true; ast: MessageFormatElement[] }
  | { ok: false; problem: string; offset: number; code: string }

const PROBLEMS: Record<string, string> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: 'an argument is not closed with }',
  EMPTY_ARGUMENT: 'an argument {} is empty',
  MALFORMED_ARGUMENT: 'an argument name is malformed',
  EXPECT_ARGUMENT_TYPE: 'an argument type is missing after the comma',
  INVALID_ARGUMENT_TYPE: 'an argument type is not one of number, date, time, plural, selectordinal, select',
  EXPECT_ARGUMENT_STYLE: 'an argument style is missing after the comma',
  INVALID_NUMBER_SKELETON: 'a number skeleton is invalid',
  INVALID_DATE_TIME_SKELETON: 'a date/time skeleton is invalid',
  EXPECT_NUMBER_SKELETON: 'a number skeleton is missing after ::',
  EXPECT_DATE_TIME_SKELETON: 'a date/time skeleton is missing after ::',
  INVALID_TAG:
    "a tag is malformed (a tag is <name>...</name>, name of letters, digits, _ and -; a literal < is written '<')",
  INVALID_CLOSING_TAG: 'a closing tag is malformed',
  UNMATCHED_CLOSING_TAG: 'a closing tag does not match the open tag',
  UNCLOSED_TAG: "a tag is not closed (a literal < is written '<')",
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: 'a quote in an argument style is not closed',
  EXPECT_SELECT_ARGUMENT_OPTIONS: 'a select has no branches',
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: 'offset: has no number',
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: 'the offset is not a whole number',
  EXPECT_SELECT_ARGUMENT_SELECTOR: 'a select branch has no selector',
  EXPECT_PLURAL_ARGUMENT_SELECTOR: 'a plural branch has no selector',
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT: 'a select selector has no {message} after it',
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT: 'a plural selector has no {message} after it',
  INVALID_PLURAL_ARGUMENT_SELECTOR: 'a plural selector is not a category or =N',
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: 'a plural selector appears twice',
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: 'a select selector appears twice',
  MISSING_OTHER_CLAUSE: 'a plural or select has no `other` branch',
  TOO_DEEP: 'plural, select and tags are nested too deeply to read',
}

/**
 * Parses a message; a syntax error gives its reason and the offset inside the message. `locations`:
 * each element keeps its offsets in the message as written (the checks quote where a problem is).
 */
export function parseIcu(text: string, locale?: string, locations = false): IcuParse {
  const numbered = NUMBERED_TAG.test(text)
  const read = numbered ? text.replace(NUMBERED_TAG_ALL, `<$1${STAND_IN}$2>`) : text
  // The offset inside the message as written: each stand-in before it added its length.
  const written = (offset: number): number =>
    numbered ? offset - (read.slice(0, offset).split(STAND_IN).length - 1) * STAND_IN.length : offset
  try {
    const ast = parse(read, {
      requiresOtherClause: true,
      shouldParseSkeletons: true,
      captureLocation: locations,
      ...(locale ? { locale: localeOf(locale) } : {}),
    })
    if (numbered) renameStandIns(ast, locations ? written : undefined)
    return { ok: true, ast }
  } catch (error) {
    // The parser recurses once per level: a message nested a few thousand deep exhausts the stack.
    const code = error instanceof RangeError ? 'TOO_DEEP' : (error as Error).message
    const e = error as Error & { location?: { start: { offset: number } } }
    return {
      ok: false,
      problem: PROBLEMS[code] ?? code,
      code,
      offset: written(e.location?.start.offset ?? 0),
    }
  }
}

/** Put before a numbered tag's name: a letter (the parser's rule) and `·`, which no tag name holds. */
const STAND_IN = 'n\u00b7'
const NUMBERED_TAG = /<\/?\d[\w-]*>/
const NUMBERED_TAG_ALL = /<(\/?)(\d[\w-]*)>/g
/** A quoted numbered tag (`'<0>'`) is text: the stand-in leaves it. */
const STAND_IN_LITERAL = /<(\/?)n\u00b7/g

type Location = NonNullable<MessageFormatElement['location']>

function renameStandIns(elements: MessageFormatElement[], written?: (offset: number) => number): void {
  const moved = ({ start, end }: Location): Location => ({
    start: { ...start, offset: written!(start.offset) },
    end: { ...end, offset: written!(end.offset) },
  })
  for (const el of elements) {
    if (written && el.location) el.location = moved(el.location)
    if (el.type === TYPE.literal) el.value = el.value.replace(STAND_IN_LITERAL, '<$1')
    else if (el.type === TYPE.tag) {
      if (el.value.startsWith(STAND_IN)) el.value = el.value.slice(STAND_IN.length)
      renameStandIns(el.children, written)
    } else if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const o of Object.values(el.options)) {
        // A branch's place too: restore.ts finds bodies written as a bare number by it.
        if (written && o.location) o.location = moved(o.location)
        renameStandIns(o.value, written)
      }
  }
}

const locales = new Map<string, Intl.Locale | undefined>()

/** The parser's `Intl.Locale`, made once per locale: a pull parses every translation of a locale. */
function localeOf(locale: string): Intl.Locale | undefined {
  if (locales.has(locale)) return locales.get(locale)
  let made: Intl.Locale | undefined
  try {
    made = new Intl.Locale(locale)
  } catch {
    made = undefined
  }
  locales.set(locale, made)
  return made
}

/** Text with `{name}`/`{0}` arguments at most, no apostrophe, no other brace and no `<` (a tag). */
const SIMPLE = /^[^{}'<]*(?:\{(?:[A-Za-z_$][\w$]*|\d+)\}[^{}'<]*)*$/

/**
 * A text that holds no ICU syntax beyond `{name}` arguments (most messages): valid and plain without
 * a parse. Extraction asks this for every call, so it is one regular expression.
 */
export function cannotBeIcu(text: string): boolean {
  return SIMPLE.test(text)
}

/**
 * Whether a parsed message is plain: only literal text and `{name}` arguments, written exactly as the
 * plain reading gives them (no quoting, no spaces in braces). A plain message keeps today's reading:
 * the text with `{name}` replaced.
 */
export function isPlainAst(text: string, ast: readonly MessageFormatElement[]): boolean {
  let rebuilt = ''
  for (const el of ast) {
    if (el.type === TYPE.literal) rebuilt += el.value
    else if (el.type === TYPE.argument) rebuilt += `{${el.value}}`
    else return false
  }
  return rebuilt === text
}

const FORMATTED: ReadonlySet<TYPE> = new Set([TYPE.number, TYPE.date, TYPE.time])

/**
 * Whether a message is only formatted values (`{price, number, ::currency/EUR}`, `{d, date, long}`),
 * with nothing but spaces around them: nothing in it to translate, so each locale shows it as written,
 * formatted in that locale, as react-intl's `<FormattedNumber>` does (`tms migrate` writes such
 * messages), rather than in the source locale as a missing translation is.
 */
export function isFormatOnly(text: string): boolean {
  if (cannotBeIcu(text)) return false
  const parsed = parseIcu(text)
  if (!parsed.ok) return false
  let formatted = false
  for (const el of parsed.ast) {
    if (FORMATTED.has(el.type)) formatted = true
    else if (el.type !== TYPE.literal || el.value.trim() !== '') return false
  }
  return formatted
}
