import { transformSync } from 'esbuild'
import { expect, test } from 'vitest'
import { collapseJsxText, decodeEntities, quoteIcu } from '../../src/core/extract/jsx-text'
import { parseIcu } from '../../src/core/icu/parse'
import { APP_PLACEHOLDER_SOURCE, parsePlaceholders } from '../../src/core/model/placeholders'

/**
 * `<T>`'s text is what React renders: each case's text compiled by esbuild's JSX transform (the oracle)
 * gives the same string as the extractor's reading of it.
 */
const CASES = [
  'Hello world',
  '  spaces  kept   on one line  ',
  '\n    Hello\n    world\n  ',
  'first line   \n\t\tsecond line\n',
  '\n\n   \n  only this\n   \n',
  'a\r\n  b\r\n',
  '\t tab\tinside \t',
  'Fish &amp; chips&nbsp;&#8212; &#x2019;s &hellip; &copy;',
  'unknown &bogus; and &amp without semicolon',
  ' \n  ',
]

/** The children of `<>text</>` as esbuild's JSX transform gives them to `h`. */
function oracle(text: string): string {
  const { code } = transformSync(`<>${text}</>`, {
    loader: 'jsx',
    jsx: 'transform',
    jsxFactory: 'h',
    jsxFragment: 'F',
  })
  const h = (_type: unknown, _props: unknown, ...children: string[]) => children.join('')
  return new Function('h', 'F', `return ${code.trim().replace(/;$/, '')}`)(h, null)
}

test.each(CASES)('%j reads as React renders it', (text) => {
  expect(collapseJsxText(decodeEntities(text))).toBe(oracle(text))
})

test('ICU syntax characters of a text are quoted so that the message reads back as that text, then its placeholder', () => {
  for (const text of [
    '{braces} and <b>',
    "it's",
    "'{quoted}'",
    "a '' b",
    "x'",
    "{'}",
    "#1 '#'",
    "a}'s < b's {",
    "'",
  ]) {
    // The service's placeholder pattern sees no placeholder or tag in the quoted text.
    expect(parsePlaceholders(quoteIcu(text), { custom: APP_PLACEHOLDER_SOURCE }).placeholders).toEqual([])
    const parsed = parseIcu(`${quoteIcu(text)}{v}`)
    if (!parsed.ok) throw new Error(`${text}: ${parsed.problem}`)
    const last = parsed.ast.pop()!
    expect([
      parsed.ast.map((e) => ('value' in e ? e.value : '?')).join(''),
      'value' in last && last.value,
    ]).toEqual([text, 'v'])
  }
})
