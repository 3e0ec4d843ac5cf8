/**
 * Hostile ICU translations made from a seed: each kind of thing a careless translator or a compromised
 * service could send (nesting hundreds deep, arms of 100,000 characters, skeletons Intl refuses, tags
 * unknown, doubled, unbalanced or numbered, `__proto__` and `constructor` keys, lone surrogates, bidi
 * controls, thousands of arms, syntax cut at random), and plain good ones. The same seed gives the
 * same translations.
 */

/** A source message of the fuzzed app, with a good French-like translation to mutate. */
export interface FuzzTemplate {
  source: string
  translation: string
}

export const TEMPLATES: readonly FuzzTemplate[] = [
  {
    source: '{n, plural, one {# file} other {# files}}',
    translation: '{n, plural, one {# fichier} other {# fichiers}}',
  },
  {
    source: '{g, select, female {She} male {He} other {They}} sent <a>{n, number} items</a>',
    translation: '{g, select, female {Elle} male {Il} other {Iel}} a envoyé <a>{n, number} éléments</a>',
  },
  {
    source: 'Pay {n, number, ::currency/EUR} by {d, date, medium}',
    translation: 'Payez {n, number, ::currency/EUR} avant le {d, date, medium}',
  },
  { source: 'See <b>the <a>terms</a></b> now', translation: 'Voir <b>les <a>conditions</a></b> maintenant' },
  {
    source: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place',
    translation: '{n, selectordinal, one {#er} other {#e}} place',
  },
  { source: 'Size {n, number, ::unit/megabyte .0}', translation: 'Taille {n, number, ::unit/megabyte .0}' },
]

const SKELETONS = [
  '::currency/XYZ123',
  '::currency/USD',
  '::unit/furlong',
  `::.${'0'.repeat(25)}`,
  `::${'@'.repeat(25)}`,
  `::integer-width/*${'0'.repeat(30)}`,
  '::scale/abc',
  '::compact-short unit/megabyte',
  'currency',
  '::percent scale/100',
]
const TAG_EDITS = [
  (t: string) => t.replace('<a>', '<x>').replace('</a>', '</x>'),
  (t: string) => `${t} <a>encore</a>`,
  (t: string) => t.replace('</a>', ''),
  (t: string) => `${t}</a>`,
  (t: string) => `<0>${t}</0>`,
  (t: string) => t.replace('<a>', '<a><a>').replace('</a>', '</a></a>'),
  (t: string) => `${t}<br/>`,
]
const ODD_TEXT = ['\uD800', '\uDC00', '\u202E', '\u2066', '\u200F', '\u0000', '</script>', "'{'", '\u2028']

/** A kind of hostile translation: its name and how it is made from a good one. */
export interface FuzzKind {
  name: string
  make(good: string, random: () => number): string
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!
const between = (low: number, high: number, random: () => number): number =>
  low + Math.floor(random() * (high - low + 1))

/** The first argument name of a translation (`n` or `g`): what a wrapper selects on. */
const firstArgument = (text: string): string => /\{(\w+)/.exec(text)?.[1] ?? 'n'

export const KINDS: readonly FuzzKind[] = [
  {
    name: 'deep nesting',
    make: (good, random) => {
      const arg = firstArgument(good)
      let text = good
      const levels = between(14, 1200, random)
      for (let i = 0; i < levels; i++)
        text = `{${arg}, select, a {${text}} other {${text.length < 200 ? text : 'x'}}}`
      return text
    },
  },
  {
    name: 'huge arm',
    make: (good, random) => {
      // Inside the first branch when there is one, else in the text itself.
      const branch = /(?:one|other|female|male) \{/.exec(good)
      const at = branch ? branch.index + branch[0].length : good.length
      return `${good.slice(0, at)}${'é'.repeat(between(60_000, 140_000, random))}${good.slice(at)}`
    },
  },
  {
    name: 'bad skeleton',
    make: (good, random) => {
      const skeleton = pick(SKELETONS, random)
      return /\{n, number[^}]*\}/.test(good)
        ? good.replace(/\{n, number[^}]*\}/, `{n, number, ${skeleton}}`)
        : `${good} {n, number, ${skeleton}}`
    },
  },
  { name: 'tags', make: (good, random) => pick(TAG_EDITS, random)(good) },
  {
    name: 'prototype keys',
    make: (good, random) =>
      /\{g, select,/.test(good)
        ? good.replace(
            /\{g, select,/,
            `{g, select, __proto__ {P} constructor {C} ${random() < 0.5 ? 'toString {T}' : ''}`,
          )
        : `{n, plural, =0 {${good}} other {${good}}} {g, select, __proto__ {P} hasOwnProperty {H} other {O}}`,
  },
  {
    name: 'odd characters',
    make: (good, random) => {
      let text = good
      for (let i = between(1, 6, random); i > 0; i--) {
        // Half at either end (literal text, where a translator writes them), half anywhere.
        const at = random() < 0.5 ? (random() < 0.5 ? 0 : text.length) : between(0, text.length, random)
        text = `${text.slice(0, at)}${pick(ODD_TEXT, random)}${text.slice(at)}`
      }
      return text
    },
  },
  {
    name: 'many arms',
    make: (good, random) => {
      const arms = Array.from({ length: between(500, 12_000, random) }, (_, i) => `k${i} {${i}}`).join(' ')
      return `{g, select, ${arms} other {${good}}}`
    },
  },
  {
    name: 'cut syntax',
    make: (good, random) => {
      let text = good
      for (let i = between(1, 4, random); i > 0; i--) {
        const at = between(0, text.length - 1, random)
        text =
          random() < 0.5
            ? text.slice(0, at) + text.slice(at + 1)
            : `${text.slice(0, at)}${pick([..."{}<>/#,'"], random)}${text.slice(at)}`
      }
      return text
    },
  },
  { name: 'good', make: (good) => good },
]

/** One hostile translation of a template, of a kind the seeded `random` picks. */
export function hostileTranslation(
  template: FuzzTemplate,
  random: () => number,
): { kind: string; text: string } {
  const kind = pick(KINDS, random)
  return { kind: kind.name, text: kind.make(template.translation, random) }
}
