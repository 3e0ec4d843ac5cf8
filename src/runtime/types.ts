/**
 * The types of `t`, read from the literal message text, with no code generation: `t('Hello {name}!', {})`
 * is a type error naming `name`. Type-only: nothing here exists at run time, so the runtime does not
 * grow (bench/sections/runtime-size.ts).
 *
 * The text is read as ICU MessageFormat the way ./parse.ts reads it: `{name}`, `{n, number}`,
 * `{d, date, short}`, `{t, time}`, `{n, plural, ...}`, `selectordinal`, `select`, nested branches, the
 * apostrophe rules (`''` is one apostrophe, `'{'` is a literal brace, `'#'` only in a plural branch),
 * and tags `<link>...</link>`. A text the reader cannot take as ICU (another placeholder format, a
 * typo the build will report) accepts any values, as a non-literal `string` does.
 *
 * Speed: the reader jumps from one `{`, `}` or `'` to the next with template literal inference instead
 * of walking characters, and its loops are tail-recursive (TypeScript allows 1,000 rounds of those), so
 * a message with many plurals type-checks without "excessively deep" errors.
 */

/**
 * The locales of the app, once it declares them (the runtime's own package cannot know them):
 *
 * @example
 * declare module 'unplugin-tms/runtime' {
 *   interface Register {
 *     locales: 'en' | 'fr' | 'de-CH'
 *   }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the app's module augmentation
export interface Register {}

/** A configured locale: the app's `Register['locales']`, else any string. */
export type Locale = Register extends { locales: infer L extends string } ? L : string

/** What a simple `{name}` takes: anything but null and undefined, which would print as "undefined". */
export type Printable = string | number | bigint | boolean | object
/** What `{n, number}` takes. */
export type NumberValue = number | bigint
/** What `{d, date}` and `{t, time}` take. */
export type DateValue = Date | number
/**
 * What a tag `<link>...</link>` takes: its formatted children in, anything out. Declared as a method so
 * that a function annotated with narrower chunks (`(chunks: ReactNode[]) => ...`) is accepted too.
 */
export type TagFunction = { tag(chunks: unknown[]): unknown }['tag']

type Space = ' ' | '\n' | '\t' | '\r'
type TrimStart<S extends string> = S extends `${Space}${infer R}` ? TrimStart<R> : S
type TrimEnd<S extends string> = S extends `${infer R}${Space}` ? TrimEnd<R> : S
type Trim<S extends string> = TrimEnd<TrimStart<S>>

/** ICU pattern syntax and white space: what an argument name cannot hold. */
type NotInName =
  | Space
  | '!'
  | '"'
  | '#'
  | '%'
  | '&'
  | "'"
  | '('
  | ')'
  | '*'
  | '+'
  | ','
  | '.'
  | '/'
  | ':'
  | ';'
  | '<'
  | '='
  | '>'
  | '?'
  | '@'
  | '['
  | '\\'
  | ']'
  | '^'
  | '`'
  | '{'
  | '|'
  | '}'
  | '~'
type Name<S extends string> =
  Trim<S> extends infer N extends string
    ? N extends ''
      ? never
      : N extends `${string}${NotInName}${string}`
        ? never
        : N
    : never

/** A branch key: a keyword (`one`, `male`) or an exact value (`=0`). */
type Selector<S extends string> =
  Trim<S> extends infer K extends string
    ? K extends '' | `${string}${Space | '{' | '}'}${string}`
      ? never
      : K
    : never

type TagChar =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '_'
  | '-'
type IsTagName<S extends string> = S extends `${TagChar}${infer R}`
  ? R extends ''
    ? true
    : IsTagName<R>
  : false
/** The tag names opened in a piece of literal text (`<b>`; `</b>`, `<br/>` and `a < b` are not). */
type TagsIn<S extends string, Found extends string = never> = S extends `${string}<${infer R}`
  ? R extends `${infer N}>${string}`
    ? IsTagName<N> extends true
      ? TagsIn<R, Found | N>
      : TagsIn<R, Found>
    : Found
  : Found

/**
 * The text before the first `{`, `}` or `'` of S, that character, and the text after it:
 * `[head, delimiter, rest]`, with delimiter '' when S has none.
 */
type Next<S extends string> = S extends `${infer A}{${infer B}`
  ? A extends `${string}${'}' | "'"}${string}`
    ? NextCloseOrQuote<S>
    : [A, '{', B]
  : NextCloseOrQuote<S>
type NextCloseOrQuote<S extends string> = S extends `${infer A}}${infer B}`
  ? A extends `${string}'${string}`
    ? NextQuote<S>
    : [A, '}', B]
  : NextQuote<S>
type NextQuote<S extends string> = S extends `${infer A}'${infer B}` ? [A, "'", B] : [S, '', '']

/** An open plural, selectordinal or select: its kind (`#` is quotable in the first two), name and keys. */
type Frame = [plural: boolean, name: string, keys: string]
/** The reader's result: the arguments as `[name, type]` pairs and the tag names. */
type Read = [args: [string, unknown], tags: string]
type Fail = 'fail'

/** After an opening apostrophe: what starts quoted text (`'{'`, `'<b>'`, `'#'` in a plural branch). */
type QuoteStart<Plural extends boolean> = '{' | '}' | '<' | '>' | '|' | (Plural extends true ? '#' : never)
type InPlural<K extends Frame[]> = K extends [[infer P extends boolean, string, string], ...Frame[]]
  ? P
  : false

/** The text after a quoted piece: up to the next lone apostrophe (`''` inside is one apostrophe). */
type AfterQuote<S extends string> = S extends `${string}'${infer R}`
  ? R extends `'${infer R2}`
    ? AfterQuote<R2>
    : R
  : ''

/** Literal text and its tags, until an argument, the end of a branch or an apostrophe. */
type Text<S extends string, K extends Frame[], A extends [string, unknown], G extends string> =
  Next<S> extends [infer Head extends string, infer D, infer Rest extends string]
    ? D extends '{'
      ? Argument<Rest, K, A, G | TagsIn<Head>>
      : D extends '}'
        ? K extends []
          ? Text<Rest, K, A, G | TagsIn<Head>>
          : Branches<Rest, K, A, G | TagsIn<Head>>
        : D extends "'"
          ? Rest extends `'${infer R}`
            ? Text<R, K, A, G | TagsIn<Head>>
            : Rest extends `${QuoteStart<InPlural<K>>}${string}`
              ? Text<AfterQuote<Rest>, K, A, G | TagsIn<Head>>
              : Text<Rest, K, A, G | TagsIn<Head>>
          : K extends []
            ? [A, G | TagsIn<Head>]
            : Fail
    : Fail

/** After `{`: `name}`, `name, type}`, `name, type, style}` or `name, plural|selectordinal|select, ...`. */
type Argument<
  S extends string,
  K extends Frame[],
  A extends [string, unknown],
  G extends string,
> = S extends `${infer H}}${infer Rest}`
  ? H extends `${infer N},${string}`
    ? Name<N> extends infer Arg extends string
      ? [Arg] extends [never]
        ? Fail
        : Typed<Arg, TrimStart<S extends `${string},${infer After}` ? After : never>, K, A, G>
      : Fail
    : Name<H> extends infer Arg extends string
      ? [Arg] extends [never]
        ? Fail
        : Text<Rest, K, A | [Arg, Printable], G>
      : Fail
  : Fail

type Typed<
  Arg extends string,
  S extends string,
  K extends Frame[],
  A extends [string, unknown],
  G extends string,
> = S extends `${'plural' | 'selectordinal'}${infer R}`
  ? TrimStart<R> extends `,${infer B}`
    ? Branches<B, [[true, Arg, never], ...K], A, G>
    : Fail
  : S extends `select${infer R}`
    ? TrimStart<R> extends `,${infer B}`
      ? Branches<B, [[false, Arg, never], ...K], A, G>
      : Fail
    : S extends `${infer Kind}}${infer Rest}`
      ? Kind extends `${infer T},${string}`
        ? Simple<Arg, Trim<T>, Rest, K, A, G>
        : Simple<Arg, Trim<Kind>, Rest, K, A, G>
      : Fail

type Simple<
  Arg extends string,
  T extends string,
  Rest extends string,
  K extends Frame[],
  A extends [string, unknown],
  G extends string,
> = T extends 'number'
  ? Text<Rest, K, A | [Arg, NumberValue], G>
  : T extends 'date' | 'time'
    ? Text<Rest, K, A | [Arg, DateValue], G>
    : Fail

/** Between the branches of the innermost open argument: `key {`, `offset:1`, or the closing `}`. */
type Branches<
  S extends string,
  K extends Frame[],
  A extends [string, unknown],
  G extends string,
> = K extends [
  [infer P extends boolean, infer Arg extends string, infer Keys extends string],
  ...infer Up extends Frame[],
]
  ? TrimStart<S> extends `}${infer Rest}`
    ? Text<Rest, Up, A | [Arg, P extends true ? number : Keys | (string & {})], G>
    : TrimStart<S> extends `offset:${infer R}`
      ? P extends true
        ? Branches<SkipDigits<TrimStart<R>>, K, A, G>
        : Fail
      : TrimStart<S> extends `${infer Key}{${infer Rest}`
        ? Selector<Key> extends infer Sel extends string
          ? [Sel] extends [never]
            ? Fail
            : Text<Rest, [[P, Arg, Keys | Sel], ...Up], A, G>
          : Fail
        : Fail
  : Fail

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'
type SkipDigits<S extends string> = S extends `${Digit}${infer R}` ? SkipDigits<R> : S

/** Every type a name's occurrences ask for, at once (`{n}` and `{n, plural, ...}`: a number). */
type All<U> = (U extends [infer T] ? (x: T) => void : never) extends (x: infer I) => void ? I : never

/** The types the occurrences of argument K ask for, each boxed (so that a union stays one). */
type TypesOf<A, K> = A extends [K, infer T] ? [T] : never

/** The values object a literal text asks for; `never` when it asks for none; `unknown` when not ICU. */
export type MessageValues<S extends string> = string extends S
  ? unknown
  : // Most texts hold neither an argument nor a tag: one test instead of reading them.
    S extends `${string}${'{' | '<'}${string}`
    ? ReadValues<S>
    : never

type ReadValues<S extends string> =
  Text<S, [], never, never> extends infer R
    ? R extends Read
      ? [R[0] | R[1]] extends [never]
        ? never
        : // Written out here, not as an alias, so that errors show the object, not the alias.
          { [K in R[0][0] | R[1]]: K extends R[1] ? TagFunction : All<TypesOf<R[0], K>> }
      : unknown
    : unknown

/** Values for `{name}` placeholders (object) or `{0}` placeholders (array). */
type AnyValues = Record<string, unknown> | readonly unknown[]
/** Per-call options read at build time; ignored at run time. */
interface Options {
  variant?: string
  instruction?: string
  maxLength?: number
}

/**
 * The parameters of `t` after the text: the values the text asks for (required when it asks for any),
 * then the build-time options. A tagged template's values are its expressions.
 */
export type MessageArgs<S> = S extends string
  ? MessageValues<S> extends infer V
    ? unknown extends V
      ? [values?: AnyValues | undefined, options?: Options]
      : [V] extends [never]
        ? [values?: AnyValues | undefined, options?: Options]
        : [values: V, options?: Options]
    : never
  : unknown[]

/** What the function values return that is not a string: the pieces of the result that are not text. */
type Pieces<V> = Exclude<V extends (...args: never[]) => infer R ? R : never, string>
type PiecesOf<V> = V extends readonly unknown[]
  ? Pieces<V[number]>
  : V extends object
    ? Pieces<V[keyof V]>
    : never

/**
 * What `t` returns: one string when every piece is one, else an array of the pieces (strings and what
 * the tag functions returned). Only a tag function returning something else than a string (a React
 * element, a VNode) makes the result an array.
 */
export type MessageResult<Args> = Args extends [infer V, ...unknown[]]
  ? [PiecesOf<V>] extends [never]
    ? string
    : string | (string | PiecesOf<V>)[]
  : string

/** What a descriptor takes when called: the values its text asks for, unless `msg` was given them. */
export type DescriptorArgs<V> = unknown extends V
  ? [values?: AnyValues]
  : [V] extends [never]
    ? [values?: AnyValues]
    : [values: V]

/**
 * A lazy message, made by `msg(...)`: a function that formats the message in the current locale each
 * time it is called (`red()`, `greet({ name })`), so it can be defined where no `setLocale` reaches (at
 * module level) and rendered where one does. `V` is what a call must give: the values its text asks for.
 */
export interface MessageDescriptor<V = unknown> {
  <const A extends DescriptorArgs<V>>(...values: A): MessageResult<A>
  /** The message in the current locale, with the values `msg` was given: `${red}`, `String(red)`. */
  toString(): string
}

/**
 * The parameters of `msg` after the text: all its values or none (then each call gives them), then the
 * build-time options. A tagged template's values are its expressions.
 */
export type DefinitionArgs<S> = S extends string
  ? [
      values?:
        | (MessageValues<S> extends infer V
            ? unknown extends V
              ? AnyValues
              : [V] extends [never]
                ? AnyValues
                : V
            : never)
        | undefined,
      options?: Options,
    ]
  : unknown[]

/** The values a descriptor's calls must give: none when `msg` was given them, or for a tagged template. */
export type DescriptorValues<S, A> = S extends string
  ? A extends [infer V, ...unknown[]]
    ? undefined extends V
      ? MessageValues<S>
      : never
    : MessageValues<S>
  : never
