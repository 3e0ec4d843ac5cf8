/**
 * A vite dev server's rewrite that moves no character (src/plugin/kept-positions.ts): its exact text,
 * every character outside the callees where it was, the same lookups as the usual rewrite when run,
 * and the usual rewrite (with its map) for a module it cannot take.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { messageId } from '../../src/plugin/ids'
import { type RewriteResult, rewriteMessageCalls } from '../../src/plugin/transform'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const options = resolveExtractOptions({ cwd: repo, keywords: ['t', 'i18n.t'], namespace: null })
const specs = new Map(options.keywords.map((k) => [k.name, k]))
/** What the lookup of an ICU message carries in place of its text: a stand-in for its compiled form. */
const FORM = '["compiled"]'

/** How many times the last {@link rewrite} looked a site up. */
let lookups = 0

function rewrite(file: string, code: string, keepPositions: boolean): RewriteResult | null {
  lookups = 0
  const fx = extractFromCode(file, code, options)
  return rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    keepPositions,
    lookup: (site) => {
      lookups++
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      const icu = message.text.includes(', plural,')
      return { id: messageId(site.messageKey), text: message.text, ...(icu ? { form: FORM } : {}) }
    },
  })
}

const MODULE = [
  "import { t } from 'unplugin-tms/runtime'",
  'const a = 1',
  "export const top = t('Hello')",
  'export function greet(name: string, c: number) {',
  "  return [t('Hello'), t<string>('Hi {name}', { name }), t('Open', undefined, { variant: 'menu' })]",
  '}',
  'export const bye = (name: string) => t`Bye ${name}, ${name}`',
  "export const items = (count: number) => t('{count, plural, one {# item} other {# items}}', { count })",
  "export const save = () => i18n.t('Save') + a",
  "declare const i18n: { t(text: string): string } // t('not a site')",
].join('\n')

const messages = extractFromCode('/app/src/view.tsx', MODULE, options).messages
/** The id of the module's message of this text. */
const id = (text: string) => messageId(messages.find((m) => m.text === text)!.key)

describe('a module whose every site allows it', () => {
  const kept = rewrite('/app/src/view.tsx', MODULE, true)!

  test('each callee becomes a one-letter name no word of the module is; the lookups follow the last line', () => {
    // `a` and `c` are words of the module; `t` is too (its import), so the names start at `b`.
    const runtime = 'import { _l as __tms_l } from "unplugin-tms/runtime";'
    const ids = [id('Hello'), id('Hi {name}'), id('Open'), id('Bye {name}, {name}')]
    const icu = id('{count, plural, one {# item} other {# items}}')
    expect(kept.code).toBe(
      [
        "import { t } from 'unplugin-tms/runtime'",
        'const a = 1',
        "export const top = b('Hello')",
        'export function greet(name: string, c: number) {',
        "  return [b('Hello'), d<string>('Hi {name}', { name }), e('Open', undefined, { variant: 'menu' })]",
        '}',
        'export const bye = (name: string) => f`Bye ${name}, ${name}`',
        "export const items = (count: number) => g('{count, plural, one {# item} other {# items}}', { count })",
        "export const save = () => h     ('Save') + a",
        "declare const i18n: { t(text: string): string } // t('not a site')",
        `;${runtime}` +
          `function b(a,v){return __tms_l("${ids[0]}",a,v)}` +
          `function d(a,v){return __tms_l("${ids[1]}",a,v)}` +
          `function e(a,v){return __tms_l("${ids[2]}",a,v)}` +
          `function f(s,...x){return __tms_l("${ids[3]}","Bye {name}, {name}",{"name":x[0],"name":x[1]})}` +
          `function g(a,v){return __tms_l("${icu}",${FORM},v)}` +
          `function h(a,v){return __tms_l("${id('Save')}",a,v)}`,
      ].join('\n'),
    )
    expect(kept.map).toBeNull()
    expect(kept.ids).toEqual([ids[0], ids[0], ids[1], ids[2], ids[3], icu, id('Save')])
  })

  test('every character but the callees keeps its place', () => {
    const callees = extractFromCode('/app/src/view.tsx', MODULE, options).calls.map(
      (site) => [site.callee.start, site.callee.end] as const,
    )
    expect(callees).toHaveLength(7)
    for (let at = 0; at < MODULE.length; at++) {
      if (callees.some(([start, end]) => at >= start && at < end)) continue
      expect(kept.code[at], `character ${at}`).toBe(MODULE[at])
    }
    expect(kept.code.slice(0, MODULE.length).split('\n')).toHaveLength(MODULE.split('\n').length)
  })

  test('run, its sites give what the usual rewrite gives', () => {
    const usual = rewrite('/app/src/view.tsx', MODULE, false)!
    expect(usual.map).not.toBeNull()
    expect(evaluate(kept.code)).toEqual(evaluate(usual.code))
  })
})

/**
 * The module's exports run with a lookup that gives its arguments: the rewritten code, its types
 * removed by hand (this module's only), its imports replaced by that lookup.
 */
function evaluate(code: string): unknown {
  const plain = code
    .replace(/import \{ t \} from 'unplugin-tms\/runtime'\n?/, '')
    .replace(/import \{ _l as __tms_l \} from "unplugin-tms\/runtime";/, '')
    .replace(/declare const i18n[^\n]*/, '')
    .replace(/: string|: number|<string>/g, '')
    .replace(/export (const|function) /g, '$1 ')
  const run = new Function(
    '__tms_l',
    `${plain}\nreturn { top, greet: greet('Ada', 2), bye: bye('Ada'), items: items(3), save: save() }`,
  )
  // The runtime's lookup takes `values` undefined as no values (src/runtime/index.ts `_l`).
  return run((id: string, text: unknown, values?: unknown) =>
    JSON.stringify(values === undefined ? [id, text] : [id, text, values]),
  )
}

describe('a module it cannot take keeps the usual rewrite and its map', () => {
  const cases: [string, string, string][] = [
    ['a plain .js module, which vite serves with a map of its rewritten code', '/app/src/a.js', "t('Hello')"],
    [
      'a <T> element',
      '/app/src/a.tsx',
      "import { T } from 'unplugin-tms/react'\nexport const A = () => <T>Hello</T>",
    ],
    [
      'a Svelte rune module, whose lookup comes from the Svelte binding',
      '/app/src/a.svelte.ts',
      "export const m = () => t('Hello')",
    ],
    [
      'a descriptor',
      '/app/src/a.ts',
      "import { msg } from 'unplugin-tms/runtime'\nexport const m = msg('Hello')",
    ],
    ['an escape that could spell a name', '/app/src/a.ts', "const \\u0062 = 1\nexport const m = t('Hello')"],
    [
      'more messages than free letters',
      '/app/src/a.ts',
      Array.from({ length: 26 }, (_, i) => `export const m${i} = t('Message ${i}')`).join('\n'),
    ],
  ]
  test.each(cases)('%s', (_, file, code) => {
    const usual = rewrite(file, code, false)!
    const asked = lookups
    const result = rewrite(file, code, true)!
    expect(result.map).not.toBeNull()
    expect(result.code).toBe(usual.code)
    // Each site looked up once, by the usual rewrite only.
    expect(lookups).toBe(asked)
  })

  test('a module of as many messages as free letters is kept', () => {
    // Its one one-letter word is `t`: 25 letters are free.
    const code = Array.from({ length: 25 }, (_, i) => `export const m${i} = t('Message ${i}')`).join('\n')
    expect(rewrite('/app/src/a.ts', code, true)!.map).toBeNull()
  })
})
