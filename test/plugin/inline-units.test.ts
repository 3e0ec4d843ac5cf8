import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { InlineOutput } from '../../src/plugin/inline/copies'
import { hashFromPattern, hashFromPreliminary, replacementsDigest } from '../../src/plugin/inline/hashes'
import { localizeHtml } from '../../src/plugin/inline/html'
import { findSites, type LocaleTexts, quickSites, renderSites } from '../../src/plugin/inline/markers'
import { lineStarts, rebaseSources, shiftMappings } from '../../src/plugin/inline/sourcemap'
import { decodeMappings } from './inline-helpers'

/**
 * The parts of inline mode on hand-written chunks: what a message call becomes (exact code, and what
 * it evaluates to), source map shifts, hashes in names, the HTML element, and the renaming of a small
 * output with a cycle.
 */

const texts = (table: Record<string, string>, locale = 'fr-FR'): LocaleTexts => ({
  locale,
  text: (id) => table[id],
})

/** `code` is a function body (it may `return`); it is parsed inside a function, as chunks hold them. */
function inline(code: string, table: Record<string, string>, locale?: string): string {
  const wrapped = `function f() {\n${code}\n}`
  const out = renderSites(
    wrapped,
    findSites(wrapped, 'chunk.js').sites,
    texts(table, locale),
    'chunk.js',
  ).code
  return out.slice('function f() {\n'.length, -'\n}'.length)
}

/** Runs a chunk body (sloppy mode, as a classic script) and returns what it returns. */
function run(code: string): unknown {
  return new Function(code)()
}

describe('message calls', () => {
  test('no values: a string literal', () => {
    expect(inline('return __tms_l("a", "Open")', { a: 'Ouvrir' })).toBe('return "Ouvrir"')
    expect(inline('return __tms_l(`a`, `Open`, void 0)', { a: 'Ouvrir' })).toBe('return "Ouvrir"')
    // Placeholders with no values stay as they are, as the runtime leaves them.
    expect(inline('return __tms_l("a", "Hi {name}", null)', { a: 'Salut {name}' })).toBe(
      'return "Salut {name}"',
    )
  })

  test('an object literal of plain values: a concatenation in the translation order', () => {
    const code = 'const n = "Ada", c = 3; return __tms_l("a", "{name} has {count}", {name:n,count:c})'
    const out = inline(code, { a: '{count} pour {name} ({other})' })
    expect(out).toBe(
      'const n = "Ada", c = 3; return "".concat(function(x){return x==null||x===!1?"":String(x)}(c)," pour ",function(x){return x==null||x===!1?"":String(x)}(n)," (","",")")',
    )
    // A placeholder the values lack prints nothing, as an absent value does at run time.
    expect(run(out)).toBe('3 pour Ada ()')
  })

  test('any other values expression is evaluated once, in place, and read like the runtime does', () => {
    const code =
      'let calls = 0; const v = () => (calls++, { name: "Ada" }); const r = __tms_l("a", "Hi {name}", v()); return [r, calls]'
    const out = inline(code, { a: 'Salut {name} et {absent}' })
    expect(run(out)).toEqual(['Salut Ada et ', 1])
    expect(run(inline('return __tms_l("a", "Hi {name}", undefined)', { a: 'Salut {name}' }))).toBe(
      'Salut {name}',
    )
    // An array gives {0}, {1}; a getter is read as any property.
    expect(run(inline('return __tms_l("a", "{0}-{1}", ["x", "y"])', { a: '{1}+{0}' }))).toBe('y+x')
  })

  test('a message inside another message values is inlined as well', () => {
    const code = 'return __tms_l("a", "Signed in as {user}", {user:__tms_l("b", "Guest")})'
    const out = inline(code, { a: 'Connecté : {user}', b: 'Invité' })
    expect(out).toBe(
      'return "Connecté : ".concat(function(x){return x==null||x===!1?"":String(x)}("Invité"))',
    )
  })

  test('a translation cannot break out of its string: quotes, script end tags, line separators', () => {
    const hostile = '"); globalThis.pwned = 1; ("</script><script>pwned=1</script>\u2028\u2029`${x}`'
    const out = inline('return __tms_l("a", "X {n}", {n:1})', { a: `${hostile} {n}` })
    expect(out).not.toMatch(/<\/script/i)
    expect(out).not.toMatch(/[\u2028\u2029]/)
    // `{x}` in it is a placeholder the values lack: it prints nothing.
    expect(run(out)).toBe(`${hostile.replace('{x}', '')} 1`)
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined()
  })

  test('a replacement at the start of a line does not join the line before (no leading parenthesis)', () => {
    const code = 'const id = () => { throw new Error("called") }\n__tms_l("a", "A {n}", {n:2})\nreturn 1'
    const out = inline(code, { a: 'Un {n}' })
    expect(out.split('\n')[1]).toBe('"Un ".concat(function(x){return x==null||x===!1?"":String(x)}(2))')
    expect(run(out)).toBe(1)
  })

  test('a lone literal cannot become a directive', () => {
    const code = 'function f() { __tms_l("a", "x"); return this }\nreturn f() === globalThis'
    expect(run(inline(code, { a: 'use strict' }))).toBe(true)
  })

  test('the locale call and the directory token', () => {
    const code = 'const l = __tms_locale(); const u = "/app/__tms_locale_dir__/assets/x.js"; return [l, u]'
    expect(run(inline(code, {}, 'de-DE'))).toEqual(['de-DE', '/app/de-DE/assets/x.js'])
  })

  test('an unknown id and a call in an unexpected shape are errors naming the chunk', () => {
    expect(() => inline('__tms_l("zz", "x")', {})).toThrow(/chunk\.js uses message id zz/)
    expect(() => findSites('__tms_l(id, "x")', 'chunk.js')).toThrow(/chunk\.js has 1 message call/)
    expect(findSites('eval("__tms_l(\\"a\\", \\"x\\")")', 'chunk.js').unparsed).toBe(1)
  })
})

describe('source maps', () => {
  const VLQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const vlq = (n: number): string => {
    let v = n < 0 ? (-n << 1) | 1 : n << 1
    let out = ''
    do {
      let d = v & 31
      v >>>= 5
      if (v > 0) d |= 32
      out += VLQ[d]
    } while (v > 0)
    return out
  }
  /** Mappings from [genLine][genCol, src, line, col] with absolute numbers. */
  const encode = (lines: [number, number, number, number][][]): string => {
    let prev = [0, 0, 0]
    return lines
      .map((segments) => {
        let col = 0
        return segments
          .map(([c, s, l, oc]) => {
            const out = vlq(c - col) + vlq(s - prev[0]!) + vlq(l - prev[1]!) + vlq(oc - prev[2]!)
            col = c
            prev = [s, l, oc]
            return out
          })
          .join(',')
      })
      .join(';')
  }

  test('segments after a replacement move by its change in length; the first inside goes to its start', () => {
    const code = 'aa;__tms_l("x","T");bb'
    // Inside the call: its start, then two tokens (one from another source) that a lookup at the
    // replacement's column must not find, or it would point at the end of the original call.
    const mappings = encode([
      [
        [0, 0, 0, 0],
        [3, 0, 0, 3],
        [11, 1, 4, 9],
        [15, 0, 0, 12],
        [20, 0, 1, 0],
      ],
    ])
    const { code: out, edits } = renderSites(code, findSites(code, 'c.js').sites, texts({ x: 'Tr' }), 'c.js')
    expect(out).toBe('aa;"Tr";bb')
    const shifted = shiftMappings(mappings, lineStarts(code), edits, lineStarts(out))
    expect(decodeMappings(shifted)).toEqual([
      [
        [0, 0, 0, 0],
        [3, 0, 0, 3],
        [8, 0, 1, 0],
      ],
    ])
  })

  test('a replacement that removes line breaks moves the later lines up', () => {
    const code = 'x\n__tms_l("a","A {n}",{n:\nb})\ny'
    const mappings = encode([[[0, 0, 0, 0]], [[0, 0, 1, 0]], [[0, 0, 2, 0]], [[0, 0, 3, 0]]])
    const { code: out, edits } = renderSites(
      code,
      findSites(code, 'c.js').sites,
      texts({ a: 'Un {n}' }),
      'c.js',
    )
    expect(out).toBe('x\n"Un ".concat(function(x){return x==null||x===!1?"":String(x)}(b))\ny')
    expect(decodeMappings(shiftMappings(mappings, lineStarts(code), edits, lineStarts(out)))).toEqual([
      [[0, 0, 0, 0]],
      [[0, 0, 1, 0]],
      [[0, 0, 3, 0]],
    ])
  })

  test('mappings that are not base64 VLQ fail naming inline mode', () => {
    const code = 'aa;__tms_l("x","T");bb'
    const { edits, code: out } = renderSites(code, findSites(code, 'c.js').sites, texts({ x: 'Tr' }), 'c.js')
    expect(() => shiftMappings('AAAA,G!AA', lineStarts(code), edits, lineStarts(out))).toThrow(
      '[unplugin-tms] inline mode: a source map has invalid mappings',
    )
  })

  test('relative sources gain one level; URLs and absolute paths stay', () => {
    const map = {
      version: 3,
      sources: ['../src/a.js', 'webpack://app/./b.js', '/abs/c.js', null],
      names: [],
      mappings: '',
    }
    expect(rebaseSources(map).sources).toEqual(['../../src/a.js', 'webpack://app/./b.js', '/abs/c.js', null])
    expect(rebaseSources({ ...map, sourceRoot: '../src/' })).toEqual({
      sources: map.sources,
      sourceRoot: '../../src/',
    })
  })
})

describe('hashes in names', () => {
  test('from rollup preliminary names and from asset patterns', () => {
    expect(hashFromPreliminary('assets/index-BHkV_u3e.js', 'assets/index-!~{000}~.js')).toBe('BHkV_u3e')
    expect(hashFromPreliminary('main.js', 'main.js')).toBeUndefined()
    expect(hashFromPattern('assets/index-W1erjkBN.css', 'assets/[name]-[hash].[ext]')).toBe('W1erjkBN')
    expect(hashFromPattern('assets/logo-abc12345.svg', 'assets/[name]-[hash:8][extname]')).toBe('abc12345')
    expect(hashFromPattern('assets/logo.svg', 'assets/[name][extname]')).toBeUndefined()
    expect(hashFromPattern('assets/my-logo-AbC-Ef12.svg', 'assets/[name]-[hash][extname]')).toBe('AbC-Ef12')
  })

  /** a imports b (no message) and c; c imports a (a cycle); d holds nothing and names nothing. */
  const files = () => [
    {
      fileName: 'a-AAAAAAAA.js',
      hash: 'AAAAAAAA',
      source: 'import "./b-BBBBBBBB.js";import "./c-CCCCCCCC.js";__tms_l("m","Open")',
    },
    { fileName: 'b-BBBBBBBB.js', hash: 'BBBBBBBB', source: 'export const b = 1' },
    { fileName: 'c-CCCCCCCC.js', hash: 'CCCCCCCC', source: 'import "./a-AAAAAAAA.js"' },
    { fileName: 'd-DDDDDDDD.js', hash: 'DDDDDDDD', source: 'export const d = 1' },
    {
      fileName: 'index.html',
      source: '<html><script src="/__tms_locale_dir__/a-AAAAAAAA.js"></script></html>',
    },
  ]

  test('a file whose content or whose references change is renamed from its content; the others keep their name', () => {
    const output = new InlineOutput(files())
    const fr = output.copy(texts({ m: 'Ouvrir' }))
    const names = fr.map((f) => f.fileName)
    expect(names[1]).toBe('b-BBBBBBBB.js')
    expect(names[3]).toBe('d-DDDDDDDD.js')
    expect(names[0]).toMatch(/^a-[\w-]{8}\.js$/)
    expect(names[2]).toMatch(/^c-[\w-]{8}\.js$/)
    expect(names[0]).not.toBe('a-AAAAAAAA.js')
    expect(names[2]).not.toBe('c-CCCCCCCC.js')
    const a = names[0]!.slice(2, 10)
    const c = names[2]!.slice(2, 10)
    expect(fr[0]!.source).toBe(`import "./b-BBBBBBBB.js";import "./c-${c}.js";"Ouvrir"`)
    expect(fr[2]!.source).toBe(`import "./a-${a}.js"`)
    expect(fr[4]!.source).toBe(`<html lang="fr-FR"><script src="/fr-FR/a-${a}.js"></script></html>`)
    // The name follows the content: a's own text (the bundler's text and what replaces its sites, which
    // make that text) and the texts of what it names, with old hashes.
    const digest = (s: string) => createHash('sha256').update(s).digest('base64url')
    const bundled = digest('import "./b-BBBBBBBB.js";import "./c-CCCCCCCC.js";__tms_l("m","Open")')
    const expected = createHash('sha256')
      .update(`${digest(`${bundled}\0${'"Ouvrir"'.length}\0"Ouvrir"`)}\0`)
      .update(`${digest('export const b = 1')}\0`)
      .update(`${digest('import "./a-AAAAAAAA.js"')}\0`)
      .digest('base64url')
      .slice(0, 8)
    expect(a).toBe(expected)
  })

  test('the digest of replaced sites tells apart lists that join into the same text', () => {
    expect(replacementsDigest('base', ['"ab"', '"c"'])).toBe(replacementsDigest('base', ['"ab"', '"c"']))
    expect(replacementsDigest('base', ['"ab', '""c"'])).not.toBe(replacementsDigest('base', ['"ab"', '"c"']))
    expect(replacementsDigest('other', ['"ab"', '"c"'])).not.toBe(replacementsDigest('base', ['"ab"', '"c"']))
  })

  test('two locales with the same text share names; with different text they never do', () => {
    const output = new InlineOutput(files())
    const one = output.copy(texts({ m: 'Ouvrir' }, 'fr-FR'))
    const same = output.copy(texts({ m: 'Ouvrir' }, 'fr-CA'))
    const other = output.copy(texts({ m: 'Öffnen' }, 'de-DE'))
    expect(same.slice(0, 4).map((f) => f.fileName)).toEqual(one.slice(0, 4).map((f) => f.fileName))
    expect(other[0]!.fileName).not.toBe(one[0]!.fileName)
    expect(other[2]!.fileName).not.toBe(one[2]!.fileName)
  })
})

test('files that share a hash are renamed together', () => {
  const output = new InlineOutput([
    {
      fileName: 'page.1234abcd.js',
      hash: '1234abcd',
      source: 'import "./page.1234abcd.css";__tms_l("m","Open")',
    },
    { fileName: 'page.1234abcd.css', hash: '1234abcd', source: 'body{}' },
    { fileName: 'main.js', source: 'import("./page.1234abcd.js")' },
  ])
  const fr = output.copy(texts({ m: 'Ouvrir' }))
  const de = output.copy(texts({ m: 'Öffnen' }))
  const hashOf = (name: string) => /page\.([0-9a-f]{8})\./.exec(name)![1]
  expect(hashOf(fr[0]!.fileName)).toBe(hashOf(fr[1]!.fileName))
  expect(hashOf(fr[0]!.fileName)).not.toBe(hashOf(de[0]!.fileName))
  expect(fr[2]!.source).toBe(`import("./page.${hashOf(fr[0]!.fileName)}.js")`)
})

test('a copy as bytes holds the text copy byte for byte, and leaves the bytes other copies share alone', () => {
  const output = new InlineOutput([
    // Non-ASCII text before a hashed name: its byte offset is not its character offset.
    {
      fileName: 'a-AAAAAAAA.js',
      hash: 'AAAAAAAA',
      source: '__tms_l("m","Open");import "./b-BBBBBBBB.js";__tms_l("n","Close")',
    },
    // No site, but it names a renamed file: its shared bytes are copied before the new hash goes in.
    { fileName: 'b-BBBBBBBB.js', hash: 'BBBBBBBB', source: 'export const é = "ü";import "./c-CCCCCCCC.js"' },
    { fileName: 'c-CCCCCCCC.js', hash: 'CCCCCCCC', source: 'export default __tms_l("m","Open")' },
    { fileName: 'style-DDDDDDDD.css', hash: 'DDDDDDDD', source: 'body{}' },
    {
      fileName: 'index.html',
      source: '<html><script src="/__tms_locale_dir__/a-AAAAAAAA.js"></script></html>',
    },
    { fileName: 'logo.png', source: new Uint8Array([137, 80, 78, 71]) },
    // Non-ASCII before and between its sites, a hashed name after them: byte and character offsets
    // part from the first character.
    {
      fileName: 'e-EEEEEEEE.js',
      hash: 'EEEEEEEE',
      source: 'const é="ü";f(__tms_l("n","Close"),"ß",__tms_l("m","Open"));import "./c-CCCCCCCC.js"',
    },
  ])
  const bytes = (source: string | Uint8Array) => Buffer.from(source as string)
  const ja = texts({ m: '開く', n: '閉じる' }, 'ja-JP')
  const jaBytes = output.copyBytes(ja)
  const jaText = output.copy(ja)
  const de = texts({ m: 'Öffnen', n: 'Schließen' }, 'de-DE')
  const deBytes = output.copyBytes(de)
  const deText = output.copy(de)
  for (const [asBytes, asText] of [
    [jaBytes, jaText],
    [deBytes, deText],
  ] as const) {
    expect(asBytes.map((f) => f.fileName)).toEqual(asText.map((f) => f.fileName))
    expect(asBytes.map((f) => bytes(f.source))).toEqual(asText.map((f) => bytes(f.source)))
  }
  expect(jaText[0]!.source).toBe(`"開く";import "./${jaText[1]!.fileName}";"閉じる"`)
  expect(jaText[1]!.source).toBe(`export const é = "ü";import "./${jaText[2]!.fileName}"`)
  expect(jaText[1]!.fileName).not.toBe(deText[1]!.fileName)
  expect(jaText[6]!.source).toBe(`const é="ü";f("閉じる","ß","開く");import "./${jaText[2]!.fileName}"`)
  // Files no copy changes are the same bytes in every copy.
  expect(deBytes[3]!.source).toBe(jaBytes[3]!.source)
})

test('a copy asks for the texts of its message ids once, each id once, when the texts can list them', () => {
  const output = new InlineOutput([
    { fileName: 'a.js', source: 'f(__tms_l("m","Open"),__tms_l("n","Hi {u}",{u:__tms_l("g","Guest")}))' },
    { fileName: 'b.js', source: 'g(__tms_l("m","Open"))' },
  ])
  const asked: string[][] = []
  const table: Record<string, string> = { m: 'Ouvrir', n: 'Salut {u}', g: 'Invité' }
  const listing: LocaleTexts = {
    locale: 'fr-FR',
    text: () => {
      throw new Error('looked up one by one')
    },
    textsOf: (ids) => {
      asked.push([...ids])
      return ids.map((id) => table[id])
    },
  }
  const fr = output.copy(listing)
  expect(asked).toEqual([['m', 'n', 'g']])
  expect(fr.map((f) => f.source)).toEqual([
    'f("Ouvrir","Salut ".concat(function(x){return x==null||x===!1?"":String(x)}("Invité")))',
    'g("Ouvrir")',
  ])
  // Texts that cannot list them are asked per id, once per copy too.
  const one: string[] = []
  output.copy({
    locale: 'de-DE',
    text: (id) => {
      one.push(id)
      return table[id]
    },
  })
  expect(one).toEqual(['m', 'n', 'g'])
})

describe('the page element', () => {
  test('lang is set or replaced; dir follows right-to-left locales', () => {
    expect(localizeHtml('<!doctype html>\n<html lang="en">\n<body></body></html>', 'fr-FR')).toBe(
      '<!doctype html>\n<html lang="fr-FR">\n<body></body></html>',
    )
    expect(localizeHtml("<html class='x'><body>", 'ar-XB')).toBe(
      '<html class=\'x\' lang="ar-XB" dir="rtl"><body>',
    )
    expect(localizeHtml('<html dir="rtl" lang=he>', 'de-DE')).toBe('<html dir="ltr" lang="de-DE">')
    expect(localizeHtml('<div>fragment</div>', 'de-DE')).toBe('<div>fragment</div>')
  })
})

describe('the quick reading of common call shapes agrees with the parse', () => {
  // Minifiers' and rollup's printing of the shapes the transform writes.
  const shapes = [
    '__tms_l(`a`,`Open`)',
    '__tms_l("a", \'Open\', void 0)',
    "__tms_l('a', 'It\\'s {n}', { n })",
    '__tms_l("a","Hi {name}",{name:e,count:`x`,"k-2":3,0:1.5})',
    '__tms_l("a",`Hi {name}`,data)',
    '__tms_l("a", \'B\',\n)',
    '__tms_l(\n  "a",\n  "Hi {name}",\n  {\n    name: user,\n  }\n)',
    '__tms_locale()',
  ]
  // A call the quick reading does not take: the chunk is then parsed whole.
  const parsedTail = ';__tms_l("z","Z",f())'

  test.each(shapes)('%s', (shape) => {
    const code = `var e=1,user=2,data={};x=${shape}`
    expect(quickSites(code)).toHaveLength(1)
    expect(quickSites(code + parsedTail)).toHaveLength(1)
    const quick = findSites(code, 'q.js')
    const parsed = findSites(code + parsedTail, 'q.js')
    expect(quick.unparsed).toBe(0)
    expect(quick.sites).toHaveLength(1)
    expect(parsed.sites.slice(0, -1)).toEqual(quick.sites)
  })
})
