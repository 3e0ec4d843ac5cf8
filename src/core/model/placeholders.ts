/**
 * Placeholder formats of the service's create-strings API, one regular expression each.
 *
 * The service recognises placeholders in `stringText` according to `placeholderFormat` (or the regex
 * of `placeholderFormatCustom`) and stores `parsedStringText` with `{0}`, `{1}`, ... in their place, in
 * order of appearance. The emulator and the plugin both use this module, so both agree on what a
 * placeholder is. `%%` is an escaped percent sign in the printf-like formats, never a placeholder.
 */

export type PlaceholderFormat = 'none' | 'c' | 'ios' | 'python' | 'java' | 'yaml' | 'qt' | 'resx'

export const PLACEHOLDER_FORMATS: readonly PlaceholderFormat[] = [
  'none',
  'c',
  'ios',
  'python',
  'java',
  'yaml',
  'qt',
  'resx',
]

/** What the service is told about placeholders: a named format or a custom regular expression. */
export interface PlaceholderSpec {
  format?: PlaceholderFormat | null
  /** Regular expression source (the spec says "Java-style"; the common subset is read as JS). */
  custom?: string | null
}

const PRINTF_FLAGS = String.raw`(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?`

/**
 * One source per format. A leading `%%` alternative is the escaped percent sign: it is matched so the
 * scanner steps over it, and {@link scanPlaceholders} never reports it as a placeholder.
 */
export const PLACEHOLDER_PATTERN_SOURCES: Readonly<Record<PlaceholderFormat, string | null>> = {
  none: null,
  // printf: %s %d %1$s %.2f %-5d %x ...
  c: `%%|%${PRINTF_FLAGS}[diouxXeEfFgGaAcspn]`,
  // c plus Objective-C objects: %@ %1$@
  ios: `%%|%${PRINTF_FLAGS}[diouxXeEfFgGaAcspn@]`,
  // %(name)s and str.format fields {name} {0} {} {name!r:>10}
  python: String.raw`%%|%\([^()]+\)[-+ 0#]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{(?:[A-Za-z_]\w*|\d+)?(?:![rsa])?(?::[^{}]*)?\}`,
  // MessageFormat: {0} {1,number} {2,date,short}
  java: String.raw`\{\d+(?:\s*,\s*[A-Za-z]+(?:\s*,[^{}]*)?)?\}`,
  // Rails-style: %{name}
  yaml: String.raw`%%|%\{[A-Za-z_]\w*\}`,
  // Qt: %1 .. %99, %L1
  qt: String.raw`%%|%L?[1-9]\d?`,
  // .NET composite format: {0} {0:N2} {1,-10}
  resx: String.raw`\{\d+(?:\s*,\s*-?\d+)?(?::[^{}]*)?\}`,
}

/**
 * The placeholders an application writes in its messages: `{name}` or `{0}`, and each open and close
 * of a rich-text tag (`<link>`, `</link>`, `<0>`), which the translator keeps as they are. This is the
 * default `placeholderFormatCustom` the plugin sends. A self-closing `<br/>` is text, as in ICU.
 */
export const APP_PLACEHOLDER_SOURCE: string = String.raw`\{[A-Za-z_$][\w$]*\}|\{\d+\}|<\/?[A-Za-z0-9_-]+>`

/**
 * The character every placeholder of the spec starts with (`%` for the printf-like formats, `{` for
 * java and resx), null when the spec knows no placeholders, undefined when there is no single such
 * character (python, a custom regex, the app's own `{name}` and `<tag>`). A text without it holds no placeholder: a test of one
 * character instead of running the regex, for the thousands of texts an extraction or a pull checks.
 */
export function placeholderTrigger(spec: PlaceholderSpec): string | null | undefined {
  // The app's syntax has two (`{name}`, `<tag>`): no single character tells.
  if (spec.custom != null && spec.custom !== '') return undefined
  switch (spec.format ?? 'none') {
    case 'none':
      return null
    case 'c':
    case 'ios':
    case 'yaml':
    case 'qt':
      return '%'
    case 'java':
    case 'resx':
      return '{'
    default:
      return undefined
  }
}

/** A describable problem with a placeholder spec (an invalid custom regex, an unknown format). */
export class PlaceholderSpecError extends Error {
  readonly field: 'placeholderFormat' | 'placeholderFormatCustom'
  constructor(field: 'placeholderFormat' | 'placeholderFormatCustom', message: string) {
    super(message)
    this.name = 'PlaceholderSpecError'
    this.field = field
  }
}

/**
 * Compiled regexes kept at most. A process that sees many distinct custom regexes (an emulator
 * serving many callers) would otherwise keep every one of them: +467 MB after 1,500.
 */
export const PLACEHOLDER_CACHE_LIMIT = 64

/** Least recently used first (a Map keeps insertion order; a hit moves its key to the end). */
const compiled = new Map<string, RegExp | null>()
let newest: string | undefined

/** How many compiled regexes are kept now (for tests of the bound). */
export function placeholderCacheSize(): number {
  return compiled.size
}

function remember(key: string, re: RegExp | null): void {
  compiled.set(key, re)
  newest = key
  if (compiled.size > PLACEHOLDER_CACHE_LIMIT) compiled.delete(compiled.keys().next().value!)
}

/**
 * The global regex for a spec, or null when the spec recognises no placeholders. A custom regex wins
 * over a named format, as on the service. Throws {@link PlaceholderSpecError} for an unknown format
 * or a custom regex that does not compile or that matches the empty string.
 */
export function placeholderRegex(spec: PlaceholderSpec): RegExp | null {
  const key =
    spec.custom != null && spec.custom !== '' ? `custom:${spec.custom}` : `format:${spec.format ?? 'none'}`
  // The same spec many times in a row (every text of an extraction) costs one lookup, no reordering.
  if (key === newest) return compiled.get(key)!
  const hit = compiled.get(key)
  if (hit !== undefined || compiled.has(key)) {
    compiled.delete(key)
    remember(key, hit ?? null)
    return hit ?? null
  }
  let source: string | null
  if (spec.custom != null && spec.custom !== '') {
    source = spec.custom
    let re: RegExp
    try {
      re = new RegExp(source, 'gu')
    } catch (error) {
      throw new PlaceholderSpecError(
        'placeholderFormatCustom',
        `placeholderFormatCustom is not a valid regular expression: ${(error as Error).message}`,
      )
    }
    if (re.test('')) {
      throw new PlaceholderSpecError(
        'placeholderFormatCustom',
        'placeholderFormatCustom must not match the empty string',
      )
    }
  } else {
    const format = spec.format ?? 'none'
    if (!Object.hasOwn(PLACEHOLDER_PATTERN_SOURCES, format)) {
      throw new PlaceholderSpecError(
        'placeholderFormat',
        `placeholderFormat must be one of ${PLACEHOLDER_FORMATS.join(', ')}; got ${JSON.stringify(format)}`,
      )
    }
    source = PLACEHOLDER_PATTERN_SOURCES[format as PlaceholderFormat]
  }
  const re = source == null ? null : new RegExp(source, 'gu')
  remember(key, re)
  return re
}

/** One placeholder found in a text: its original spelling and where it stands. */
export interface PlaceholderMatch {
  text: string
  start: number
  end: number
}

/** Every placeholder of `text` under `spec`, in order; escaped `%%` is skipped. */
export function scanPlaceholders(text: string, spec: PlaceholderSpec): PlaceholderMatch[] {
  const re = placeholderRegex(spec)
  if (!re) return []
  const found: PlaceholderMatch[] = []
  re.lastIndex = 0
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++
      continue
    }
    if (m[0] === '%%') continue
    found.push({ text: m[0], start: m.index, end: m.index + m[0].length })
  }
  return found
}

/** A text with its placeholders replaced by `{0}`, `{1}`, ... and the list of what they replaced. */
export interface ParsedText {
  parsed: string
  placeholders: string[]
}

/** The service's `parsedStringText` for `text`, and the original placeholders in order. */
export function parsePlaceholders(text: string, spec: PlaceholderSpec): ParsedText {
  return parsedFrom(text, scanPlaceholders(text, spec))
}

/** The parsed text of `text` whose placeholders are `matches` (in order): each one becomes `{i}`. */
export function parsedFrom(text: string, matches: readonly PlaceholderMatch[]): ParsedText {
  if (matches.length === 0) return { parsed: text, placeholders: [] }
  let parsed = ''
  let last = 0
  matches.forEach((m, i) => {
    parsed += `${text.slice(last, m.start)}{${i}}`
    last = m.end
  })
  return { parsed: parsed + text.slice(last), placeholders: matches.map((m) => m.text) }
}

const INDEXED = /\{(\d+)\}/g

/**
 * Puts the original placeholders back into a parsed text (`Bonjour {0} !` -> `Bonjour {name} !`).
 * An index with no original placeholder is left as it is.
 */
export function restorePlaceholders(parsed: string, placeholders: readonly string[]): string {
  if (placeholders.length === 0) return parsed
  return parsed.replace(INDEXED, (whole, index: string) => {
    const value = placeholders[Number(index)]
    return value === undefined ? whole : value
  })
}
