/**
 * The differential test's messages: every ICU construct, each with a translation per locale written
 * for that locale's plural categories, and the values to format it with.
 */

export const SOURCE_LOCALE = 'en-US'
export const TARGETS: string[] = ['fr-FR', 'de-DE', 'pl-PL', 'ru-RU', 'ar-EG', 'ja-JP']
export const LOCALES: string[] = [SOURCE_LOCALE, ...TARGETS]

export const COUNTS: number[] = [0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5]
/** 2025-01-15 14:30:45 UTC; the runs use TZ=UTC. */
export const WHEN: number = Date.UTC(2025, 0, 15, 14, 30, 45)

/** A value the runner turns into a Date (JSON carries numbers). */
export interface DateValue {
  $date: number
}
/** A tag function the runner makes: `object` returns `{ [tag]: chunks }`, `string` returns `<tag>chunks</tag>`. */
export interface TagValue {
  $tag: 'object' | 'string'
}
export type Value = string | number | DateValue | TagValue
export type Values = Record<string, Value>

export interface CorpusMessage {
  source: string
  /** The translation of `source` in a target locale. */
  translate(locale: string): string
  values: Values[]
}

function categories(locale: string, type: 'cardinal' | 'ordinal'): string[] {
  return new Intl.PluralRules(locale, { type }).resolvedOptions().pluralCategories
}

const tag = (locale: string): string => `[${locale.slice(0, 2)}]`

/** `{arg, plural, ...}` with a branch per category of the locale; `body` writes a branch. */
function plural(
  arg: string,
  locale: string,
  body: (category: string) => string,
  head = '',
  type: 'cardinal' | 'ordinal' = 'cardinal',
): string {
  const branches = categories(locale, type).map((c) => `${c} {${body(c)}}`)
  return `{${arg}, ${type === 'ordinal' ? 'selectordinal' : 'plural'}, ${head}${branches.join(' ')}}`
}

const counts = (name: string, extra: Values = {}): Values[] => COUNTS.map((n) => ({ ...extra, [name]: n }))
const same = (source: string, values: Values[]): CorpusMessage => ({
  source,
  translate: (locale) => `${tag(locale)} ${source}`,
  values,
})
const NUMBERS = [0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5, -7.25, 1234.5, 1234567.891]
const numbers = (name: string): Values[] => NUMBERS.map((n) => ({ [name]: n }))
const DATES: Values[] = [{ d: WHEN }, { d: { $date: WHEN } }, { d: Date.UTC(1999, 11, 31, 23, 59, 59) }]

const OBJECT: TagValue = { $tag: 'object' }
const STRING: TagValue = { $tag: 'string' }
/** The values of a tagged message: each with every tag as object-returning, then as string-returning. */
const tagged = (tags: string[], values: Values[] = [{}]): Values[] =>
  [OBJECT, STRING].flatMap((fn) =>
    values.map((v) => ({ ...v, ...Object.fromEntries(tags.map((t) => [t, fn])) })),
  )

export const CORPUS: CorpusMessage[] = [
  {
    source: 'You have {count, plural, =0 {no files} one {# file} other {# files}}',
    translate: (l) => `${tag(l)} ${plural('count', l, (c) => `# ${c}`, '=0 {none} ')}`,
    values: counts('count'),
  },
  {
    source:
      '{count, plural, offset:1 =0 {nobody} =1 {{name}} one {{name} and # other} other {{name} and # others}}',
    translate: (l) => plural('count', l, (c) => `{name} ${tag(l)} # ${c}`, 'offset:1 =0 {-} =1 {{name}} '),
    values: counts('count', { name: 'Ada' }),
  },
  {
    source: 'You finished {place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
    translate: (l) => `${tag(l)} ${plural('place', l, (c) => `#.${c}`, '', 'ordinal')}`,
    values: counts('place'),
  },
  {
    source: '{gender, select, female {She} male {He} other {They}} replied',
    translate: (l) => `${tag(l)} {gender, select, female {elle} male {il} other {on}}`,
    values: [{ gender: 'female' }, { gender: 'male' }, { gender: 'robot' }, { gender: 'other' }],
  },
  {
    source:
      '{gender, select, female {{count, plural, one {She has # file} other {She has # files}}} other {{count, plural, one {They have # file} other {They have # files}}}}',
    translate: (l) =>
      `{gender, select, female {${plural('count', l, (c) => `${tag(l)} F # ${c}`)}} other {${plural('count', l, (c) => `${tag(l)} O # ${c}`)}}}`,
    values: [...counts('count', { gender: 'female' }), ...counts('count', { gender: 'x' })],
  },
  {
    source:
      '{a, plural, one {# apple and {b, plural, one {# pear} other {# pears}}} other {# apples and {b, plural, one {# pear} other {# pears}}}}',
    translate: (l) => plural('a', l, (c) => `${c} # ${plural('b', l, (d) => `${d}:#`)}`),
    values: COUNTS.map((n, i) => ({ a: n, b: COUNTS[(i + 3) % COUNTS.length]! })),
  },
  {
    source: '{n, plural, one {# item in {cat, select, book {books} other {stuff}}} other {# items}}',
    translate: (l) => plural('n', l, (c) => `# ${c} {cat, select, book {${tag(l)}B} other {${tag(l)}S}}`),
    values: [...counts('n', { cat: 'book' }), ...counts('n', { cat: 'toy' })],
  },
  same('Total: {n, number}', numbers('n')),
  same('Whole: {n, number, integer}', numbers('n')),
  same('Progress: {p, number, percent}', [{ p: 0 }, { p: 0.25 }, { p: 1.5 }, { p: 0.125 }]),
  same('Price: {price, number, ::currency/EUR}', numbers('price')),
  same('About {n, number, ::compact-short}', [...numbers('n'), { n: 98765 }, { n: 4.2e9 }]),
  same('Exactly {n, number, ::.00}', numbers('n')),
  same('At most {n, number, ::.##}', numbers('n')),
  same('Share {p, number, ::percent .0}', [{ p: 0.5 }, { p: 0.123 }]),
  same('Scaled {p, number, ::percent scale/100}', [{ p: 0.5 }, { p: 12 }]),
  same('Distance {n, number, ::unit/kilometer}', [{ n: 12.5 }, { n: 1 }]),
  same('Plain {n, number, ::group-off}', [{ n: 1234567 }]),
  same('Date {d, date, short}', DATES),
  same('Date {d, date, medium}', DATES),
  same('Date {d, date, long}', DATES),
  same('Date {d, date, full}', DATES),
  same('Date {d, date}', DATES),
  same('Time {d, time, short}', DATES),
  same('Time {d, time, medium}', DATES),
  same('Time {d, time, long}', DATES),
  same('Time {d, time, full}', DATES),
  same('Time {d, time}', DATES),
  same('Skeleton {d, date, ::yMMMd}', DATES),
  same('Skeleton {d, date, ::EEEEMMMMdy}', DATES),
  same('Skeleton {d, time, ::Hm}', DATES),
  same("It''s '{'literal'}' for {name}", [{ name: 'Ada' }]),
  {
    source: "{count, plural, one {'#' # item, it''s '{here}'} other {'#' # items}}",
    translate: (l) => plural('count', l, (c) => `'#' # ${c} ${tag(l)} l''ami '{y}'`),
    values: counts('count'),
  },
  same('Hello { name }, {count, number} new', [{ name: 'Ada', count: 1234 }]),
  same('Read the <link>terms</link> now', tagged(['link'])),
  same(
    '<link>the <b>new</b> terms</link> for {name}, <i></i>!',
    tagged(['link', 'b', 'i'], [{ name: 'Ada' }]),
  ),
  {
    source: '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <link>the folder</link>',
    translate: (l) => `${plural('count', l, (c) => `<b>#</b> ${c}`)} ${tag(l)} <link>dossier</link>`,
    values: tagged(['b', 'link'], counts('count')),
  },
  {
    source: '{g, select, female {<b>She</b> replied} other {<b>They</b> replied <i>{n, number}</i> times}}',
    translate: (l) => `${tag(l)} {g, select, female {<b>elle</b>} other {<i>{n, number}</i> <b>on</b>}}`,
    values: tagged(
      ['b', 'i'],
      [
        { g: 'female', n: 1 },
        { g: 'x', n: 1234.5 },
      ],
    ),
  },
  same("Tags quoted: '<b>'x'</b>', self-closing: <br/>, and a < b", [{}]),
]
