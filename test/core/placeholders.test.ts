import { describe, expect, it } from 'vitest'
import {
  APP_PLACEHOLDER_SOURCE,
  PlaceholderSpecError,
  parsePlaceholders,
  restorePlaceholders,
} from '../../src/core/model/placeholders'

describe('parsePlaceholders', () => {
  const cases: [string, string, string, string[]][] = [
    [
      'c',
      'Hello %s, you have %d new %1$s and %.2f%% off',
      'Hello {0}, you have {1} new {2} and {3}%% off',
      ['%s', '%d', '%1$s', '%.2f'],
    ],
    ['ios', 'Hi %@ and %1$@ (%d)', 'Hi {0} and {1} ({2})', ['%@', '%1$@', '%d']],
    [
      'python',
      'Hi %(name)s, {count} of {0} %% {}',
      'Hi {0}, {1} of {2} %% {3}',
      ['%(name)s', '{count}', '{0}', '{}'],
    ],
    [
      'java',
      'File {0} has {1,number} lines on {2,date,short}',
      'File {0} has {1} lines on {2}',
      ['{0}', '{1,number}', '{2,date,short}'],
    ],
    ['yaml', 'Hello %{name}, 100%% sure', 'Hello {0}, 100%% sure', ['%{name}']],
    ['qt', 'Copied %1 of %L2 (%%)', 'Copied {0} of {1} (%%)', ['%1', '%L2']],
    ['resx', 'Total {0:N2} for {1,-10}', 'Total {0} for {1}', ['{0:N2}', '{1,-10}']],
    ['none', 'Hello %s {name}', 'Hello %s {name}', []],
  ]
  for (const [format, text, parsed, placeholders] of cases) {
    it(`reads the ${format} format`, () => {
      expect(parsePlaceholders(text, { format: format as 'c' })).toEqual({ parsed, placeholders })
    })
  }

  it('uses a custom regex over the named format, as the service does', () => {
    expect(parsePlaceholders('Hello {name}, %s!', { format: 'c', custom: APP_PLACEHOLDER_SOURCE })).toEqual({
      parsed: 'Hello {0}, %s!',
      placeholders: ['{name}'],
    })
  })

  it('rejects a custom regex that does not compile, naming the field', () => {
    expect(() => parsePlaceholders('x', { custom: '([a-' })).toThrow(PlaceholderSpecError)
    expect(() => parsePlaceholders('x', { custom: '([a-' })).toThrow(/placeholderFormatCustom/)
    expect(() => parsePlaceholders('x', { custom: 'a*' })).toThrow(/empty string/)
  })

  it('rejects an unknown format, naming the field and the allowed values', () => {
    expect(() => parsePlaceholders('x', { format: 'php' as 'c' })).toThrow(
      /placeholderFormat must be one of none, c/,
    )
  })
})

describe('restorePlaceholders', () => {
  it('puts the original placeholders back by index', () => {
    expect(restorePlaceholders('{1} et {0} !', ['{name}', '%d'])).toBe('%d et {name} !')
  })
  it('leaves an index with no placeholder alone', () => {
    expect(restorePlaceholders('{0} {3}', ['%s'])).toBe('%s {3}')
  })
})
