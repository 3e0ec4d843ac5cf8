import { execFile } from 'node:child_process'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { extractMessages } from '../../src/core/extract/index'
import { extractOptionsOf } from '../../src/core/pipeline'
import { resolveOptions } from '../../src/options'
import { messageId } from '../../src/plugin/ids'
import { TmsSession } from '../../src/plugin/session'
import tmsWebpack from '../../src/webpack'
import {
  type Built,
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildWebpack,
  outputFiles,
  webpackConfig,
} from './bundlers'
import { FRENCH, type Project, PSEUDO_TEXT, rendered, SOURCE_TEXT, setupProject } from './helpers'

/**
 * A production build's default (`sourceCatalog`) through each bundler that builds for Node: the source
 * locale ships as a catalog chunk like the others, the entry chunk keeps only ids, and every catalog is
 * complete: 'Open' has no French translation here, so the French chunk holds its source text.
 */

const run = promisify(execFile)
const FRENCH_BUT_OPEN = Object.fromEntries(Object.entries(FRENCH).filter(([source]) => source !== 'Open'))
const SHIPPED = ['Welcome to the shop', 'Hello {name}!', 'You have {count} items in your cart', 'Open']

let project: Project
/** The fixture app's shipped message texts -> their catalog ids, from the plugin's own extraction. */
let ids: Map<string, string>

beforeAll(async () => {
  project = await setupProject(FRENCH_BUT_OPEN)
  const options = resolveOptions(project.options(), { command: 'build' })
  const { messages } = await extractMessages(extractOptionsOf(options))
  ids = new Map(messages.map((m) => [m.text, messageId(m.key)]))
}, 60_000)

afterAll(async () => {
  await project?.close()
})

/** A catalog's literal as the plugin writes it: ids sorted, JSON-quoted. */
function literalOf(text: (source: string) => string): string {
  const entries = SHIPPED.map((source) => [ids.get(source)!, text(source)] as const)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(Object.fromEntries(entries))
}

/**
 * A catalog as the chunk holds it: `JSON.parse('…')` (rollup, rolldown, webpack and rspack, whose
 * catalog modules hold it so from the start), or the literal itself (esbuild).
 */
function inChunk(literal: string, bundler: string): string {
  if (bundler === 'esbuild') return `(${literal})`
  return `JSON.parse('${literal}')`
}

/** The one output file of a locale's catalog. */
function catalogChunk(built: Built, locale: string): string {
  const chunks = [...outputFiles(built.outDir)].filter(([file]) => basename(file).startsWith(`tms-${locale}`))
  expect(chunks).toHaveLength(1)
  return chunks[0]![1]
}

/**
 * The app's text before any setLocale and once the source catalog is loaded by itself, then in each
 * locale, and the locale, from a Node run of the entry.
 */
async function renderAll(entry: string): Promise<Record<string, unknown>> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    const before = app.render()
    // An app that asked for no locale as it started gets the source catalog by itself, then a change.
    await new Promise((resolve) => { const stop = app.onLocaleChange(() => { stop(); resolve() }) })
    const out = { before, healed: app.render(), locale: app.getLocale() }
    for (const locale of ['en-US', 'fr-FR', 'en-XA', 'en-US']) {
      await app.setLocale(locale)
      out[locale] = app.render()
    }
    process.stdout.write(JSON.stringify(out))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 })
  return JSON.parse(stdout)
}

const BUILDS = {
  rollup: (p: Project) => buildRollup(p.root, p.options()),
  rolldown: (p: Project) => buildRolldown(p.root, p.options()),
  esbuild: (p: Project) => buildEsbuild(p.root, p.options()),
  webpack: (p: Project) => buildWebpack(p.root, p.options()),
  rspack: (p: Project) => buildRspack(p.root, p.options()),
}

describe.each(Object.entries(BUILDS))('%s, default options', (name, build) => {
  test('the source locale is a catalog chunk, the entry keeps only ids, every catalog is complete', async () => {
    const built = await build(project)
    expect(built.warnings).toEqual([])
    const source = catalogChunk(built, 'en-US')
    expect(source).toContain(
      inChunk(
        literalOf((s) => s),
        name,
      ),
    )
    const french = catalogChunk(built, 'fr-FR')
    expect(french).toContain(
      inChunk(
        literalOf((s) => FRENCH_BUT_OPEN[s] ?? s),
        name,
      ),
    )
    const entry = outputFiles(built.outDir).get(built.entry!)!
    for (const text of SHIPPED) expect(entry).not.toContain(text)
    // Each site's id, quoted as the bundler's printer quotes strings.
    for (const text of SHIPPED) expect(entry).toMatch(new RegExp(`(["'\`])${ids.get(text)}\\1`))

    expect(await renderAll(built.entry!)).toEqual({
      // No catalog before the first setLocale: each message shows its id.
      before: SHIPPED.map((s) => ids.get(s)),
      healed: SOURCE_TEXT,
      locale: 'en-US',
      'en-US': SOURCE_TEXT,
      'fr-FR': rendered((s) => FRENCH_BUT_OPEN[s] ?? s),
      'en-XA': PSEUDO_TEXT,
    })
  })
})

test('the dev overlay marks as translated only the ids with a translation, though every catalog is complete', async () => {
  const session = new TmsSession(project.options({ sourceCatalog: true }))
  await session.startAndSync('build')
  const translated = Object.keys(FRENCH_BUT_OPEN).map((source) => ids.get(source)!)
  expect(session.build.translatedIds('fr-FR').sort()).toEqual(translated.sort())
  expect(session.build.translatedIds('en-US')).toEqual([])
  expect(session.build.catalogFor('fr-FR').get(ids.get('Open')!)).toBe('Open')
  expect(session.build.catalogFor('en-US').size).toBe(ids.size)
  session.release()
})

test('webpack watch: a message added while it watches is in the rebuilt catalogs', async () => {
  const outDir = join(project.root, 'dist-webpack-watch-source')
  const config = {
    ...webpackConfig(
      project.root,
      outDir,
      tmsWebpack(project.options({ sourceCatalog: true })),
      'development',
    ),
    devtool: false,
  }
  const compiler = webpack(config as webpack.Configuration)
  // Each finished build's output, copied aside before the watcher may start the next one.
  const builds: { error: string | null; dir: string }[] = []
  const waiting: (() => void)[] = []
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
    const dir = `${outDir}-${builds.length}`
    const failed = error?.message ?? (stats!.hasErrors() ? String(stats!.compilation.errors[0]) : null)
    if (!failed) cpSync(outDir, dir, { recursive: true })
    builds.push({ error: failed, dir })
    for (const wake of waiting.splice(0)) wake()
  })
  const build = async (n: number): Promise<string> => {
    while (builds.length <= n) await new Promise<void>((wake) => waiting.push(wake))
    expect(builds[n]!.error).toBeNull()
    return join(builds[n]!.dir, 'main.mjs')
  }
  const file = join(project.root, 'src/greet.js')
  const original = readFileSync(file, 'utf8')
  try {
    expect((await renderAll(await build(0)))['en-US']).toEqual(SOURCE_TEXT)
    writeFileSync(file, original.replace("t('Welcome to the shop')", "t('Welcome back, dear customer')"))
    // The watcher may still deliver a build it started before the change; a later one has it.
    let out: Record<string, unknown> = {}
    for (
      let n = 1;
      n < 4 && (out['en-US'] as string[] | undefined)?.[0] !== 'Welcome back, dear customer';
      n++
    ) {
      out = await renderAll(await build(n))
    }
    expect(out['en-US']).toEqual(['Welcome back, dear customer', ...SOURCE_TEXT.slice(1)])
    // No French for it: the French catalog holds its source text.
    expect(out['fr-FR']).toEqual([
      'Welcome back, dear customer',
      ...rendered((s) => FRENCH_BUT_OPEN[s] ?? s).slice(1),
    ])
  } finally {
    writeFileSync(file, original)
    await new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve()))
  }
}, 60_000)
