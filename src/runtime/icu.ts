/**
 * The interpreter of compiled ICU messages: small nested arrays the plugin writes at build time, so the
 * browser carries no parser. The form (JSON-able; `src/core/icu/compile.ts` makes it):
 *
 *   message   string                        a plain text: `{name}` replaced by its value (see index.ts)
 *           | Part[]                        an ICU message: its parts, concatenated
 *   Part      string                        literal text (quoting already resolved)
 *           | 0                             `#` of the innermost plural: its number, locale-formatted
 *           | [name]                        `{name}`: the value as text
 *           | [name, 1, options?]           `{name, number, ...}`: Intl.NumberFormat options (+ `scale`)
 *           | [name, 2, options?]           `{name, date|time, ...}`: Intl.DateTimeFormat options
 *           | [name, 3, branches]           `{name, select, ...}`: selector -> Part[] | string
 *           | [name, 4|5, offset, branches] `{name, plural|selectordinal, offset:N ...}`: N (for `=N`) or
 *                                           category
 *           | [name, 6, children]           `<name>children</name>`: children is a Branch; `values[name]`, a
 *                                           function, gets the formatted children as an array of pieces
 *                                           (strings joined) and returns a piece or an array of pieces;
 *                                           without a function the children stand as they are
 *           | [locale, 7, parts]            parts formatted in `locale`: a source message standing in for a
 *                                           missing translation keeps the source locale's plural rules
 *
 * A formatted message is one string when every piece is a string, else an array of its pieces
 * (adjacent strings joined, no empty string): a tag function returning a string keeps a string.
 *
 * Intl objects are made once per locale and options object (the options of a compiled message are the
 * same object on every call).
 */

export type Branch = string | Part[]
export type Part =
  | string
  | 0
  | [name: string]
  | [name: string, kind: 1 | 2, options?: Record<string, unknown>]
  | [name: string, kind: 3, branches: Record<string, Branch>]
  | [name: string, kind: 4 | 5, offset: number, branches: Record<string, Branch>]
  | [name: string, kind: 6, children: Branch]
  | [locale: string, kind: 7, parts: Branch]
export type CompiledMessage = string | Part[]
/** A formatted message: one string, or the pieces when a tag function returned something else. */
export type Formatted = string | unknown[]

type Formatter = { format(value: unknown): string; select(value: number): string }

/** @internal */
export const has: (this: unknown, key: PropertyKey) => boolean = Object.prototype.hasOwnProperty
/**
 * Per time zone and locale, its Intl objects by options object, or by kind for those without options
 * (`#`'s number format, the plural rules): reads of keys that are the same objects on every call.
 */
const made: Record<string, Record<string, Map<unknown, Formatter>>> = {}
/**
 * @internal The time zone of dates and times, spread into every Intl options object and part of the
 * cache key: empty (the environment's zone, one key) until `setTimeZone` or the server runtime gives it
 * a `timeZone` getter and a `toString` of the current zone (index.ts `_z`). An app that never sets a
 * zone pays a few bytes for it, not the code that keeps it per request.
 */
export const zoned: { timeZone?: string } = {}

function intl(kind: number, locale: string | undefined, options?: unknown): Formatter {
  // `zoned` as text is the current zone (or a constant without one): a read of a string that exists,
  // no key made per call.
  // biome-ignore lint/suspicious/noAssignInExpressions: two reads on the hot path, in the fewest bytes.
  const byKey = ((made[zoned as unknown as string] ||= {})[locale as string] ||= new Map())
  const key = options || kind
  let f = byKey.get(key)
  if (!f) {
    f = (kind > 3
      ? new Intl.PluralRules(locale, { type: kind > 4 ? 'ordinal' : 'cardinal' })
      : new ((kind > 1 ? Intl.DateTimeFormat : Intl.NumberFormat) as typeof Intl.NumberFormat)(
          locale,
          // A zone in the message's own options wins; NumberFormat ignores the key.
          { ...zoned, ...(options as object) } as object,
        )) as unknown as Formatter
    byKey.set(key, f)
  }
  return f
}

/** @internal A value by name; an absent value (an inherited name such as `constructor` too) is undefined. */
export const own = (values: object, key: string): unknown =>
  has.call(values, key) ? (values as Record<string, unknown>)[key] : undefined

/**
 * @internal A value as the text of a plain argument: null, undefined (an absent value too) and false
 * print nothing, as intl-messageformat prints null and false; anything else is `String(value)`.
 */
export function valueText(x: unknown): string {
  return x == null || x === false ? '' : String(x)
}

function pick(branches: Record<string, Branch>, key: string): Branch {
  // A `__proto__` branch written in a JS literal becomes the object's prototype, not a property: the
  // build writes that branch as an array, which no other inherited property is.
  return has.call(branches, key) || (key === '__proto__' && Array.isArray(branches[key]))
    ? branches[key]!
    : branches.other!
}

/** Formats the parts of a compiled message with `values` in `locale`. */
export function formatParts(
  parts: CompiledMessage,
  values: Record<string, unknown>,
  locale: string | undefined,
): Formatted {
  const out = pieces(parts, values, locale, [])
  return out.length > 1 || (out.length && typeof out[0] !== 'string') ? out : (out[0] as string) || ''
}

/**
 * Adds a piece to `out`, keeping adjacent strings joined and no empty string; an array (what a tag
 * function returned) is spread into its pieces.
 */
function add(out: unknown[], piece: unknown): void {
  if (Array.isArray(piece)) piece.map((q) => add(out, q))
  else if (typeof piece !== 'string') out.push(piece)
  else if (typeof out[out.length - 1] === 'string') out[out.length - 1] += piece
  else if (piece) out.push(piece)
}

/**
 * Adds the pieces of `parts` to `out` and returns it; `n` is `#`. A branch writes into the same `out`
 * (and adds '' to it), so a call makes no array or closure per branch: the hot path of every message.
 */
function pieces(
  parts: Branch,
  values: Record<string, unknown>,
  locale: string | undefined,
  out: unknown[],
  n?: number,
): unknown[] {
  for (const p of typeof parts === 'string' ? [parts] : parts) {
    if (typeof p !== 'object') add(out, p === 0 ? intl(1, locale).format(n) : p)
    else {
      const x = own(values, p[0]) as number
      const o = p[2] as { scale?: number } & Record<string, Branch>
      // A plural's number: Number() reads a bigint, which `-` refuses to mix with the offset. Its `=N`
      // branch is keyed by N, found by the value itself (no string made per call).
      // Only a plural's: a tag's value (a function) read as a number would be read as its source text.
      const m = p[1]! > 3 && p[1]! < 6 ? Number(x) : 0
      add(
        out,
        !p[1]
          ? valueText(x)
          : p[1] < 3
            ? intl(p[1], locale, o).format(
                // A bigint is scaled exactly, as intl-messageformat does.
                o?.scale ? x * ((typeof x === 'bigint' ? BigInt(o.scale) : o.scale) as number) : x,
              )
            : p[1] < 4
              ? pieces(pick(o, String(x)), values, locale, out) && ''
              : p[1] < 6
                ? pieces(
                    // biome-ignore lint/suspicious/noDoubleEquals: on purpose: a value that reads as its number is looked up as written (`=0` is not null's, `=1` is "1"'s), as intl-messageformat matches.
                    x == m && has.call(p[3], x)
                      ? p[3]![x]!
                      : pick(p[3]!, intl(p[1], locale).select(m - (p[2] as number))),
                    values,
                    locale,
                    out,
                    m - (p[2] as number),
                  ) && ''
                : typeof x === 'function' && p[1] < 7
                  ? (x as (chunks: unknown[]) => unknown)(
                      pieces(o as unknown as Branch, values, locale, [], n),
                    )
                  : pieces(o as unknown as Branch, values, p[1] > 6 ? p[0] : locale, out, n) && '',
      )
    }
  }
  return out
}
