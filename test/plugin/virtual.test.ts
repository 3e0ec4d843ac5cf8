import { describe, expect, test } from 'vitest'
import type { CompiledMessage } from '../../src/core/icu/compile'
import {
  catalogChanges,
  catalogLiteral,
  catalogMarker,
  fillCatalogMarkers,
  filledCatalogBytes,
  jsonExpression,
  markerCatalogModule,
  runtimeModule,
} from '../../src/plugin/virtual'

describe('catalog markers', () => {
  const fr = new Map([
    ['b', 'Deux'],
    ['a', 'Un'],
  ])

  test('the literal sorts ids and escapes every text as a JS string', () => {
    expect(catalogLiteral(fr)).toBe('{"a":"Un","b":"Deux"}')
    expect(catalogLiteral(new Map([['x', '</script>\u2028${1}`\\']]))).toBe(
      '{"x":"\\u003c/script>\\u2028${1}`\\\\"}',
    )
  })

  test('a marker is filled wherever the bundler or a minifier put it, in any quotes', () => {
    const marker = catalogMarker(0, 'abc123')
    expect(markerCatalogModule(0, 'abc123')).toBe(`export default ${marker};\n`)
    const chunks = [
      `var e = ${marker}; export { e as default }`,
      "var e=__TMS_CATALOG__('0:abc123');export{e as default}",
      'var e=__TMS_CATALOG__(`0:abc123`);export{e as default}',
    ]
    for (const chunk of chunks) {
      expect(fillCatalogMarkers(chunk, 'c.js', (i) => (i === 0 ? fr : undefined), true)!.code).toMatch(
        /^var e ?= ?\(\{"a":"Un","b":"Deux"\}\); ?export ?\{ ?e as default ?\}$/,
      )
    }
  })

  test('rollup, rolldown and vite get the catalog as JSON.parse of one string, the same value as the literal', () => {
    const texts = new Map<string, unknown>([
      ['q', 'It\'s \\ "quoted" </script> <!-- \u2028 \u0001 \ud800 ${x} `'],
      ['f', ['one ', { n: 1, other: ['#'] }, null]],
    ])
    const literal = catalogLiteral(texts as never)
    const filled = fillCatalogMarkers(
      `var e = ${catalogMarker(0, 'abc123')};`,
      'c.js',
      () => literal,
      false,
      jsonExpression,
    )!.code
    expect(filled).toBe(`var e = JSON.parse('${literal.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}');`)
    expect(filled).not.toMatch(/<\/script|<!--|\u2028/)
    const value = new Function(`${filled} return e`)() as Record<string, unknown>
    expect(value).toEqual(Object.fromEntries(texts))
  })

  test("a catalog's file is its chunk filled as jsonExpression fills it, escaped on the literal's bytes", () => {
    const texts = new Map<string, unknown>([
      ['q', "It's \\ '' \\\\' \"quoted\" \u2028 日本 😀 ${x} `"],
      ['r', "'"],
    ])
    const literal = catalogLiteral(texts as never)
    const chunk = `var a=${catalogMarker(0, '0')},b=${catalogMarker(1, '0')},c=${catalogMarker(7, '0')};export{a,b,c};`
    const literals = [Buffer.from(literal), '{"s":"\\\\\'"}']
    const bytes = filledCatalogBytes(chunk, (i) => literals[i])!
    const strings = (i: number) => (typeof literals[i] === 'string' ? literals[i] : literals[i]?.toString())
    // The same bytes as the text's fill; a marker of no known locale stays.
    expect(bytes.toString()).toBe(fillCatalogMarkers(chunk, 'c.js', strings, false, jsonExpression)!.code)
    expect(bytes.toString()).toContain(catalogMarker(7, '0'))
    const run = `const __TMS_CATALOG__ = () => null; ${bytes.toString().replace(/export\{.*$/, '')} return [a, b]`
    const value = new Function(run)() as unknown[]
    expect(value).toEqual([Object.fromEntries(texts), { s: "\\'" }])
    expect(filledCatalogBytes('export default 1', () => literal)).toBeNull()
    expect(filledCatalogBytes(chunk, () => undefined)).toBeNull()
  })

  test('a chunk without a marker, or with a marker of no known locale, is left alone', () => {
    for (const sourcemap of [true, false]) {
      expect(fillCatalogMarkers('export default 1', 'c.js', () => fr, sourcemap)).toBeNull()
      expect(
        fillCatalogMarkers(`export default ${catalogMarker(5, 'ff')}`, 'c.js', () => undefined, sourcemap),
      ).toBeNull()
    }
  })

  test('the source map is made only when the bundler writes maps; the code is the same either way', () => {
    const chunk = `const x = 1;\nvar e = ${catalogMarker(0, 'abc123')};\nexport { e as default, x }\n`
    const catalogOf = (i: number) => (i === 0 ? fr : undefined)
    const code = 'const x = 1;\nvar e = ({"a":"Un","b":"Deux"});\nexport { e as default, x }\n'
    const withMap = fillCatalogMarkers(chunk, 'c.js', catalogOf, true)!
    expect(withMap.code).toBe(code)
    expect(JSON.parse(JSON.stringify(withMap.map))).toEqual({
      version: 3,
      file: 'c.js',
      sources: ['c.js'],
      names: [],
      mappings:
        'AAAA,KAAK,CAAC,CAAC,CAAC,CAAC,CAAC,CAAC;AACX,GAAG,CAAC,CAAC,CAAC,CAAC,CAAC,uBAA2B;AACnC,MAAM,CAAC,CAAC,CAAC,CAAC,CAAC,EAAE,CAAC,OAAO,CAAC,CAAC,CAAC,CAAC;',
    })
    expect(fillCatalogMarkers(chunk, 'c.js', catalogOf, false)).toStrictEqual({ code })
  })
})

describe('runtime module', () => {
  test('registers one lazy loader per locale after the runtime code', () => {
    const code = runtimeModule({
      runtime: 'function _r() {}\nfunction _u() {}',
      sourceLocale: 'en-US',
      locales: ['fr-FR', 'en-XA'],
      hot: false,
      chunkNames: true,
    })
    expect(code).toBe(
      'function _r() {}\nfunction _u() {}\n' +
        '_r("en-US", {\n' +
        '  "fr-FR": () => import(/* webpackChunkName: "tms-fr-FR" */ "\\u0000tms/tms-fr-FR.js"),\n' +
        '  "en-XA": () => import(/* webpackChunkName: "tms-en-XA" */ "\\u0000tms/tms-en-XA.js")\n' +
        '});\n',
    )
  })

  test('in the dev server, catalogs pushed over HMR win over the imported chunk, and a loaded one is reported', () => {
    const code = runtimeModule({
      runtime: '',
      sourceLocale: 'en-US',
      locales: ['fr-FR'],
      hot: true,
      chunkNames: false,
    })
    expect(code).toContain(
      '"fr-FR": () => __tms_hot["fr-FR"] ? Promise.resolve({ default: __tms_hot["fr-FR"] }) : import("\\u0000tms/tms-fr-FR.js").then((m) => (__tms_hot["fr-FR"] = m.default, __tms_loaded("fr-FR", m.digest), m))',
    )
    expect(code).toContain(
      'const __tms_loaded = (locale, digest) => import.meta.hot && import.meta.hot.send("tms:loaded", { locale, digest });',
    )
    expect(code).toContain('import.meta.hot.on("tms:catalog", (update) => {')
  })
})

describe('catalog changes (what a dev server pushes after a pull)', () => {
  const plural: CompiledMessage = [['n', 4, 0, { one: [0, ' item'], other: [0, ' items'] }]]
  const before = new Map<string, CompiledMessage>([
    ['a', 'Bonjour'],
    ['b', plural],
    ['c', 'Ouvrir'],
  ])

  test('the changed and added translations, and the ids gone', () => {
    const after = new Map<string, CompiledMessage>([
      ['a', 'Salut'],
      ['b', [['n', 4, 0, { one: [0, ' item'], other: [0, ' items'] }]]],
      ['d', 'Fermer'],
    ])
    expect(catalogChanges(before, after)).toStrictEqual({
      changed: { a: 'Salut', d: 'Fermer' },
      removed: ['c'],
    })
  })

  test('none when every translation is the same (a compiled message made again compares by its literal)', () => {
    const after = new Map(before)
    after.set('b', [['n', 4, 0, { one: [0, ' item'], other: [0, ' items'] }]])
    expect(catalogChanges(before, after)).toBeUndefined()
  })

  test('a compiled message that changed a branch is changed', () => {
    const after = new Map(before)
    after.set('b', [['n', 4, 0, { one: [0, ' article'], other: [0, ' items'] }]])
    expect(catalogChanges(before, after)).toStrictEqual({ changed: { b: after.get('b') }, removed: [] })
  })
})
