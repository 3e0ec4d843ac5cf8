/**
 * Named formats: the `formats` option, the shape react-intl's `<IntlProvider formats>` and
 * intl-messageformat take, so that `{price, number, GBP}` means what it meant there. Each name holds
 * the `Intl` options of its kind; a message's style names one. Checked here at setup, so that a build
 * never meets options `Intl` refuses (`formats.number.GBP.style`, not a throw in the page).
 */

/** Named formats per kind: `{ number: { GBP: { style: 'currency', currency: 'GBP' } } }`. */
export interface Formats {
  number?: Record<string, Intl.NumberFormatOptions>
  date?: Record<string, Intl.DateTimeFormatOptions>
  time?: Record<string, Intl.DateTimeFormatOptions>
}

/** The kinds a format is named under, as a message's argument type spells them. */
export type FormatKind = 'number' | 'date' | 'time'

export const FORMAT_KINDS: readonly FormatKind[] = ['number', 'date', 'time']

/**
 * The styles every message may name, read as intl-messageformat (the oracle) reads them, so that a
 * compiled message formats exactly as intl-messageformat formats the same text.
 */
export const BUILT_IN_FORMATS: Readonly<
  Record<FormatKind, Readonly<Record<string, Readonly<Record<string, unknown>>>>>
> = {
  number: {
    integer: { maximumFractionDigits: 0 },
    percent: { style: 'percent' },
    currency: { style: 'currency' },
  },
  date: {
    short: { month: 'numeric', day: 'numeric', year: '2-digit' },
    medium: { month: 'short', day: 'numeric', year: 'numeric' },
    long: { month: 'long', day: 'numeric', year: 'numeric' },
    full: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
  },
  time: {
    short: { hour: 'numeric', minute: 'numeric' },
    medium: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
    long: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
    full: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
  },
}

/**
 * The `Intl` options a style name means, or undefined for a name neither built in nor in `formats`. A
 * name in both is the built-in reading with the app's options over it, as intl-messageformat merges
 * its defaults with the formats it is given (`date.short: { month: 'long' }` keeps `day` and `year`).
 */
export function styleReading(
  kind: FormatKind,
  name: string,
  formats: Formats | undefined,
): Record<string, unknown> | undefined {
  const own = Object.hasOwn(BUILT_IN_FORMATS[kind], name) ? BUILT_IN_FORMATS[kind][name] : undefined
  const theirs = formats?.[kind] && Object.hasOwn(formats[kind], name) ? formats[kind][name] : undefined
  return own || theirs ? { ...own, ...theirs } : undefined
}

/** A style name as a message can write it: ICU reads anything else as a skeleton or a syntax error. */
const STYLE_NAME = /^[^\s{}',:#<>]+$/

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Each option's value kind (`Intl` reads the others as they are, so they cannot go wrong silently). */
const OPTION_VALUES = new Set(['string', 'number', 'boolean'])

/**
 * How a bad `formats` option is reported: the option's path (`formats.number.GBP.style`) and the
 * sentence with the fix. The options layer throws its `TmsConfigError` (no cycle back to it from here).
 */
export type FormatsFailure = (path: string, message: string) => never

/**
 * Fails when `Intl` refuses `formats.<kind>.<name>` as a message will use it: merged over a built-in
 * style of the same name. The path names the refused option when Intl's text names one of the app's.
 */
function tryIntl(kind: FormatKind, name: string, own: Record<string, unknown>, fail: FormatsFailure): void {
  const path = `formats.${kind}.${name}`
  for (const [key, value] of Object.entries(own)) {
    if (!OPTION_VALUES.has(typeof value))
      fail(`${path}.${key}`, `${path}.${key} must be a string, number or boolean`)
  }
  const builtIn = styleReading(kind, name, undefined)
  const options = { ...builtIn, ...own }
  try {
    if (kind === 'number') new Intl.NumberFormat('en', options).format(1)
    else new Intl.DateTimeFormat('en', options).format(0)
  } catch (error) {
    // Intl's text often names the option it refused ("Invalid currency code : X", "Value x out of
    // range for Intl.NumberFormat options property style"), but not always, nor alike in each V8 (Node
    // 20: "Can't set option year when dateStyle is used"; 22 and 24: "Invalid option : option"). A
    // format of one option is refused for that option whatever the text says.
    const text = error instanceof Error ? error.message : String(error)
    const keys = Object.keys(own)
    const key =
      keys.find((k) => /^\w+$/.test(k) && new RegExp(`\\b${k}\\b`).test(text)) ??
      (keys.length === 1 ? keys[0] : undefined)
    const where = key ? `${path}.${key}` : path
    const merged = builtIn
      ? ` (merged over the built-in ${kind} style "${name}", ${JSON.stringify(builtIn)}, as react-intl merges it)`
      : ''
    fail(
      where,
      `${where}: Intl.${kind === 'number' ? 'NumberFormat' : 'DateTimeFormat'} refuses these options${merged}: "${text}"; fix the option`,
    )
  }
}

/**
 * The `formats` option checked: an object of kinds, each an object of names, each an object of `Intl`
 * options that `Intl` accepts; else `fail` with the path (`formats.number.GBP`) and the fix.
 */
export function resolveFormats(value: unknown, fail: FormatsFailure): Formats {
  if (value === undefined) return {}
  if (!isRecord(value)) fail('formats', 'formats must be an object such as { number: { GBP: { ... } } }')
  const out: Formats = {}
  for (const [kind, names] of Object.entries(value)) {
    if (!(FORMAT_KINDS as readonly string[]).includes(kind))
      fail(`formats.${kind}`, `formats.${kind} is not a kind of format: use number, date or time`)
    if (!isRecord(names)) fail(`formats.${kind}`, `formats.${kind} must be an object of named formats`)
    // No prototype: a format named `__proto__` is a name like any other.
    const checked: Record<string, Record<string, unknown>> = Object.create(null)
    for (const [name, options] of Object.entries(names)) {
      const path = `formats.${kind}.${name}`
      if (!STYLE_NAME.test(name))
        fail(
          path,
          `${path}: a message cannot name this format (no spaces, braces, quotes, commas, colons, # or <>)`,
        )
      if (!isRecord(options))
        fail(path, `${path} must be an object of Intl options, e.g. { style: 'currency' }`)
      tryIntl(kind as FormatKind, name, options, fail)
      checked[name] = { ...options }
    }
    out[kind as FormatKind] = checked
  }
  return out
}
