import { describe, expect, it } from 'vitest'
import {
  ExtractOptionsError,
  extractFromCode,
  parseKeywordSpec,
  resolveExtractOptions,
} from '../../src/core/extract/index'
import { quickRead } from '../../src/core/extract/quick'
import { availableScanners, lazySupported, mayDeclare, scannerFor } from '../../src/core/extract/scan'
import { parseUnits } from '../../src/core/extract/sources'

describe('keyword specs', () => {
  it('reads xgettext argument positions', () => {
    expect(parseKeywordSpec('t')).toEqual({
      source: 't',
      name: 't',
      path: ['t'],
      text: 0,
      plural: null,
      context: null,
      defaultApi: true,
    })
    expect(parseKeywordSpec('_nx:1,2,4c')).toMatchObject({
      name: '_nx',
      text: 0,
      plural: 1,
      context: 3,
      defaultApi: false,
    })
    expect(parseKeywordSpec('_x:2c,1')).toMatchObject({ text: 0, plural: null, context: 1 })
    expect(parseKeywordSpec('i18n.t')).toMatchObject({
      name: 'i18n.t',
      path: ['i18n', 't'],
      defaultApi: true,
    })
  })

  it.each([
    ['1t', /is not a keyword spec/],
    ['t:', /has a bad argument ""/],
    ['t:0', /has a bad argument "0"/],
    ['t:1,1', /uses argument 1 twice/],
    ['t:1c,2c', /more than one context argument/],
    ['t:2c', /names no text argument/],
    ['t:1,2,3', /more than two text arguments/],
  ])('rejects %s naming the keywords option', (spec, message) => {
    let error: unknown
    try {
      parseKeywordSpec(spec)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ExtractOptionsError)
    expect((error as ExtractOptionsError).option).toBe('keywords')
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).toContain(`"${spec}"`)
  })
})

describe('options', () => {
  it.each<[object, string, RegExp]>([
    [{ include: [] }, 'include', /at least one glob/],
    [{ include: 'src/**' }, 'include', /array of non-empty glob strings/],
    [{ keywords: [] }, 'keywords', /non-empty array/],
    [{ keywords: ['t', 't:1'] }, 'keywords', /lists "t" twice/],
    [{ placeholder: { format: 'perl' } }, 'placeholderFormat', /must be one of/],
    [{ runtimeModule: '' }, 'runtimeModule', /non-empty module specifier/],
    [{ workers: -1 }, 'workers', /whole number >= 0/],
    [{ scanner: 'fast' }, 'scanner', /one of lazy, lazy-nodes, json, json-nodes, estree; got fast/],
    ...(lazySupported()
      ? []
      : [[{ scanner: 'lazy' }, 'scanner', /needs raw transfer \(Node >= 22\)/] as [object, string, RegExp]]),
  ])('rejects %j naming %s', (options, option, message) => {
    expect(() => resolveExtractOptions(options as never)).toThrow(message)
    try {
      resolveExtractOptions(options as never)
    } catch (e) {
      expect((e as ExtractOptionsError).option).toBe(option)
    }
  })

  it('applies the documented defaults', () => {
    const o = resolveExtractOptions({ cwd: '/project' })
    expect(o).toMatchObject({
      cwd: '/project',
      include: ['src/**/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}'],
      exclude: ['**/node_modules/**', '**/*.{test,spec}.*', '**/__tests__/**'],
      namespace: null,
      runtimeModule: 'unplugin-tms/runtime',
      cacheDir: null,
      workers: 'auto',
    })
    expect(o.keywords.map((k) => k.name)).toEqual(['t'])
  })
})

describe('the declaration pre-check', () => {
  it.each([
    ["t('a'); x.t('b'); t`c`; t<string>('d'); t?.('e'); \"don't\"; it’s", false],
    ['const t = 1', true],
    ['(t) => 1', true],
    ['function t() {}', true],
    ['function* t() {}', true],
    ['const { t } = x', true],
    ['[...t] = x', true],
    ['catch (t) {}', true],
  ])('%s -> %s', (code, expected) => {
    expect(mayDeclare(code, ['t'], [])).toBe(expected)
  })

  it('skips the import statements it is given', () => {
    const code = "import { t } from 'x'; t('a')"
    expect(mayDeclare(code, ['t'], [{ start: 0, end: 22 }])).toBe(false)
    expect(mayDeclare(code, ['t'], [])).toBe(true)
  })
})

it('takes the scanner the options name, the fastest one this Node has for auto', () => {
  expect(resolveExtractOptions({ scanner: 'estree' }).scanner).toBe('estree')
  expect(resolveExtractOptions({}).scanner).toBe(lazySupported() ? 'lazy' : 'json')
  for (const name of availableScanners()) expect(scannerFor(name).name).toBe(name)
  // A named scanner keeps its results apart from the others' in the caches.
  const digests = new Set(availableScanners().map((scanner) => resolveExtractOptions({ scanner }).digest))
  expect(digests.size).toBe(availableScanners().length)
})

describe.each(availableScanners())('offsets (%s scanner)', (scanner) => {
  const options = resolveExtractOptions({ cwd: '/app', scanner })

  it('are UTF-16 offsets into the original text, with astral characters and CRLF before the call', () => {
    const code = "const s = '😀é'\r\nconst u = t('Ünïcode 😀 {n}', { n: s })\r\n"
    const fx = extractFromCode('/app/u.ts', code, options)
    const site = fx.calls[0]!
    expect(code.slice(site.start, site.end)).toBe("t('Ünïcode 😀 {n}', { n: s })")
    expect(code.slice(site.callee.start, site.callee.end)).toBe('t')
    expect(site.args.map((a) => code.slice(a.start, a.end))).toEqual(["'Ünïcode 😀 {n}'", '{ n: s }'])
    expect([site.line, site.column]).toEqual([2, 11])
    expect(fx.messages[0]!.locations).toEqual([{ file: '/app/u.ts', line: 2, column: 11 }])
  })

  it('of a Vue script block point into the .vue file', () => {
    const code =
      '<template>\n  <p>{{ x }}</p>\n</template>\n<script setup lang="ts">\nconst x = t`Hi ${name}`\n</script>\n'
    const fx = extractFromCode('/app/C.vue', code, options)
    const site = fx.calls[0]!
    expect(code.slice(site.start, site.end)).toBe('t`Hi ${name}`')
    expect(site.expressions!.map((e) => [code.slice(e.start, e.end), e.name])).toEqual([['name', 'name']])
    expect([site.line, site.column]).toEqual([5, 11])
  })
})

describe('script blocks', () => {
  it('keeps offsets by padding, reads lang, ignores blocks inside HTML comments', () => {
    const code =
      '<!-- <script>bad(</script> -->\n<script lang="ts">let a: number = 1</script>\n<script>let b = 2</script>'
    const units = parseUnits('/x/A.svelte', code)
    expect(units.map((u) => [u.lang, u.code.trimStart(), u.code.length - u.code.trimStart().length])).toEqual(
      [
        ['ts', 'let a: number = 1', code.indexOf('let a')],
        ['jsx', 'let b = 2', code.indexOf('let b')],
      ],
    )
  })
})

describe('.astro files', () => {
  const options = resolveExtractOptions({})
  const written = "---\nimport { t } from 'unplugin-tms/runtime'\nconst a = t('Hello')\n---\n<h1>{a}</h1>\n"
  // Astro's compiler output: the frontmatter code inside the component function.
  const compiled =
    "import { createComponent as $$createComponent } from 'astro/runtime/server/index.js'\n" +
    "import { t } from 'unplugin-tms/runtime'\n" +
    "const $$Page = $$createComponent(async ($$result) => {\n  const a = t('Hello')\n  return a\n})\n"

  it('reads the frontmatter as written, offsets kept, and no unit for a file without one', () => {
    const units = parseUnits('/x/Page.astro', written)
    expect(units.map((u) => [u.lang, u.code.trimStart(), u.code.length - u.code.trimStart().length])).toEqual(
      [['ts', "import { t } from 'unplugin-tms/runtime'\nconst a = t('Hello')", written.indexOf('import')]],
    )
    expect(parseUnits('/x/Plain.astro', '<h1>Hello</h1>\n')).toEqual([])
  })

  it('finds the same message in the file as written and as Astro compiles it', () => {
    const before = extractFromCode('/x/Page.astro', written, options).calls
    const after = extractFromCode('/x/Page.astro', compiled, options).calls
    expect(before.map((c) => [written.slice(c.start, c.end), c.line, c.column])).toEqual([
      ["t('Hello')", 3, 11],
    ])
    expect(after.map((c) => compiled.slice(c.start, c.end))).toEqual(["t('Hello')"])
    expect(after[0]!.messageKey).toBe(before[0]!.messageKey)
  })
})

describe('the quick text read of a call', () => {
  const direct = new Map([['t', parseKeywordSpec('t')]])
  const read = (code: string, tagged = false) => quickRead(code, 0, code.length, tagged, direct)

  it('reads plain calls and templates from the text', () => {
    const call = read("t('Save', { n }, { variant: 'menu', maxLength: 20 })")
    expect(call).not.toBeNull()
    expect(call).not.toBe('none')
    const node = (call as Exclude<typeof call, 'none' | null>).node
    expect(node.arguments.map((a: { type: string }) => a.type)).toEqual([
      'StringLiteral',
      'Opaque',
      'ObjectExpression',
    ])
    const tagged = read('t`Hi ${name}!`', true) as Exclude<ReturnType<typeof read>, 'none' | null>
    expect(tagged.node.quasi.quasis.map((q: { value: { cooked: string } }) => q.value.cooked)).toEqual([
      'Hi ',
      '!',
    ])
  })

  it('says a call of another function is none of ours', () => {
    expect(read("useState('x')")).toBe('none')
  })

  it.each([
    "t('a')('b')",
    "t('a' + 'b')",
    "t('it\\'s')",
    "t('a', /* c */ x)",
    "t('a', (b))",
    "t('a', x, { maxLength: 0x10 })",
    "t('a', { el: <b>it's</b> })",
    "t('a', x, { variant })",
    "t('a', ...rest)",
    "t<string>('a')",
    "t ('a')",
    "t('a', café)",
  ])('leaves %s to the parser', (code) => {
    expect(read(code)).toBeNull()
  })

  it('leaves templates with escapes or expressions other than names to the parser', () => {
    expect(read('t`a \\` b`', true)).toBeNull()
    expect(read('t`a ${user.name}`', true)).toBeNull()
  })
})
