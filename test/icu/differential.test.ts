import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import type { Options } from '../../src/options'
import tmsWebpack from '../../src/webpack'
import { buildEsbuild, buildRolldown, runWebpackLike, webpackConfig } from '../plugin/bundlers'
import { CORPUS, LOCALES, SOURCE_LOCALE, TARGETS, type Values } from './corpus'
import { buildWithWarnings as build, type IcuProject, setupIcuProject } from './project'

/**
 * The main check of ICU messages: every construct (rich-text tags with tag functions too), in seven
 * locales, through a real rollup build in runtime mode and in inline mode, run in Node and compared
 * with intl-messageformat (the oracle) formatting the same text in the same locale.
 */

const RUNNER = fileURLToPath(new URL('./run-cases.mjs', import.meta.url))
const run = promisify(execFile)
const SOURCES = CORPUS.map((m) => m.source)
const textOf = (index: number, locale: string): string =>
  locale === SOURCE_LOCALE ? CORPUS[index]!.source : CORPUS[index]!.translate(locale)

interface Case {
  index: number
  text: string
  values: Values
}
interface Outcome {
  locale: string
  text: string
  values: Values
  got: string
  expected: string
}

function casesOf(locale: string, sourceOnly = false): Case[] {
  return CORPUS.flatMap((m, index) =>
    m.values.map((values) => ({ index, text: sourceOnly ? m.source : textOf(index, locale), values })),
  )
}

async function runCases(
  root: string,
  groups: { entry: string; locale: string; setLocale: boolean; sourceOnly?: boolean }[],
): Promise<Outcome[]> {
  const file = join(root, 'cases.json')
  writeFileSync(
    file,
    JSON.stringify({ groups: groups.map((g) => ({ ...g, cases: casesOf(g.locale, g.sourceOnly) })) }),
  )
  const { stdout } = await run(process.execPath, [RUNNER, file], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, TZ: 'UTC' },
    maxBuffer: 1 << 26,
    timeout: 60_000,
  })
  return JSON.parse(stdout)
}

async function buildWithWebpack(options: Options, outDir: string): Promise<string[]> {
  return runWebpackLike(
    (config) => webpack(config as webpack.Configuration) as never,
    webpackConfig(options.root!, outDir, tmsWebpack(options), 'production'),
  )
}

/** Every JS file under a directory, concatenated. */
function codeUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.m?js$/.test(e.name))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n')
}

function expectAgreement(outcomes: Outcome[], locales: readonly string[]): void {
  const triples = CORPUS.reduce((n, m) => n + m.values.length, 0) * locales.length
  expect(outcomes).toHaveLength(triples)
  expect(triples).toBeGreaterThanOrEqual(150)
  const disagreements = outcomes.filter((o) => o.got !== o.expected)
  expect(disagreements).toEqual([])
  // The oracle formatted every case (no case is an error on both sides).
  expect(outcomes.filter((o) => o.expected.startsWith('THREW'))).toEqual([])
  // Every case with an object-returning tag function gave an array, in both.
  const rich = CORPUS.reduce(
    (n, m) =>
      n +
      m.values.filter((v) => Object.values(v).some((x) => (x as { $tag?: string }).$tag === 'object')).length,
    0,
  )
  expect(rich).toBe(14)
  expect(outcomes.filter((o) => o.got.startsWith('JSON [')).length).toBe(rich * locales.length)
}

let project: IcuProject

beforeAll(async () => {
  project = await setupIcuProject(
    SOURCES,
    (source, locale) => CORPUS.find((m) => m.source === source)!.translate(locale),
    TARGETS,
  )
}, 60_000)

afterAll(() => project?.close())

describe('ICU messages agree with intl-messageformat', () => {
  test('runtime mode: rollup build, one app, setLocale per locale', async () => {
    const outDir = join(project.root, 'dist-runtime')
    const warnings = await build(project.options(), outDir)
    expect(warnings).toEqual([])
    const code = codeUnder(outDir)
    // The transformed bundle carries compiled forms and the interpreter, not the untransformed parser.
    expect(code).not.toContain('not supported by t() untransformed')
    expect(code).not.toContain('plural, one {')
    const entry = join(outDir, 'main.js')
    const outcomes = await runCases(
      project.root,
      LOCALES.map((locale) => ({ entry, locale, setLocale: true })),
    )
    expectAgreement(outcomes, LOCALES)
  }, 120_000)

  test('inline mode: rollup build, one copy per locale, no setLocale', async () => {
    const outDir = join(project.root, 'dist-inline')
    const warnings = await build(project.options({ mode: 'inline' }), outDir)
    expect(warnings).toEqual([])
    for (const locale of LOCALES) {
      const code = codeUnder(join(outDir, locale))
      expect(code).not.toContain('not supported by t() untransformed')
      expect(code).not.toContain('__tms_l(')
    }
    const outcomes = await runCases(
      project.root,
      LOCALES.map((locale) => ({ entry: join(outDir, locale, 'main.js'), locale, setLocale: false })),
    )
    expectAgreement(outcomes, LOCALES)
  }, 120_000)

  test('webpack (production, minified): runtime mode and inline mode', async () => {
    const runtimeOut = join(project.root, 'dist-webpack-runtime')
    expect(await buildWithWebpack(project.options(), runtimeOut)).toEqual([])
    expect(codeUnder(runtimeOut)).not.toContain('not supported by t() untransformed')
    const inlineOut = join(project.root, 'dist-webpack-inline')
    expect(await buildWithWebpack(project.options({ mode: 'inline' }), inlineOut)).toEqual([])
    const outcomes = await runCases(project.root, [
      ...LOCALES.map((locale) => ({
        entry: join(runtimeOut, 'main.mjs'),
        locale,
        setLocale: true,
      })),
      ...LOCALES.map((locale) => ({ entry: join(inlineOut, locale, 'main.mjs'), locale, setLocale: false })),
    ])
    expectAgreement(outcomes, [...LOCALES, ...LOCALES])
  }, 180_000)

  test('esbuild and rolldown (minified): runtime mode', async () => {
    const esbuilt = await buildEsbuild(project.root, project.options())
    expect(esbuilt.warnings).toEqual([])
    const rolldowned = await buildRolldown(project.root, project.options())
    expect(rolldowned.warnings).toEqual([])
    for (const built of [esbuilt, rolldowned]) {
      expect(codeUnder(built.outDir)).not.toContain('not supported by t() untransformed')
    }
    const outcomes = await runCases(
      project.root,
      [esbuilt, rolldowned].flatMap((built) =>
        LOCALES.map((locale) => ({ entry: built.entry!, locale, setLocale: true })),
      ),
    )
    expectAgreement(outcomes, [...LOCALES, ...LOCALES])
  }, 180_000)
})

test("untransformed t (an app's unit tests) formats the source text like intl-messageformat in every locale", async () => {
  const runtime = fileURLToPath(new URL('../../dist/runtime.mjs', import.meta.url))
  const entry = join(project.root, 'untransformed.mjs')
  const calls = CORPUS.map((m) => `  (v) => t(${JSON.stringify(m.source)}, v),`).join('\n')
  writeFileSync(
    entry,
    `import { t, setLocale } from ${JSON.stringify(pathToFileURL(runtime).href)}\nexport const messages = [\n${calls}\n]\nexport { setLocale }\n`,
  )
  const outcomes = await runCases(
    project.root,
    LOCALES.map((locale) => ({ entry, locale, setLocale: true, sourceOnly: true })),
  )
  expectAgreement(outcomes, LOCALES)
}, 120_000)
