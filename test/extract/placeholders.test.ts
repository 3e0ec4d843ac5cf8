/**
 * The placeholder format decides what a message's placeholders are and how `parsed` (the service's
 * parsedStringText) is formed. One source file holds every format's spellings; it is read under each
 * format, and every message is checked: the ones listed change, all others stay as written.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { APP_PLACEHOLDER_SOURCE, type PlaceholderSpec } from '../../src/core/model/placeholders'

const file = fileURLToPath(new URL('../fixtures/extract-placeholders/strings.ts', import.meta.url))
const code = readFileSync(file, 'utf8')
const texts = [
  '.NET {0} and {0:N2}',
  'App {name} and {0}',
  'Custom [[slot]]',
  'MessageFormat {0} and {1,number}',
  'Objective-C %@ and %1$@',
  'Python %(count)d, {user} and {0}',
  'Qt %1 and %L2',
  'Rails %{name}',
  'printf %s, %d, %1$s, %.2f and 100%%',
]

type Changes = Record<string, [parsed: string, placeholders: string[]]>

const cases: [string, PlaceholderSpec | undefined, Changes][] = [
  [
    'default (the app spelling {name} / {0})',
    undefined,
    {
      '.NET {0} and {0:N2}': ['.NET {0} and {0:N2}', ['{0}']],
      'App {name} and {0}': ['App {0} and {1}', ['{name}', '{0}']],
      'MessageFormat {0} and {1,number}': ['MessageFormat {0} and {1,number}', ['{0}']],
      'Python %(count)d, {user} and {0}': ['Python %(count)d, {0} and {1}', ['{user}', '{0}']],
      'Rails %{name}': ['Rails %{0}', ['{name}']],
    },
  ],
  ['none', { format: 'none' }, {}],
  [
    'c',
    { format: 'c' },
    {
      'printf %s, %d, %1$s, %.2f and 100%%': [
        'printf {0}, {1}, {2}, {3} and 100%%',
        ['%s', '%d', '%1$s', '%.2f'],
      ],
    },
  ],
  [
    'ios',
    { format: 'ios' },
    {
      'Objective-C %@ and %1$@': ['Objective-C {0} and {1}', ['%@', '%1$@']],
      'printf %s, %d, %1$s, %.2f and 100%%': [
        'printf {0}, {1}, {2}, {3} and 100%%',
        ['%s', '%d', '%1$s', '%.2f'],
      ],
    },
  ],
  [
    'python',
    { format: 'python' },
    {
      '.NET {0} and {0:N2}': ['.NET {0} and {1}', ['{0}', '{0:N2}']],
      'App {name} and {0}': ['App {0} and {1}', ['{name}', '{0}']],
      'MessageFormat {0} and {1,number}': ['MessageFormat {0} and {1,number}', ['{0}']],
      'Python %(count)d, {user} and {0}': ['Python {0}, {1} and {2}', ['%(count)d', '{user}', '{0}']],
      'Rails %{name}': ['Rails %{0}', ['{name}']],
    },
  ],
  [
    'java',
    { format: 'java' },
    {
      '.NET {0} and {0:N2}': ['.NET {0} and {0:N2}', ['{0}']],
      'App {name} and {0}': ['App {name} and {0}', ['{0}']],
      'MessageFormat {0} and {1,number}': ['MessageFormat {0} and {1}', ['{0}', '{1,number}']],
      'Python %(count)d, {user} and {0}': ['Python %(count)d, {user} and {0}', ['{0}']],
    },
  ],
  ['yaml', { format: 'yaml' }, { 'Rails %{name}': ['Rails {0}', ['%{name}']] }],
  [
    'qt',
    { format: 'qt' },
    {
      'Objective-C %@ and %1$@': ['Objective-C %@ and {0}$@', ['%1']],
      'Qt %1 and %L2': ['Qt {0} and {1}', ['%1', '%L2']],
      'printf %s, %d, %1$s, %.2f and 100%%': ['printf %s, %d, {0}$s, %.2f and 100%%', ['%1']],
    },
  ],
  [
    'resx',
    { format: 'resx' },
    {
      '.NET {0} and {0:N2}': ['.NET {0} and {1}', ['{0}', '{0:N2}']],
      'App {name} and {0}': ['App {name} and {0}', ['{0}']],
      'MessageFormat {0} and {1,number}': ['MessageFormat {0} and {1,number}', ['{0}']],
      'Python %(count)d, {user} and {0}': ['Python %(count)d, {user} and {0}', ['{0}']],
    },
  ],
  ['custom regex', { custom: String.raw`\[\[\w+\]\]` }, { 'Custom [[slot]]': ['Custom {0}', ['[[slot]]']] }],
]

describe('placeholder formats', () => {
  it.each(cases)('%s', (_name, placeholder, changes) => {
    const options = resolveExtractOptions({ cwd: fileURLToPath(new URL('.', import.meta.url)), placeholder })
    const { messages, diagnostics } = extractFromCode(file, code, options)
    // With the app's own placeholders, a text is ICU MessageFormat: `{0:N2}` is a syntax error there.
    const notIcu =
      (placeholder ?? { custom: APP_PLACEHOLDER_SOURCE }).custom === APP_PLACEHOLDER_SOURCE
        ? ['.NET {0} and {0:N2}']
        : []
    expect(diagnostics.map((d) => d.code)).toEqual(notIcu.map(() => 'icu-syntax'))
    const expected = texts
      .filter((text) => !notIcu.includes(text))
      .map((text) => {
        const [parsed, placeholders] = changes[text] ?? [text, []]
        return { text, parsed, placeholders }
      })
    const actual = messages
      .map((m) => ({ text: m.text, parsed: m.parsed, placeholders: m.placeholders }))
      .sort((a, b) => (a.text < b.text ? -1 : 1))
    expect(actual).toEqual(expected)
  })

  it('gives messages with the same parsed text one key, and each site its own spelling', () => {
    const options = resolveExtractOptions({ cwd: '/' })
    const fx = extractFromCode('/app/a.ts', "t('Hi {name}'); t('Hi {user}')", options)
    expect(fx.messages).toHaveLength(1)
    expect(fx.messages[0]).toMatchObject({ text: 'Hi {name}', parsed: 'Hi {0}', placeholders: ['{name}'] })
    expect(fx.calls.map((c) => c.placeholders)).toEqual([['{name}'], ['{user}']])
    expect(fx.calls[0]!.messageKey).toBe(fx.calls[1]!.messageKey)
  })

  it('rejects a custom regex that does not compile, naming the option', () => {
    expect(() => resolveExtractOptions({ placeholder: { custom: '([' } })).toThrow(
      /placeholderFormatCustom is not a valid regular expression/,
    )
  })
})
