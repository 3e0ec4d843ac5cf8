import { describe, expect, test } from 'vitest'
import { type CheckedMessage, checkLocale, reportProblems } from '../../src/core/check/locale'
import { placeholderSpecOf } from '../../src/options'

/**
 * What a build says about one locale's translations: every line names the message (text and
 * file:line:col), the locale and what to do; translations lacking plural categories are named in one
 * line per locale with their categories.
 */

const ROOT = '/app'
const message = (text: string, line: number): CheckedMessage => ({
  key: `\u0000\u0000${text}`,
  text,
  placeholders: [],
  locations: [{ file: `${ROOT}/src/files.js`, line, column: 3 }],
})
const hash = (i: number): string => i.toString(16).padStart(32, '0')

function told(byHashcode: Record<string, string>, messages: CheckedMessage[], locale: string) {
  const spec = placeholderSpecOf(undefined)
  const checked = checkLocale(
    byHashcode,
    messages,
    messages.map((_, i) => hash(i)),
    locale,
    spec,
  )
  const lines: string[] = []
  reportProblems(checked.problems, messages, locale, ROOT, {
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
  })
  return { lines, checked }
}

describe('the problems of a locale', () => {
  test('a rejected, a noted and an incomplete translation, each named with its message and the fix', () => {
    const messages = [
      message('{n, plural, one {# file} other {# files}}', 4),
      message('See <a>the terms</a>', 5),
      message('{n, plural, one {# day} other {# days}}', 6),
    ]
    const { lines, checked } = told(
      {
        [hash(0)]: '{n, plural, one {# plik} two {# pliki} few {# pliki} many {# plików} other {# pliku}}',
        [hash(1)]: 'Zobacz <a>warunki</a> i <a>więcej</a>',
        [hash(2)]: '{n, plural, one {# dzień} other {# dni}}',
      },
      messages,
      'pl-PL',
    )
    expect(lines).toEqual([
      `warn: translation of ${hash(0)} for pl-PL (the message "{n, plural, one {# file} other {# files}}" (src/files.js:4:3)): {n, plural} has the category two, which pl-PL does not use; the translation is used, remove that branch on the service`,
      `warn: translation of ${hash(1)} for pl-PL rejected: it renders the tag <a> twice where the source renders it once; the source text "See <a>the terms</a>" (src/files.js:5:3) is used until the translation is corrected on the service`,
      `info: pl-PL: 1 ICU translation lacks plural categories pl-PL needs, so numbers of those categories show the \`other\` branch: ${hash(2)} "{n, plural, one {# day} other {# days}}" (src/files.js:6:3) lacks few, many. Add the categories to the translation on the service.`,
    ])
    expect(checked.incomplete).toEqual([`${hash(2)}: few, many`])
  })

  test('past five incomplete translations the line counts the rest; a long text is cut', () => {
    const long = `{n, plural, one {# ${'very '.repeat(20)}long file} other {# files}}`
    const messages = Array.from({ length: 7 }, (_, i) =>
      message(i === 0 ? long : `{n, plural, one {# file ${i}} other {# files}}`, 10 + i),
    )
    const { lines } = told(
      Object.fromEntries(
        messages.map((_, i) => [hash(i), `{n, plural, one {# fichier ${i}} other {# fichiers}}`]),
      ),
      messages,
      'fr-FR',
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(
      `info: fr-FR: 7 ICU translations lack plural categories fr-FR needs, so numbers of those categories show the \`other\` branch: ` +
        `${hash(0)} ${JSON.stringify(`${long.slice(0, 60)}...`)} (src/files.js:10:3) lacks many; ` +
        [1, 2, 3, 4]
          .map(
            (i) =>
              `${hash(i)} "{n, plural, one {# file ${i}} other {# files}}" (src/files.js:${10 + i}:3) lacks many`,
          )
          .join('; ') +
        '; 2 more under "incomplete" in tms-report.json. Add the categories to these translations on the service.',
    )
  })
})

describe('a locale checked again with its memo (a dev server after each pull)', () => {
  const spec = placeholderSpecOf(undefined)
  const messages = [
    message('Hello {name}', 1),
    message('{n, plural, one {# file} other {# files}}', 2),
    message('Open', 3),
  ]
  messages[0] = { ...messages[0]!, placeholders: ['name'] }
  const hashcodes = messages.map((_, i) => hash(i))
  const first = {
    [hash(0)]: 'Bonjour {name}',
    [hash(1)]: '{n, plural, one {# fichier} other {# fichiers}}',
    [hash(2)]: 'Ouvrir',
  }
  const second = { [hash(0)]: 'Bonjour', [hash(1)]: first[hash(1)]!, [hash(2)]: 'Ouvrir tout' }

  test('gives what a check without a memo gives, and keeps the check of a translation as it was', () => {
    const memo = { raw: [], checked: [] }
    expect(checkLocale(first, messages, hashcodes, 'fr-FR', spec, undefined, memo)).toStrictEqual(
      checkLocale(first, messages, hashcodes, 'fr-FR', spec),
    )
    const kept = memo.checked[1]
    const again = checkLocale(second, messages, hashcodes, 'fr-FR', spec, undefined, memo)
    expect(again).toStrictEqual(checkLocale(second, messages, hashcodes, 'fr-FR', spec))
    expect(again.problems).toEqual([
      { index: 0, hashcode: hash(0), reason: 'it drops the placeholder name' },
      { index: 1, hashcode: hash(1), lacks: ['many'] },
    ])
    expect(memo.checked[1]).toBe(kept)
    expect(memo.raw).toEqual(['Bonjour', first[hash(1)], 'Ouvrir tout'])
  })
})
