import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build as viteBuild } from 'vite'
import { afterEach, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { DiskCache } from '../../src/core/cache'
import type { Options } from '../../src/options'
import {
  type CopiesStore,
  type CopyFile,
  InlineOutput,
  type OutputFile,
} from '../../src/plugin/inline/copies'
import { KeptCopies } from '../../src/plugin/inline/kept-copies'
import type { LocaleTexts } from '../../src/plugin/inline/markers'
import tmsRspack from '../../src/rspack'
import { VERSION } from '../../src/version'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import { type LikeCompiler, runWebpackLike, webpackConfig } from './bundlers'
import { type InlineProject, PROJECT, setupInlineProject, treeOf } from './inline-helpers'

/**
 * The memo of inline copies on a hand-written output: a build with the last build's output and texts
 * takes the kept copies, and every input a copy is made of, changed, makes the copy again. A hit is
 * told from a miss by the memo's bytes: they are altered after the first build, so a copy taken from
 * them shows the alteration and a copy made again does not.
 */

/** A store in memory, counting its writes. */
class MemoryStore implements CopiesStore {
  bytes: Buffer | undefined
  writes = 0
  async read(): Promise<Buffer | undefined> {
    return this.bytes
  }
  async write(bytes: Buffer): Promise<void> {
    this.bytes = bytes
    this.writes++
  }
}

type Table = Record<string, string>
const TEXTS: Record<string, Table> = {
  'fr-FR': { a: 'Ouvrir', b: 'Salut {name}', c: 'plural' },
  'de-DE': { a: 'Öffnen', b: 'Hallo {name}', c: 'plural' },
}
const FORMS: Record<string, Table> = { 'fr-FR': { c: '["fr-form"]' }, 'de-DE': { c: '["de-form"]' } }

/** A locale's texts as the session gives them: looked up as lists of ids, ICU messages with a form. */
function localeTexts(
  locale: string,
  texts: Table = TEXTS[locale]!,
  forms: Table = FORMS[locale]!,
): LocaleTexts {
  return {
    locale,
    text: (id) => texts[id],
    textsOf: (ids) => ids.map((id) => texts[id]),
    formsOf: (ids) => ids.map((id) => forms[id]),
  }
}

const PNG = new Uint8Array([137, 80, 78, 71, 0xde, 0xad, 0xbe, 0xef])

/** An entry with three messages and a source map, a lazy chunk without any, a stylesheet, an image, a page. */
function outputFiles(): OutputFile[] {
  return [
    {
      fileName: 'assets/index-AAAAAAAA.js',
      hash: 'AAAAAAAA',
      source:
        'import "./lazy-BBBBBBBB.js";console.log(__tms_l("a","Open"),__tms_l("b","Hi {name}",{name:n}),__tms_l("c","{n, plural, other {#}}"))',
      map: {
        raw: { version: 3, sources: ['../src/main.ts'], names: [], mappings: 'AAAA' },
        fileName: 'assets/index-AAAAAAAA.js.map',
      },
    },
    { fileName: 'assets/lazy-BBBBBBBB.js', hash: 'BBBBBBBB', source: 'export const lazy = 1' },
    { fileName: 'assets/style-CCCCCCCC.css', hash: 'CCCCCCCC', source: 'body{color:red}' },
    { fileName: 'assets/logo-DDDDDDDD.png', hash: 'DDDDDDDD', source: PNG },
    {
      fileName: 'index.html',
      source: '<html lang="en"><script type="module" src="/assets/index-AAAAAAAA.js"></script></html>',
    },
  ]
}

const LOCALES = ['fr-FR', 'de-DE']

/** Each file of a copy as text (the image as hex), by name. */
function named(files: readonly CopyFile[]): Record<string, string> {
  return Object.fromEntries(
    files.map((f) => [
      f.fileName,
      typeof f.source === 'string'
        ? f.source
        : f.fileName.endsWith('.png')
          ? Buffer.from(f.source).toString('hex')
          : Buffer.from(f.source).toString('utf8'),
    ]),
  )
}

/** One build's copies through the memo, as `emitLocaleCopies` makes them; the memo saved after. */
async function build(
  store: CopiesStore | undefined,
  files: OutputFile[] = outputFiles(),
  texts: (locale: string) => LocaleTexts = (l) => localeTexts(l),
  locales: string[] = LOCALES,
): Promise<Record<string, Record<string, string>>> {
  const copies = await KeptCopies.of(files, store)
  const out: Record<string, Record<string, string>> = {}
  for (const locale of locales) out[locale] = named(copies.copyBytes(texts(locale)))
  await copies.save()
  return out
}

/** The copies made without any memo. */
function made(
  files: OutputFile[] = outputFiles(),
  texts: (locale: string) => LocaleTexts = (l) => localeTexts(l),
  locales: string[] = LOCALES,
): Record<string, Record<string, string>> {
  const output = new InlineOutput(files)
  return Object.fromEntries(locales.map((l) => [l, named(output.copyBytes(texts(l)))]))
}

/** A store holding the first build's memo with its texts altered: what a hit would show. */
async function alteredStore(): Promise<MemoryStore> {
  const store = new MemoryStore()
  await build(store)
  const altered = store.bytes!.toString('latin1').replace('Ouvrir', 'OUVRIR').replace('"Hallo ', '"HALLO ')
  store.bytes = Buffer.from(altered, 'latin1')
  return store
}

const altered = (copies: Record<string, Record<string, string>>): string[] =>
  Object.entries(copies).flatMap(([locale, files]) =>
    Object.values(files).some((text) => /OUVRIR|HALLO/.test(text)) ? [locale] : [],
  )

describe("a build whose output and texts are the last build's", () => {
  test('takes the kept copies: the same bytes as copies made, and no write', async () => {
    const store = new MemoryStore()
    const first = await build(store)
    expect(first).toEqual(made())
    expect(first['fr-FR']!['assets/lazy-BBBBBBBB.js']).toBe('export const lazy = 1')
    expect(Object.values(first['fr-FR']!).join('\n')).toContain('"Ouvrir"')
    expect(store.writes).toBe(1)
    const second = await build(store)
    expect(second).toEqual(first)
    expect(store.writes).toBe(1)
  })

  test('reads the copies from the memo (an altered memo shows in them)', async () => {
    const store = await alteredStore()
    const copies = await build(store)
    expect(altered(copies)).toEqual(['fr-FR', 'de-DE'])
    expect(copies['fr-FR']!['index.html']).toBe(made()['fr-FR']!['index.html'])
  })

  test('keeps a file the bundler made and no copy changes once, by name: the image is not in the memo', async () => {
    const store = new MemoryStore()
    await build(store)
    const memo = store.bytes!
    expect(memo.includes(Buffer.from(PNG))).toBe(false)
    expect(memo.includes(Buffer.from('body{color:red}'))).toBe(false)
    expect(memo.includes(Buffer.from('export const lazy = 1'))).toBe(false)
    const again = await build(store)
    expect(again['de-DE']!['assets/logo-DDDDDDDD.png']).toBe(Buffer.from(PNG).toString('hex'))
    expect(again['de-DE']!['assets/style-CCCCCCCC.css']).toBe('body{color:red}')
  })
})

describe('every input of a copy, changed, makes it again', () => {
  const changedFile = (change: (files: OutputFile[]) => void): OutputFile[] => {
    const files = outputFiles()
    change(files)
    return files
  }
  const outputs: [string, OutputFile[]][] = [
    [
      "a chunk's code",
      changedFile((f) => {
        f[1]!.source = 'export const lazy = 2'
      }),
    ],
    [
      "a file's name",
      changedFile((f) => {
        f[2]!.fileName = 'assets/main-CCCCCCCC.css'
      }),
    ],
    [
      'the hash in a name',
      changedFile((f) => {
        f[2]!.hash = undefined
      }),
    ],
    [
      'an image',
      changedFile((f) => {
        f[3]!.source = new Uint8Array([...PNG, 0])
      }),
    ],
    [
      'a source map',
      changedFile((f) => {
        f[0]!.map!.raw.sources = ['../src/app.ts']
      }),
    ],
  ]
  for (const [what, files] of outputs) {
    test(`the output: ${what}`, async () => {
      const store = await alteredStore()
      const copies = await build(store, files)
      expect(altered(copies)).toEqual([])
      expect(copies).toEqual(made(files))
      expect(store.writes).toBe(2)
    })
  }

  test("the bundler's order of the same files is not a change: the kept copies are taken", async () => {
    const store = await alteredStore()
    const copies = await build(store, outputFiles().reverse())
    expect(altered(copies)).toEqual(['fr-FR', 'de-DE'])
    expect(store.writes).toBe(1)
  })

  test("one locale's text: that copy is made again, the other is kept", async () => {
    const store = await alteredStore()
    const texts = (l: string) => localeTexts(l, l === 'de-DE' ? { ...TEXTS[l], a: 'Aufmachen' } : TEXTS[l])
    const copies = await build(store, outputFiles(), texts)
    expect(altered(copies)).toEqual(['fr-FR'])
    expect(copies['de-DE']).toEqual(made(outputFiles(), texts)['de-DE'])
    expect(Object.values(copies['de-DE']!).join('\n')).toContain('"Aufmachen"')
    // The memo now holds this build's copies: the kept one and the one made.
    expect(await build(store, outputFiles(), texts)).toEqual(copies)
    expect(store.writes).toBe(2)
  })

  test("one locale's compiled form of an ICU message", async () => {
    const store = await alteredStore()
    const texts = (l: string) => localeTexts(l, TEXTS[l], l === 'fr-FR' ? { c: '["fr-form-2"]' } : FORMS[l])
    const copies = await build(store, outputFiles(), texts)
    expect(altered(copies)).toEqual(['de-DE'])
    expect(Object.values(copies['fr-FR']!).join('\n')).toContain('["fr-form-2"]')
  })

  test('a locale the memo has no copy of', async () => {
    const store = await alteredStore()
    const texts = (l: string) =>
      localeTexts(
        l === 'fr-CA' ? 'fr-CA' : l,
        TEXTS[l === 'fr-CA' ? 'fr-FR' : l],
        FORMS[l === 'fr-CA' ? 'fr-FR' : l],
      )
    const copies = await build(store, outputFiles(), texts, ['fr-CA', 'de-DE'])
    expect(altered(copies)).toEqual(['de-DE'])
    expect(copies['fr-CA']).toEqual(made(outputFiles(), texts, ['fr-CA'])['fr-CA'])
  })

  const spoiled: [string, (memo: Buffer) => Buffer][] = [
    [
      'another version wrote it',
      (m) => Buffer.from(m.toString('latin1').replace(VERSION, `${VERSION}-next`), 'latin1'),
    ],
    ['it is cut short', (m) => m.subarray(0, m.length - 1)],
    ['it has a byte too many', (m) => Buffer.concat([m, Buffer.from('x')])],
    [
      'its index is not JSON',
      (m) => Buffer.from(m.toString('latin1').replace('{"output"', '{output'), 'latin1'),
    ],
    [
      "it names as the output's own a file the output does not have",
      (m) =>
        Buffer.from(
          m.toString('latin1').replace('"assets/lazy-BBBBBBBB.js",-1]', '"assets/gone-BBBBBBBB.js",-1]'),
          'latin1',
        ),
    ],
    [
      'its index names a length that is not one',
      (m) => Buffer.from(m.toString('latin1').replace(/,-1\]/, ',-2]'), 'latin1'),
    ],
  ]
  for (const [what, spoil] of spoiled) {
    test(`a memo that cannot be the one written: ${what}`, async () => {
      const store = await alteredStore()
      store.bytes = spoil(store.bytes!)
      const copies = await build(store)
      expect(altered(copies)).toEqual([])
      expect(copies).toEqual(made())
    })
  }

  test('a store that cannot be read', async () => {
    const copies = await build({ read: async () => undefined, write: async () => {} })
    expect(copies).toEqual(made())
  })
})

/** The JS of a locale's copy under `outDir` (its `.js` and `.mjs` files), as text. */
function copyJs(outDir: string, locale: string): string {
  return [...treeOf(join(outDir, locale))]
    .filter(([file]) => /\.m?js$/.test(file))
    .map(([, bytes]) => bytes.toString('utf8'))
    .join('\n')
}

/** The one kept-copies memo of the project's cache: its path and its bytes. */
function onlyMemo(project: InlineProject): { file: string; bytes: Buffer } {
  const memos = readdirSync(join(project.cacheDir, 'inline'))
  expect(memos).toHaveLength(1)
  const file = join(project.cacheDir, 'inline', memos[0]!)
  return { file, bytes: readFileSync(file) }
}

describe('vite builds in a row, one cache', () => {
  let project: InlineProject

  afterEach(() => project?.close())

  test('a build takes the kept copies; a changed translation remakes its locale, a changed module all', async () => {
    project = await setupInlineProject(['fr-FR', 'de-DE'])
    // Each build into a directory of its own: the memo is the output's, wherever it is written.
    let builds = 0
    let out = ''
    const run = () => {
      out = join(project.root, `dist-${++builds}`)
      return viteBuild({
        root: project.root,
        configFile: false,
        logLevel: 'silent',
        plugins: [tmsVite(project.options())],
        build: { outDir: out, emptyOutDir: true },
      })
    }
    const copyText = (locale: string): string => copyJs(out, locale)
    await run()
    const first = treeOf(out)
    const { file: memoFile, bytes: written } = onlyMemo(project)
    expect(copyText('fr-FR')).toContain('"Pqfo"')
    expect(copyText('de-DE')).toContain('"Qrgp"')

    await run()
    expect(treeOf(out)).toEqual(first)
    // Nothing was made: the memo is the first build's.
    expect(readFileSync(memoFile)).toEqual(written)

    // Altered, the memo shows in the next build's copies: they are read from it.
    writeFileSync(
      memoFile,
      written.toString('latin1').replace('"Pqfo"', '"PQFO"').replace('"Qrgp"', '"QRGP"'),
      'latin1',
    )
    await run()
    expect(copyText('fr-FR')).toContain('"PQFO"')
    expect(copyText('de-DE')).toContain('"QRGP"')

    // A pull brought a new French text of "Open": the French copy is made again, the German one kept.
    const cache = new DiskCache(project.cacheDir, PROJECT)
    const manifest = await cache.readManifest()
    if (!manifest.hit) throw new Error('no manifest')
    const open = project.messages.find((m) => m.text === 'Open')!
    await cache.writeLocale('fr-FR', 'published', { [manifest.value.entries[open.key]!.hashcode]: 'Ouvrir' })
    await run()
    expect(copyText('fr-FR')).toContain('"Ouvrir"')
    expect(copyText('fr-FR')).not.toContain('PQFO')
    expect(copyText('de-DE')).toContain('"QRGP"')

    // A module changed: the output is another, every copy is made again.
    const plain = join(project.root, 'src', 'plain.js')
    writeFileSync(plain, `${readFileSync(plain, 'utf8')}export const count = (values) => values.length\n`)
    await run()
    expect(copyText('de-DE')).toContain('"Qrgp"')
    expect(copyText('de-DE')).not.toContain('QRGP')
    expect(copyText('de-DE')).toContain('.length')
  }, 60_000)
})

describe('texts with a name (the key the catalog memo keeps them under)', () => {
  /** The locale's texts under `name`, counting how often they are looked up. */
  const named = (name: string, table: Table = TEXTS['fr-FR']!) => {
    const asked = { count: 0 }
    const base = localeTexts('fr-FR', table)
    const texts: LocaleTexts = {
      ...base,
      textsOf: (ids) => {
        asked.count++
        return base.textsOf!(ids)
      },
      slotsName: () => name,
    }
    return { texts, asked }
  }

  test('a build whose texts have the name of the kept copy takes it without looking them up', async () => {
    const store = new MemoryStore()
    const first = named('K1')
    const made = await build(store, outputFiles(), () => first.texts, ['fr-FR'])
    expect(first.asked.count).toBe(1)
    const again = named('K1')
    expect(await build(store, outputFiles(), () => again.texts, ['fr-FR'])).toEqual(made)
    expect(again.asked.count).toBe(0)
    expect(store.writes).toBe(1)
  })

  test('another name makes the copy again, of the texts it looks up', async () => {
    const store = new MemoryStore()
    await build(store, outputFiles(), () => named('K1').texts, ['fr-FR'])
    const table = { ...TEXTS['fr-FR']!, a: 'Ouvrez' }
    const other = named('K2', table)
    const copies = await build(store, outputFiles(), () => other.texts, ['fr-FR'])
    expect(other.asked.count).toBe(1)
    expect(Object.values(copies['fr-FR']!).join('\n')).toContain('"Ouvrez"')
    expect(store.writes).toBe(2)
  })

  test('texts with a name never answer for a copy kept by its digest, nor the other way', async () => {
    const store = new MemoryStore()
    await build(store, outputFiles(), (l) => localeTexts(l), ['fr-FR'])
    const withName = named('K1')
    await build(store, outputFiles(), () => withName.texts, ['fr-FR'])
    expect(withName.asked.count).toBe(1)
    expect(store.writes).toBe(2)
    await build(store, outputFiles(), (l) => localeTexts(l), ['fr-FR'])
    expect(store.writes).toBe(3)
  })
})

describe('webpack and rspack builds in a row, one cache', () => {
  let project: InlineProject

  afterEach(() => project?.close())

  const compilers: [string, () => Promise<(config: object) => LikeCompiler>, (o: Options) => unknown][] = [
    ['webpack', async () => (c) => webpack(c as webpack.Configuration) as never, tmsWebpack],
    [
      'rspack',
      async () => {
        const { rspack } = await import('@rspack/core')
        return (c) => rspack(c as never) as never
      },
      tmsRspack,
    ],
  ]
  for (const [name, compiler, plugin] of compilers) {
    test(`${name}: a build takes the kept copies, the same files as the build that made them`, async () => {
      project = await setupInlineProject(['fr-FR', 'de-DE'])
      const create = await compiler()
      let builds = 0
      let out = ''
      const run = async () => {
        out = join(project.root, `dist-${++builds}`)
        const config = webpackConfig(project.root, out, plugin(project.options()), 'production')
        await runWebpackLike(create, { ...config, devtool: 'source-map' })
      }
      const frText = (): string => copyJs(out, 'fr-FR')
      await run()
      const first = treeOf(out)
      const { file: memoFile, bytes: written } = onlyMemo(project)
      expect(frText()).toContain('"Pqfo"')

      await run()
      expect(treeOf(out)).toEqual(first)
      expect(readFileSync(memoFile)).toEqual(written)

      writeFileSync(memoFile, written.toString('latin1').replaceAll('"Pqfo"', '"PQFO"'), 'latin1')
      await run()
      expect(frText()).toContain('"PQFO"')
      expect(frText()).not.toContain('"Pqfo"')
    }, 60_000)
  }
})
