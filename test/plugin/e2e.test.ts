import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import * as esbuild from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsEsbuild from '../../src/esbuild'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import {
  type Built,
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildVite,
  buildWebpack,
  type LikeCompiler,
  launchChromium,
  outputFiles,
  renderInChromium,
  runWebpackLike,
  webpackConfig,
} from './bundlers'
import {
  FRENCH,
  FRENCH_TEXT,
  type Project,
  PSEUDO_TEXT,
  rendered,
  renderInNode,
  SOURCE_TEXT,
  setupProject,
} from './helpers'
import { originalPosition } from './inline-helpers'

/**
 * The fixture app built through each bundler against the emulator (real HTTP: push at the first build,
 * pull here), then run: source text first, French after setLocale('fr-FR'), pseudo text after
 * setLocale('en-XA').
 */

let project: Project
let browser: Browser

beforeAll(async () => {
  project = await setupProject()
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await project?.close()
})

const IMPORTED_FRENCH = [
  'Welcome to the shop',
  'Hello {name}!',
  'You have {count} items in your cart',
  'Open',
].map((s) => FRENCH[s]!)
const UNUSED_FRENCH = FRENCH['This text is never shipped']!

const REPORT = {
  locales: { 'fr-FR': { messages: 5, translated: 5, missing: 0, coverage: 100 } },
  pushed: 0,
  // One authentication, one page of translations for fr-FR; en-XA is made on the machine.
  requests: 2,
}

/** The one output file that holds a locale's catalog (its name comes from the catalog module). */
function catalogChunk(built: Built, locale: string): string {
  const chunks = [...outputFiles(built.outDir)].filter(([file]) => file.includes(`tms-${locale}`))
  expect(chunks.map(([file]) => file)).toHaveLength(1)
  return chunks[0]![1]
}

const NODE_BUILDS = {
  rollup: (p: Project) => buildRollup(p.root, p.options()),
  rolldown: (p: Project) => buildRolldown(p.root, p.options()),
  esbuild: (p: Project) => buildEsbuild(p.root, p.options()),
  webpack: (p: Project) => buildWebpack(p.root, p.options()),
  rspack: (p: Project) => buildRspack(p.root, p.options()),
}

describe.each(Object.entries(NODE_BUILDS))('%s', (_name, build) => {
  test('the output renders source, French and en-XA text; the report is written', async () => {
    const built = await build(project)
    expect(built.warnings).toEqual([])
    expect(await renderInNode(built.entry!)).toEqual({
      source: SOURCE_TEXT,
      fr: FRENCH_TEXT,
      pseudo: PSEUDO_TEXT,
      pwned: false,
    })
    expect(JSON.parse(readFileSync(join(built.outDir, 'tms-report.json'), 'utf8'))).toEqual(REPORT)
    for (const text of outputFiles(built.outDir).values()) expect(text).not.toContain('demo-secret')
  })

  test('the French chunk holds exactly the messages of the imported modules', async () => {
    const built = await build(project)
    const fr = catalogChunk(built, 'fr-FR')
    for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    expect(fr).not.toContain(UNUSED_FRENCH)
    // Every message has its translation, so no source text in the French catalog; the source
    // locale's catalog (a production build's default) holds the same messages' source texts.
    expect(fr).not.toContain('Welcome to the shop')
    const source = catalogChunk(built, 'en-US')
    expect(source).toContain('Welcome to the shop')
    expect(source).not.toContain('This text is never shipped')
  })
})

describe('esbuild source maps', () => {
  const FR_LITERAL =
    '{"e-SnfU":"Ouvrir","hQ1WBy":"Bonjour {name} !","mW4b8D":"Bienvenue dans la boutique",' +
    '"sPHjQs":"Vous avez {count} articles dans votre panier"}'

  test.each([
    ['written to disk', true, true],
    ['kept in memory', false, true],
    ['inline', false, 'inline'],
  ] as const)(
    "the catalog chunk's map describes the filled catalog, with no NUL byte (%s)",
    async (how, write, sourcemap) => {
      const outdir = join(project.root, `dist-esbuild-maps-${how.replaceAll(' ', '-')}`)
      rmSync(outdir, { recursive: true, force: true })
      const result = await esbuild.build({
        absWorkingDir: project.root,
        entryPoints: ['src/main.js'],
        bundle: true,
        splitting: true,
        format: 'esm',
        outdir,
        sourcemap,
        write,
        logLevel: 'silent',
        plugins: [tmsEsbuild(project.options())],
      })
      const files = write
        ? new Map(readdirSync(outdir).map((f) => [f, readFileSync(join(outdir, f), 'utf8')]))
        : new Map(result.outputFiles!.map((f) => [f.path.slice(outdir.length + 1), f.text]))
      for (const [file, text] of files) expect(text.includes('\0'), file).toBe(false)
      const name = [...files.keys()].find((f) => f.startsWith('tms-fr-FR-') && f.endsWith('.js'))!
      const code = files.get(name)!
      const inline = /sourceMappingURL=data:application\/json;base64,(.*)\n$/.exec(code)
      const map = JSON.parse(
        sourcemap === 'inline' ? Buffer.from(inline![1]!, 'base64').toString() : files.get(`${name}.map`)!,
      )
      expect(map.sources).toEqual(['unplugin-tms:tms/tms-fr-FR.js'])
      expect(map.sourcesContent).toEqual([`export default (${FR_LITERAL});\n`])
      // The filled literal maps to where it stands in that module.
      const at = code.indexOf(`(${FR_LITERAL})`)
      const line = code.slice(0, at).split('\n').length - 1
      expect(originalPosition(map, line, at - (code.lastIndexOf('\n', at) + 1))).toEqual({
        source: 'unplugin-tms:tms/tms-fr-FR.js',
        line: 1,
        column: 'export default '.length,
      })
    },
  )
})

const WEBPACK_LIKE = {
  webpack: async (config: object) => {
    await runWebpackLike((c) => webpack(c as webpack.Configuration) as unknown as LikeCompiler, config)
  },
  rspack: async (config: object) => {
    const { rspack } = await import('@rspack/core')
    await runWebpackLike((c) => rspack(c as never) as unknown as LikeCompiler, config)
  },
}

test.each(Object.entries(WEBPACK_LIKE))(
  "%s: the report is logged once, with the plugin's name in front once",
  async (name, run) => {
    const logged: string[] = []
    const capture = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '))
    }
    const console = { ...globalThis.console, info: capture, log: capture, warn: capture }
    const plugin = name === 'webpack' ? tmsWebpack(project.options()) : tmsRspack(project.options())
    const config = webpackConfig(project.root, join(project.root, `dist-${name}-log`), plugin, 'production')
    await run({ ...config, infrastructureLogging: { level: 'info', console } })
    expect(logged.filter((line) => line.includes('unplugin-tms'))).toEqual([
      [
        '[unplugin-tms] translations',
        'locale  messages  translated  missing  coverage',
        'fr-FR          5           5        0    100.0%',
        '0 new strings pushed, 2 requests made',
      ].join('\n'),
    ])
  },
)

describe('vite', () => {
  test('the built page renders source, French and en-XA text in Chromium; the report is written', async () => {
    const built = await buildVite(project.root, project.options())
    expect(built.warnings).toEqual([])
    expect(await renderInChromium(browser, built.outDir)).toEqual({
      source: SOURCE_TEXT,
      fr: FRENCH_TEXT,
      pseudo: PSEUDO_TEXT,
      pwned: false,
    })
    expect(JSON.parse(readFileSync(join(built.outDir, 'tms-report.json'), 'utf8'))).toEqual(REPORT)
    const fr = catalogChunk(built, 'fr-FR')
    for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    expect(fr).not.toContain(UNUSED_FRENCH)
  })
})

describe('a module imported later ships its messages', () => {
  // The same app with the orphan module imported: its message appears, so the filter follows the graph.
  test.each(Object.entries(NODE_BUILDS))('%s', async (_name, build) => {
    const main = join(project.root, 'src/main.js')
    const original = readFileSync(main, 'utf8')
    writeFileSync(main, `import './unused.js'\n${original}`)
    try {
      const fr = catalogChunk(await build(project), 'fr-FR')
      expect(fr).toContain(UNUSED_FRENCH)
      for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    } finally {
      writeFileSync(main, original)
    }
  })
})

test('pseudo: a list adds the right-to-left ar-XB next to en-XA', async () => {
  const built = await buildRollup(project.root, project.options({ pseudo: ['en-XA', 'ar-XB'] }))
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(built.entry!).href)})
    await app.setLocale('ar-XB')
    process.stdout.write(JSON.stringify(app.render()))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
  expect(JSON.parse(stdout)).toEqual(rendered((s) => pseudoLocalize(s, 'ar-XB')))
  expect(JSON.parse(stdout)[0]).toBe(
    '\u200f\u202eWelcome\u202c \u202eto\u202c \u202ethe\u202c \u202eshop\u202c\u200f',
  )
})

test('a production build pushes a new message once and reports it', async () => {
  const extra = join(project.root, 'src/extra.js')
  writeFileSync(
    extra,
    "import { t } from 'unplugin-tms/runtime'\nexport const fresh = () => t('A brand new message')\n",
  )
  try {
    const first = await buildRollup(project.root, project.options())
    const report = JSON.parse(readFileSync(join(first.outDir, 'tms-report.json'), 'utf8'))
    expect(report).toEqual({
      locales: { 'fr-FR': { messages: 6, translated: 5, missing: 1, coverage: 83.3 } },
      pushed: 1,
      // Authentication, the create-strings request, one page of translations, and the source
      // strings of the one the pull did not get back: it waits for an authorization.
      requests: 4,
      unauthorized: { strings: 1, locales: { 'fr-FR': 1 } },
    })
    const second = await buildRollup(project.root, project.options())
    expect(JSON.parse(readFileSync(join(second.outDir, 'tms-report.json'), 'utf8')).pushed).toBe(0)
  } finally {
    rmSync(extra)
  }
})
