/**
 * The conformance test's messages: one or more of every kind of case that the peers' own suites assert
 * (intl-messageformat's tests and its parser's integration cases, messageformat's MF1 fixtures, Lingui
 * core's interpolation tests), within what this package documents. Written here, not copied: each is a
 * message of our own for the kind of behaviour a peer checks; the expected output is computed at test
 * time by intl-messageformat (the oracle). Where the package deliberately differs, the case says what
 * we give and why (docs/messages-icu.md, "Where it differs from intl-messageformat").
 */

import { WHEN } from './corpus'

/** A value the runner revives: a Date, a tag function, a bigint; anything else is JSON as is. */
export type ConformanceValue =
  | string
  | number
  | boolean
  | null
  | { $date: number }
  | { $tag: 'object' | 'string' }
  | { $bigint: string }
  | { $object: string }
  | ConformanceValue[]
export type ConformanceValues = Record<string, ConformanceValue> | ConformanceValue[]

export interface ConformanceCase {
  /** The kind of behaviour, as a peer's suite names it. */
  kind: string
  text: string
  locale: string
  values: ConformanceValues[]
}

/** A case where we give something else than intl-messageformat, on purpose. */
export interface Decision extends ConformanceCase {
  /** What we give for each of `values`, in every path; none: builds give what intl-messageformat gives. */
  ours?: string[]
  /** Untransformed `t` throws this (a build reads the text with the locale; the run-time reader does not). */
  untransformedThrows?: RegExp
  why: string
}

const bigint = (n: string): { $bigint: string } => ({ $bigint: n })
const date = (ms: number): { $date: number } => ({ $date: ms })
const OBJECT = { $tag: 'object' } as const
const STRING = { $tag: 'string' } as const
const counts = (name: string, ns: number[]): ConformanceValues[] => ns.map((n) => ({ [name]: n }))

export const AGREE: ConformanceCase[] = [
  // Literal text and escapes (quoting rules of ICU: apostrophe only where needed).
  { kind: 'plain text', text: 'Nothing to see here.', locale: 'en-US', values: [{}] },
  {
    kind: 'UTF-8 text around an argument',
    text: '旅行{where}へ行く。',
    locale: 'ja-JP',
    values: [{ where: '☀' }],
  },
  { kind: 'double quotes', text: 'He said "fine"', locale: 'en-US', values: [{}] },
  { kind: 'apostrophe not before syntax', text: "We can't stop", locale: 'en-US', values: [{}] },
  { kind: 'doubled apostrophe', text: "We can''t stop {x}", locale: 'en-US', values: [{ x: 1 }] },
  { kind: 'quoted brace', text: "Braces: '{'curly'}'", locale: 'en-US', values: [{}] },
  { kind: 'quoted braces around an argument', text: "'{{'{v}'}}'", locale: 'en-US', values: [{ v: 7 }] },
  { kind: 'lone quoted open brace', text: "x '{' y {v}", locale: 'en-US', values: [{ v: 1 }] },
  { kind: 'quoted argument stays text', text: "I see '{many}' of {n}", locale: 'en-US', values: [{ n: 2 }] },
  {
    kind: 'quoted apostrophe inside quotes',
    text: "I said '{''Wow!''}' {n}",
    locale: 'en-US',
    values: [{ n: 1 }],
  },
  { kind: 'lone closing brace is text', text: 'a } b {v}', locale: 'en-US', values: [{ v: 1 }] },
  {
    kind: '@ and other symbols',
    text: 'mail {user}@example.com',
    locale: 'en-US',
    values: [{ user: 'ada' }],
  },
  { kind: 'octothorpe outside a plural', text: 'Issue #{n}', locale: 'en-US', values: [{ n: 42 }] },

  // Simple arguments and values.
  {
    kind: 'simple argument',
    text: 'Hello, {name}!',
    locale: 'en-US',
    values: [{ name: 'Ada' }, { name: '' }],
  },
  { kind: 'several arguments', text: '{a} and {b} and {a}', locale: 'en-US', values: [{ a: 1, b: 'two' }] },
  { kind: 'numeric argument names', text: 'The vars are {0} and {1}.', locale: 'en-US', values: [[5, -3]] },
  { kind: 'numbered name with a leading zero', text: 'Value {01}', locale: 'en-US', values: [{ '01': 'x' }] },
  {
    kind: 'zero is printed',
    text: 'Count: {n}',
    locale: 'en-US',
    values: [{ n: 0 }, { n: -0 }, { n: Number.NaN }],
  },
  {
    kind: 'false and null print nothing',
    text: '[{a}|{b}|{c}]',
    locale: 'en-US',
    values: [{ a: false, b: null, c: '' }],
  },
  {
    kind: 'false and null in an ICU message',
    text: '{a}{b} {n, number}',
    locale: 'en-US',
    values: [{ a: false, b: null, n: 1 }],
  },
  {
    kind: 'bigint as a simple argument',
    text: 'Big: {n}',
    locale: 'en-US',
    values: [{ n: bigint('12345678901234567890') }],
  },
  {
    kind: 'spaces inside braces',
    text: 'Hi { name } and {  n , number }',
    locale: 'en-US',
    values: [{ name: 'Bo', n: 3 }],
  },
  { kind: 'unicode argument name', text: 'Café {prénom}', locale: 'fr-FR', values: [{ prénom: 'Zoé' }] },

  // Numbers.
  { kind: 'number', text: '{n, number}', locale: 'en-US', values: counts('n', [0, 1234.5, -7.25, 1e21]) },
  { kind: 'number in another locale', text: '{n, number}', locale: 'de-DE', values: counts('n', [1234.5]) },
  {
    kind: 'number integer style',
    text: '{n, number, integer}',
    locale: 'en-US',
    values: counts('n', [2.5, 3.5, 1234.56]),
  },
  {
    kind: 'number percent style',
    text: '{n, number, percent}',
    locale: 'fr-FR',
    values: counts('n', [0.25, 1.5]),
  },
  {
    kind: 'unknown named number style',
    text: '{n, number, fancy}',
    locale: 'en-US',
    values: counts('n', [1234.5]),
  },
  {
    kind: 'bigint with number format',
    text: '{n, number} {n, number, percent}',
    locale: 'en-US',
    values: [{ n: bigint('7') }],
  },
  {
    kind: 'bigint with a scale',
    text: '{n, number, ::scale/100}',
    locale: 'en-US',
    values: [{ n: bigint('12345678901234567890') }, { n: 3 }],
  },
  {
    kind: 'skeleton currency',
    text: '{p, number, ::currency/EUR}',
    locale: 'de-DE',
    values: counts('p', [1234.5]),
  },
  {
    kind: 'skeleton currency width',
    text: '{p, number, ::currency/USD unit-width-full-name}',
    locale: 'en-US',
    values: counts('p', [1, 2.5]),
  },
  {
    kind: 'skeleton currency narrow',
    text: '{p, number, ::currency/CAD unit-width-narrow}',
    locale: 'en-US',
    values: counts('p', [3]),
  },
  {
    kind: 'skeleton currency code',
    text: '{p, number, ::currency/JPY unit-width-short}',
    locale: 'en-US',
    values: counts('p', [300]),
  },
  {
    kind: 'skeleton accounting',
    text: '{p, number, ::currency/USD sign-accounting}',
    locale: 'en-US',
    values: counts('p', [-5]),
  },
  {
    kind: 'skeleton percent and scale',
    text: '{n, number, ::percent scale/100} {n, number, ::%x100}',
    locale: 'en-US',
    values: counts('n', [0.25]),
  },
  {
    kind: 'skeleton fraction digits',
    text: '{n, number, ::.00} {n, number, ::.##} {n, number, ::.0#} {n, number, ::.0*}',
    locale: 'en-US',
    values: counts('n', [3.14151, 2]),
  },
  {
    kind: 'skeleton fraction with significant',
    text: '{n, number, ::.00/@##} {n, number, ::.#/@@@}',
    locale: 'en-US',
    values: counts('n', [3.14151, 1234.5]),
  },
  {
    kind: 'skeleton fraction strip if integer',
    text: '{n, number, ::.00/w}',
    locale: 'en-US',
    values: counts('n', [3, 3.5]),
  },
  {
    kind: 'skeleton significant digits',
    text: '{n, number, ::@@#} {n, number, ::@@@} {n, number, ::@+}',
    locale: 'en-US',
    values: counts('n', [3.14151, 12345]),
  },
  {
    kind: 'skeleton precision integer',
    text: '{n, number, ::precision-integer} {n, number, ::.}',
    locale: 'en-US',
    values: counts('n', [2.5, 3.7]),
  },
  {
    kind: 'skeleton signs',
    text: '{n, number, ::sign-always}|{n, number, ::sign-except-zero}|{n, number, ::sign-never}|{n, number, ::+!}|{n, number, ::+?}',
    locale: 'en-US',
    values: counts('n', [0, 5, -5]),
  },
  {
    kind: 'skeleton grouping off',
    text: '{n, number, ::group-off} {n, number, ::,_}',
    locale: 'en-US',
    values: counts('n', [1234567]),
  },
  {
    kind: 'skeleton compact',
    text: '{n, number, ::compact-short} {n, number, ::compact-long} {n, number, ::K} {n, number, ::KK}',
    locale: 'en-US',
    values: counts('n', [1234, 1500000]),
  },
  {
    kind: 'skeleton compact in another locale',
    text: '{n, number, ::compact-long}',
    locale: 'fr-FR',
    values: counts('n', [1234]),
  },
  {
    kind: 'skeleton unit',
    text: '{n, number, ::unit/kilometer-per-hour} {n, number, ::unit/megabyte .0}',
    locale: 'en-US',
    values: counts('n', [50, 1.25]),
  },
  {
    kind: 'skeleton measure-unit and unit width',
    text: '{n, number, ::measure-unit/length-meter unit-width-full-name} {n, number, ::unit/liter unit-width-narrow}',
    locale: 'en-US',
    values: counts('n', [1, 3]),
  },
  {
    kind: 'skeleton scientific and engineering',
    text: '{n, number, ::scientific} {n, number, ::engineering} {n, number, ::scientific/sign-always}',
    locale: 'en-US',
    values: counts('n', [31415, 0.00012]),
  },
  {
    kind: 'skeleton concise scientific',
    text: '{n, number, ::E0} {n, number, ::EE+!00}',
    locale: 'en-US',
    values: counts('n', [31415]),
  },
  {
    kind: 'skeleton integer width',
    text: '{n, number, ::integer-width/*000} {n, number, ::000}',
    locale: 'en-US',
    values: counts('n', [7, 12345]),
  },
  {
    kind: 'skeleton rounding mode',
    text: '{n, number, ::.0 rounding-mode-floor} {n, number, ::.0 rounding-mode-ceiling} {n, number, ::. rounding-mode-half-even}',
    locale: 'en-US',
    values: counts('n', [2.25, 2.5, -2.25]),
  },
  {
    kind: 'skeleton notation-simple',
    text: '{n, number, ::compact-short notation-simple}',
    locale: 'en-US',
    values: counts('n', [1234]),
  },
  {
    kind: 'skeleton with Pattern_White_Space',
    text: '{n, number, ::percent\u200e.0}',
    locale: 'en-US',
    values: counts('n', [0.125]),
  },

  // Dates and times (TZ=UTC in the runner).
  { kind: 'date default', text: '{d, date}', locale: 'en-US', values: [{ d: date(WHEN) }, { d: WHEN }] },
  {
    kind: 'date styles',
    text: '{d, date, short}|{d, date, medium}|{d, date, long}|{d, date, full}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date styles in another locale',
    text: '{d, date, short}|{d, date, long}',
    locale: 'fr-FR',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'time styles',
    text: '{d, time}|{d, time, short}|{d, time, medium}|{d, time, long}|{d, time, full}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  { kind: 'time in another locale', text: '{d, time, short}', locale: 'de-DE', values: [{ d: date(WHEN) }] },
  {
    kind: 'unknown named date style',
    text: '{d, date, fancy} {d, time, fancy}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date skeleton',
    text: '{d, date, ::yyyyMMMd} {d, date, ::EEEE} {d, date, ::yMd}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date skeleton widths',
    text: '{d, date, ::MMMMd} {d, date, ::MMMMMd} {d, date, ::yy} {d, date, ::dd}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date skeleton era and weekday forms',
    text: '{d, date, ::Gy} {d, date, ::GGGGy} {d, date, ::EEEEE} {d, date, ::cccc} {d, date, ::eeee}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'time skeleton hour cycles',
    text: '{d, time, ::hm} {d, time, ::Hm} {d, time, ::hhmmss a} {d, time, ::Kms} {d, time, ::km}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'time skeleton zone',
    text: '{d, time, ::Hmz} {d, time, ::Hmzzzz}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date skeleton letter the parser skips',
    text: '{d, time, ::HmsS}',
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },
  {
    kind: 'date skeleton with quoted text',
    text: "{d, date, ::yyyy'T'MM}",
    locale: 'en-US',
    values: [{ d: date(WHEN) }],
  },

  // Plurals.
  {
    kind: 'plural other only',
    text: '{n, plural, other {# things}}',
    locale: 'en-US',
    values: counts('n', [0, 1, 5]),
  },
  {
    kind: 'plural one/other',
    text: '{n, plural, one {# item} other {# items}}',
    locale: 'en-US',
    values: counts('n', [0, 1, 2, 1.5, -1]),
  },
  {
    kind: 'plural exact match first',
    text: '{n, plural, =0 {none} =1 {just one} one {# one} other {# more}}',
    locale: 'en-US',
    values: counts('n', [0, 1, 2]),
  },
  {
    kind: 'plural negative exact match',
    text: '{n, plural, =-1 {minus one} other {#}}',
    locale: 'en-US',
    values: counts('n', [-1, 1]),
  },
  {
    kind: 'plural Arabic categories',
    text: '{n, plural, zero {zero} one {one} two {two} few {few} many {many} other {other #}}',
    locale: 'ar-EG',
    values: counts('n', [0, 1, 2, 3, 11, 100, 1.5]),
  },
  {
    kind: 'plural Welsh categories',
    text: '{n, plural, zero {a} one {b} two {c} few {d} many {e} other {f} =42 {forty-two}}',
    locale: 'cy',
    values: counts('n', [0, 1, 2, 3, 6, 15, 42]),
  },
  {
    kind: 'plural Russian categories',
    text: '{n, plural, one {# книга} few {# книги} many {# книг} other {# книги}}',
    locale: 'ru-RU',
    values: counts('n', [1, 2, 5, 21, 22, 25, 1.5]),
  },
  {
    kind: 'plural Portuguese (Portugal) rules',
    text: '{n, plural, one {# ficheiro} other {# ficheiros}}',
    locale: 'pt-PT',
    values: counts('n', [0, 1, 2]),
  },
  {
    kind: 'plural string value',
    text: '{n, plural, one {a} other {b}}',
    locale: 'en-US',
    values: [{ n: '1' }, { n: '1.0' }, { n: '2' }],
  },
  {
    kind: 'plural with offset',
    text: '{n, plural, offset:1 =0 {nobody} =1 {{who}} one {{who} and # other} other {{who} and # others}}',
    locale: 'en-US',
    values: counts('n', [0, 1, 2, 3]).map((v) => ({ ...v, who: 'Ada' })),
  },
  {
    kind: 'plural with a negative offset',
    text: '{n, plural, offset:-1 one {# one} other {# other}}',
    locale: 'en-US',
    values: counts('n', [0, 1]),
  },
  {
    kind: 'plural offset with other only',
    text: '{n, plural, offset:1 other {The var is #.}}',
    locale: 'en-US',
    values: counts('n', [5]),
  },
  {
    kind: 'plural # formatted in the locale',
    text: '{n, plural, other {# Dateien}}',
    locale: 'de-DE',
    values: counts('n', [1234.5]),
  },
  {
    kind: 'plural # with Arabic-Indic digits',
    text: '{n, plural, other {# ملف}}',
    locale: 'ar-EG',
    values: counts('n', [12]),
  },
  {
    kind: 'plural quoted #',
    text: "{n, plural, other {# is a '#'}}",
    locale: 'en-US',
    values: counts('n', [3]),
  },
  {
    kind: 'plural # in a nested select stays text',
    text: '{n, plural, other {{g, select, other {The var is #.}}}}',
    locale: 'en-US',
    values: [{ n: 5, g: 'x' }],
  },
  {
    kind: 'plural # in a nested plural is the inner number',
    text: '{a, plural, other {# {b, plural, other {# inner}}}}',
    locale: 'en-US',
    values: [{ a: 1, b: 2 }],
  },
  {
    kind: 'plural with bigint',
    text: '{count, plural, =0 {No items} one {One item} other {# items}}',
    locale: 'en-US',
    values: [{ count: bigint('0') }, { count: bigint('1') }, { count: bigint('12345678901234567') }],
  },
  {
    kind: 'plural offset with bigint',
    text: '{n, plural, offset:1 =1 {one} one {# other} other {# others}}',
    locale: 'en-US',
    values: [{ n: bigint('1') }, { n: bigint('2') }, { n: bigint('5') }],
  },
  {
    kind: 'plural null value',
    text: '{n, plural, =0 {zero} other {#}}',
    locale: 'en-US',
    values: [{ n: null }],
  },
  {
    kind: 'plural prototype-named category',
    text: '{n, plural, one {one} other {other}}',
    locale: 'en-US',
    values: [{ n: 'constructor' }],
  },
  {
    kind: 'plural without spaces',
    text: '{n,plural,one{#}other{# x}}',
    locale: 'en-US',
    values: counts('n', [1, 2]),
  },

  // Selectordinal.
  {
    kind: 'selectordinal English',
    text: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
    locale: 'en-US',
    values: counts('n', [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101]),
  },
  {
    kind: 'selectordinal Welsh',
    text: '{n, selectordinal, zero {z-0,7,8,9} one {o-1} two {t-2} few {f-3,4} many {m-5,6} other {x-+}}',
    locale: 'cy',
    values: counts('n', [0, 1, 2, 3, 5, 10]),
  },
  {
    kind: 'selectordinal with bigint',
    text: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
    locale: 'en-US',
    values: [{ n: bigint('22') }],
  },
  {
    kind: 'selectordinal with offset and exact',
    text: '{n, selectordinal, offset:1 =1 {first} one {#st} other {#th}}',
    locale: 'en-US',
    values: counts('n', [1, 2, 3]),
  },

  // Select.
  {
    kind: 'select',
    text: '{g, select, female {She} male {He} other {They}} left',
    locale: 'en-US',
    values: [{ g: 'female' }, { g: 'male' }, { g: 'x' }],
  },
  {
    kind: 'select on a number and a boolean',
    text: '{v, select, 1 {one} true {yes} null {null} other {else}}',
    locale: 'en-US',
    values: [{ v: 1 }, { v: true }, { v: null }, { v: 2 }],
  },
  {
    kind: 'select prototype names',
    text: '{k, select, constructor {c} __proto__ {p} toString {s} hasOwnProperty {h} other {o}}',
    locale: 'en-US',
    values: [
      { k: 'constructor' },
      { k: '__proto__' },
      { k: 'toString' },
      { k: 'hasOwnProperty' },
      { k: 'valueOf' },
    ],
  },
  {
    kind: 'select __proto__ with nested parts',
    text: '{k, select, __proto__ {p {n}} other {o}}',
    locale: 'en-US',
    values: [
      { k: '__proto__', n: 1 },
      { k: 'x', n: 1 },
    ],
  },
  {
    kind: 'select prototype name falls to other',
    text: '{k, select, a {A} other {O}}',
    locale: 'en-US',
    values: [{ k: 'constructor' }, { k: '__proto__' }],
  },
  {
    kind: 'select empty string value',
    text: '{k, select, other {o}}|{v}',
    locale: 'en-US',
    values: [{ k: '', v: '' }],
  },
  {
    kind: 'select empty branch',
    text: '[{k, select, a {} other {x}}]',
    locale: 'en-US',
    values: [{ k: 'a' }, { k: 'b' }],
  },

  // Nesting.
  {
    kind: 'select in plural in select',
    text: '{g, select, female {{n, plural, one {She has # cat} other {She has # cats}}} other {{n, plural, one {They have # cat} other {They have # cats}}}}',
    locale: 'en-US',
    values: [
      { g: 'female', n: 1 },
      { g: 'x', n: 3 },
    ],
  },
  {
    kind: 'plural in select with arguments',
    text: '{host} {g, select, female {{n, plural, offset:1 =0 {does not give a party.} =1 {invites {guest} to her party.} other {invites {guest} and # other people to her party.}}} other {{n, plural, offset:1 =0 {does not give a party.} other {invites {guest} and # others.}}}}',
    locale: 'en-US',
    values: [
      { host: 'Ana', g: 'female', n: 0, guest: 'Bo' },
      { host: 'Ana', g: 'female', n: 1, guest: 'Bo' },
      { host: 'Ana', g: 'female', n: 3, guest: 'Bo' },
      { host: 'Cy', g: 'x', n: 2, guest: 'Di' },
    ],
  },
  {
    kind: 'changing locale, same message',
    text: '{n, plural, one {# file} other {# files}} in {folder}',
    locale: 'ru-RU',
    values: [
      { n: 1, folder: 'Docs' },
      { n: 3, folder: 'Docs' },
    ],
  },
  {
    kind: 'deep nesting',
    text: '{a, select, x {{b, select, y {{c, plural, one {{d, select, z {deep #} other {d}}} other {c #}}} other {b}}} other {a}}',
    locale: 'en-US',
    values: [
      { a: 'x', b: 'y', c: 1, d: 'z' },
      { a: 'x', b: 'y', c: 2, d: 'z' },
    ],
  },

  // Rich text.
  {
    kind: 'tag with a function',
    text: 'Read <b>this</b> now',
    locale: 'en-US',
    values: [{ b: OBJECT }, { b: STRING }],
  },
  {
    kind: 'nested tags',
    text: '<a>a <b>b {n}</b></a>!',
    locale: 'en-US',
    values: [
      { a: OBJECT, b: OBJECT, n: 1 },
      { a: STRING, b: STRING, n: 1 },
    ],
  },
  {
    kind: 'tag in plural with #',
    text: '{n, plural, one {<b>#</b> file} other {<b>#</b> files}}',
    locale: 'en-US',
    values: [
      { n: 1, b: STRING },
      { n: 4, b: OBJECT },
    ],
  },
  {
    kind: 'tag in select with an argument',
    text: '{g, select, f {<i>{name}</i> (she)} other {<i>{name}</i>}}',
    locale: 'en-US',
    values: [{ g: 'f', name: 'Ada', i: STRING }],
  },
  {
    kind: 'tag names with dash and underscore',
    text: '<my-tag>x</my-tag> <my_tag>y</my_tag>',
    locale: 'en-US',
    values: [{ 'my-tag': STRING, my_tag: STRING }],
  },
  { kind: 'self-closing tag is text', text: 'a<br/>b {x}', locale: 'en-US', values: [{ x: 1 }] },
  { kind: 'quoted tag is text', text: "'<b>'not a tag'</b>' {x}", locale: 'en-US', values: [{ x: 1 }] },
  {
    kind: 'text with > and entities',
    text: 'a > b &amp; <b>{x}</b>',
    locale: 'en-US',
    values: [{ x: 1, b: STRING }],
  },
  { kind: 'tag with argument only', text: '<b>{x}</b>', locale: 'en-US', values: [{ x: 'y', b: STRING }] },
  {
    kind: 'plural =N matched as the value is written',
    text: '{n, plural, =0 {zero} =1 {exactly one} =01 {oh-one} =-1 {minus one} one {category one} other {# other}}',
    locale: 'en-US',
    values: [0, 1, -1, 2, 1.5, null, false, '', '0', '1', '01', ' 1', 'one'].map((n) => ({ n })),
  },
  {
    kind: 'plural =N with a bigint',
    text: '{n, plural, =0 {zero} =5 {five} other {# other}}',
    locale: 'en-US',
    values: [{ n: bigint('0') }, { n: bigint('5') }, { n: bigint('7') }],
  },
  // Kinds that Lingui core's own tests assert differently from intl-messageformat; we agree with the oracle.
  {
    kind: 'a value holding escape-sequence text prints as written',
    text: 'Hey {name}!',
    locale: 'en-US',
    values: [{ name: 'Joe\\xaa \\u0020' }],
  },
  {
    kind: 'a # in a value inside a tag inside a plural stays',
    text: '{value, plural, one {One in <b>{title}</b>} other {# in <b>{title}</b>}}',
    locale: 'en-US',
    values: [
      { value: 1, title: 'Title #1', b: STRING },
      { value: 2, title: 'Title #1', b: STRING },
    ],
  },
]

/** Texts the peers reject: the build refuses them at extraction, untransformed `t` throws. */
export const REJECTED: { kind: string; text: string }[] = [
  { kind: 'argument not closed', text: 'Hi {name' },
  { kind: 'empty argument', text: 'Hi {}' },
  { kind: 'argument name with a dash', text: '{a-b}' },
  { kind: 'argument name with a dot', text: '{a.b}' },
  { kind: 'argument name with a space', text: '{first name}' },
  { kind: 'argument name after a no-break space', text: '{a\u00a0}' },
  { kind: 'argument name with $', text: '{$x}' },
  { kind: 'missing argument type', text: '{n, }' },
  { kind: 'unknown argument type', text: '{n, bogus}' },
  { kind: 'empty number style', text: '{n, number, }' },
  { kind: 'empty number skeleton', text: '{n, number, ::}' },
  { kind: 'number skeleton with an empty option', text: '{n, number, ::currency/}' },
  { kind: 'empty date skeleton', text: '{d, date, ::}' },
  { kind: 'year pattern r', text: '{d, date, ::rrrr}' },
  { kind: 'year pattern Y', text: '{d, date, ::YYYY}' },
  { kind: 'quarter pattern', text: '{d, date, ::QQQ}' },
  { kind: 'week pattern', text: '{d, date, ::w}' },
  { kind: 'day of year pattern', text: '{d, date, ::D}' },
  { kind: 'period pattern b', text: '{d, time, ::hb}' },
  { kind: 'short weekday e', text: '{d, date, ::e}' },
  { kind: 'time zone pattern Z', text: '{d, time, ::HmZ}' },
  { kind: 'plural without other', text: '{n, plural, one {x}}' },
  { kind: 'select without other', text: '{g, select, a {x}}' },
  { kind: 'selectordinal without other', text: '{n, selectordinal, one {x}}' },
  { kind: 'select without branches', text: '{g, select, }' },
  { kind: 'duplicate plural selector', text: '{n, plural, one {a} one {b} other {c}}' },
  { kind: 'duplicate select selector', text: '{g, select, a {a} a {b} other {c}}' },
  { kind: 'plural selector without a message', text: '{n, plural, one other {c}}' },
  { kind: 'fractional exact selector', text: '{n, plural, =1.5 {x} other {y}}' },
  { kind: 'offset without a number', text: '{n, plural, offset: other {x}}' },
  { kind: 'fractional offset', text: '{n, plural, offset:1.5 other {x}}' },
  { kind: 'unclosed nested message', text: '{n, plural, other {x}' },
  { kind: 'unclosed tag', text: 'Press <b>here' },
  { kind: 'unmatched closing tag', text: '<a>x</b>' },
  { kind: 'closing tag alone', text: 'x </b>' },
  { kind: 'tag lookalike', text: 'Press <Enter> now' },
  { kind: 'malformed closing tag', text: '<b>x</b' },
  { kind: 'unclosed quote in a style', text: "{n, number, ::'currency/EUR}" },
]

/** Where we give something else than intl-messageformat, on purpose (docs/messages-icu.md). */
export const DECISIONS: Decision[] = [
  {
    kind: 'a bigint with a fractional scale',
    text: 'Value: {value, number, ::scale/1.5}',
    locale: 'en-US',
    values: [{ value: bigint('10') }],
    ours: ['THREW The number 1.5 cannot be converted to a BigInt because it is not an integer'],
    why: "both throw (a bigint is scaled exactly, and 1.5 is no whole number): intl-messageformat's own TypeError, ours the RangeError of BigInt(1.5); the value is the app's, a test of its own shows it",
  },
  {
    kind: 'an absent value',
    text: 'Hello {name}, {a}{b}{c}',
    locale: 'en-US',
    values: [{ a: false, b: null }],
    ours: ['Hello , '],
    why: 'intl-messageformat throws MissingValueError; a page never throws for a message, the types require every value, and an absent value prints what undefined prints: nothing',
  },
  {
    kind: 'an absent value in an ICU message',
    text: '{n, plural, one {# item} other {# items}} for {who}',
    locale: 'en-US',
    values: [{ n: 1 }],
    ours: ['1 item for '],
    why: 'as above: absent is undefined',
  },
  {
    kind: 'a tag without a function',
    text: 'Read <b>this</b> now',
    locale: 'en-US',
    values: [{}],
    ours: ['Read this now'],
    why: 'intl-messageformat throws; the children stand as text (docs, Rich text), so a translation adding emphasis never breaks a page',
  },
  {
    kind: 'an object, a boolean true or an array as a simple argument',
    text: '{a} {b} {c}',
    locale: 'en-US',
    values: [{ a: { $object: 'Ada' }, b: true, c: [1, 2] }],
    ours: ['Ada true 1,2'],
    why: 'intl-messageformat keeps such a value as a part of an array; values are inserted as text (String(value)), so t stays a string unless a tag function says otherwise',
  },
  {
    kind: 'numbered tags',
    text: 'Click <0>here</0> or <1>there</1>',
    locale: 'en-US',
    values: [{ 0: STRING, 1: STRING }],
    ours: ['Click <0>here</0> or <1>there</1>'],
    why: "intl-messageformat's parser wants a letter first in a tag name; numbered tags (React's style) are part of this package's rich text",
  },
  {
    kind: 'a message whose only piece is an object',
    text: '<b>{x}</b>',
    locale: 'en-US',
    values: [{ x: 'y', b: OBJECT }],
    ours: ['JSON [{"b":["y"]}]'],
    why: 'intl-messageformat gives the object itself; a formatted message is a string or an array of pieces, never a lone object, so its type stays string | array',
  },
  {
    kind: 'j, J and C date skeletons untransformed',
    text: '{d, time, ::jjmm}',
    locale: 'en-US',
    values: [{ d: { $date: WHEN } }],
    untransformedThrows: /the date skeleton field jj is not supported by t\(\) untransformed/,
    why: "the build reads j with the locale's hour cycle, as intl-messageformat does; the run-time reader has no hour-cycle data and says so",
  },
]
