import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { type Plugin, build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { filledCatalogPreloads } from '../../src/plugin/preload-plugin'
import type { OutputFiles } from '../../src/plugin/rollup-like'
import { catalogModuleId } from '../../src/plugin/virtual'
import tmsVite from '../../src/vite'
import { outputFiles } from './bundlers'
import { fillCache, type Project, setupProject } from './helpers'

/**
 * In a vite build the plugin writes the catalog loaders' preload lists (`[]`: a catalog's own chunk
 * needs nothing beside it) before vite's generateBundle, which then has no chunk to read back and lex
 * for them; the output is, byte for byte, what vite writes itself. Any other dynamic import in a chunk
 * leaves all of its markers to vite.
 */

const DIGEST = '0123456789abcdef0123456789abcdef'
const MARKER = `__VITE_PRELOAD__${DIGEST}`

/** A bundle holding a catalog's own chunk for fr-FR, and what else a test puts beside it. */
function bundleOf(
  extra: Partial<Record<string, unknown>> = {},
  catalog: Record<string, unknown> = {},
): OutputFiles {
  const id = catalogModuleId('fr-FR')
  return {
    'assets/tms-fr-FR-a1.js': {
      type: 'chunk',
      code: 'export default {}',
      facadeModuleId: id,
      moduleIds: [id],
      imports: [],
      viteMetadata: { importedCss: new Set() },
      ...catalog,
    },
    ...extra,
  } as OutputFiles
}

describe('filledCatalogPreloads', () => {
  const loader = (quote = '`') => `h(()=>import(${quote}./tms-fr-FR-a1.js${quote}),${MARKER})`

  test("each marker of a catalog loader becomes vite's empty list", () => {
    const code = `a;${loader()};b;${loader('"')}`
    expect(filledCatalogPreloads(code, 'assets/index.js', bundleOf())).toBe(
      'a;h(()=>import(`./tms-fr-FR-a1.js`),[]);b;h(()=>import("./tms-fr-FR-a1.js"),[])',
    )
  })

  test('a chunk with no marker is left alone', () => {
    expect(filledCatalogPreloads('h(()=>import(`./x.js`))', 'assets/index.js', bundleOf())).toBeUndefined()
  })

  test('any other import, or a catalog chunk with something beside it, leaves the whole chunk to vite', () => {
    const other = `${loader()};h(()=>import(\`./later-b2.js\`),${MARKER})`
    const later = {
      'assets/later-b2.js': {
        type: 'chunk',
        code: '',
        facadeModuleId: '/src/later.js',
        moduleIds: ['/src/later.js'],
      },
    }
    expect(filledCatalogPreloads(other, 'assets/index.js', bundleOf(later))).toBeUndefined()
    expect(
      filledCatalogPreloads(loader(), 'assets/index.js', bundleOf({}, { imports: ['assets/rt.js'] })),
    ).toBeUndefined()
    const css = { viteMetadata: { importedCss: new Set(['assets/x.css']) } }
    expect(filledCatalogPreloads(loader(), 'assets/index.js', bundleOf({}, css))).toBeUndefined()
    // Relative to the importing chunk: from the root, `./tms-fr-FR-a1.js` is no file of the bundle.
    expect(filledCatalogPreloads(loader(), 'index.js', bundleOf())).toBeUndefined()
  })

  test("a marker without vite 8's digest (vite 5 to 7) is left to vite", () => {
    expect(filledCatalogPreloads(loader().replace(DIGEST, ''), 'assets/index.js', bundleOf())).toBeUndefined()
    expect(
      filledCatalogPreloads(
        'h(()=>import(`./tms-fr-FR-a1.js`),"__VITE_PRELOAD__")',
        'assets/index.js',
        bundleOf(),
      ),
    ).toBeUndefined()
  })
})

describe('a vite build', () => {
  let project: Project

  beforeAll(async () => {
    project = await setupProject()
    await fillCache(project)
  }, 60_000)

  afterAll(async () => {
    await project?.close()
  })

  /** The plugin's plugins, without the one that fills the preload lists when `fill` is false. */
  const tmsPlugins = (fill: boolean): Plugin[] =>
    ([tmsVite(project.options({ cache: 'offline' }))].flat() as Plugin[]).filter(
      (p) => fill || !(typeof p.generateBundle === 'object' && p.generateBundle.order === 'pre'),
    )

  /** Each output file's text by its path, and the preload markers each chunk held when vite's generateBundle began. */
  async function build(
    fill: boolean,
  ): Promise<{ files: Map<string, string>; markers: Record<string, number> }> {
    const markers: Record<string, number> = {}
    const probe: Plugin = {
      name: 'probe',
      generateBundle: {
        order: 'pre',
        handler(_output, bundle) {
          for (const [name, file] of Object.entries(bundle))
            if (file.type === 'chunk') markers[name] = file.code.match(/__VITE_PRELOAD__/g)?.length ?? 0
        },
      },
    }
    const outDir = join(project.root, fill ? 'dist-filled' : 'dist-vite')
    rmSync(outDir, { recursive: true, force: true })
    await viteBuild({
      root: project.root,
      configFile: false,
      logLevel: 'silent',
      plugins: [...tmsPlugins(fill), probe],
      build: { outDir, emptyOutDir: true },
    })
    const files = new Map([...outputFiles(outDir)].map(([file, text]) => [relative(outDir, file), text]))
    return { files, markers }
  }

  const entryOf = (markers: Record<string, number>): string =>
    Object.keys(markers).find((name) => name.startsWith('assets/index-'))!

  test("vite meets no catalog loader's marker, and writes what it writes itself", async () => {
    const filled = await build(true)
    const own = await build(false)
    const catalogs = [...own.files.keys()].filter((name) => name.startsWith('assets/tms-'))
    expect(catalogs.length).toBeGreaterThan(1)
    expect(own.markers[entryOf(own.markers)]).toBe(catalogs.length)
    expect(Object.values(filled.markers).reduce((a, b) => a + b, 0)).toBe(0)
    expect(filled.files).toEqual(own.files)
    expect(filled.files.get(entryOf(filled.markers))).toContain(
      `import(\`./${catalogs[0]!.slice('assets/'.length)}\`),[])`,
    )
  })

  test("an app's own dynamic import in the chunk leaves every marker to vite", async () => {
    const main = join(project.root, 'src', 'main.js')
    writeFileSync(join(project.root, 'src', 'later.js'), 'export const later = 1\n')
    const kept = readFileSync(main, 'utf8')
    writeFileSync(main, `${kept}\nglobalThis.loadLater = () => import('./later.js')\n`)
    try {
      const filled = await build(true)
      const own = await build(false)
      const catalogs = [...own.files.keys()].filter((name) => name.startsWith('assets/tms-'))
      expect(filled.markers[entryOf(filled.markers)]).toBe(catalogs.length + 1)
      expect(filled.files).toEqual(own.files)
    } finally {
      writeFileSync(main, kept)
      rmSync(join(project.root, 'src', 'later.js'))
    }
  })
})
