import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type RollupLog, rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import type { Options } from '../../src/options'
import tmsRollup from '../../src/rollup'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import {
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildVite,
  buildWebpack,
  quietRollupInfo,
} from './bundlers'
import { FRENCH, type Project, renderInNode, setupProject } from './helpers'

/**
 * Problems go through the bundler: thresholds fail a production build naming the option, extractor
 * warnings carry file, line and a code frame, configuration errors throw when the plugin is created,
 * and a service that cannot be reached leaves a warning and a build from the cache.
 */

let project: Project

// French for all but one message: fr-FR is 80% covered.
const PARTIAL = { ...FRENCH }
delete PARTIAL.Open

beforeAll(async () => {
  project = await setupProject(PARTIAL)
}, 60_000)

afterAll(async () => {
  await project?.close()
})

const BUILDS = {
  rollup: (o: Options) => buildRollup(project.root, o),
  rolldown: (o: Options) => buildRolldown(project.root, o),
  esbuild: (o: Options) => buildEsbuild(project.root, o),
  webpack: (o: Options) => buildWebpack(project.root, o),
  rspack: (o: Options) => buildRspack(project.root, o),
  vite: (o: Options) => buildVite(project.root, o),
}

describe.each(Object.entries(BUILDS))('%s', (_name, build) => {
  test('failOnMissing fails the build and names the option', async () => {
    await expect(build(project.options({ failOnMissing: true }))).rejects.toThrow(
      '[unplugin-tms] failOnMissing: fr-FR misses 1 of 5 messages. Publish the translations, or set failOnMissing: false.',
    )
  })

  test('minCoverage fails the build and names the option', async () => {
    await expect(build(project.options({ minCoverage: 90 }))).rejects.toThrow(
      '[unplugin-tms] minCoverage: fr-FR 80% below 90%. Publish more translations, or lower minCoverage.',
    )
  })

  test('below the thresholds the build passes and reports the coverage', async () => {
    const built = await build(project.options({ minCoverage: 80 }))
    expect(built.warnings).toEqual([])
  })
})

describe('extractor warnings', () => {
  beforeAll(() => {
    writeFileSync(
      join(project.root, 'src/dynamic.js'),
      "import { t } from 'unplugin-tms/runtime'\n\nexport const label = (key) =>\n  t(key)\n",
    )
  })
  afterAll(() => rmSync(join(project.root, 'src/dynamic.js')))

  const FRAME = ['  2 | ', '  3 | export const label = (key) =>', '> 4 |   t(key)', '    |     ^'].join('\n')

  test('rollup gets file, line, column and a code frame', async () => {
    const logs: RollupLog[] = []
    const bundle = await rollup({
      input: join(project.root, 'src/main.js'),
      plugins: [tmsRollup(project.options())],
      onwarn: (log) => {
        logs.push(log)
      },
      ...quietRollupInfo,
    })
    await bundle.close()
    const file = join(project.root, 'src/dynamic.js')
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      plugin: 'unplugin-tms',
      id: file,
      loc: { file, line: 4, column: 4 },
      frame: FRAME,
    })
    expect(logs[0]!.message).toContain('the text of t() is not a string literal')
  })

  test('webpack gets the location and the frame in the warning text', async () => {
    const built = await buildWebpack(project.root, project.options())
    expect(built.warnings).toHaveLength(1)
    expect(built.warnings[0]).toMatch(
      /^\[unplugin-tms\] src\/dynamic\.js:4:5: the text of t\(\) is not a string literal/,
    )
    expect(built.warnings[0]).toContain(FRAME)
  })
})

describe('configuration errors throw when the plugin is created', () => {
  test('no locales', () => {
    expect(() => tmsRollup({ root: project.root, cacheDir: project.cacheDir })).toThrow(
      '[unplugin-tms] option "locales" is required: list the target locales, e.g. locales: ["fr-FR"]',
    )
  })

  test('a bad value names the option', () => {
    expect(() => tmsVite(project.options({ minCoverage: 120 }))).toThrow(
      '[unplugin-tms] minCoverage must be a number from 0 to 100',
    )
  })

  test('an unknown option', () => {
    // webpack runs the plugin factory when the compiler is created.
    expect(() =>
      webpack({
        context: project.root,
        plugins: [tmsWebpack(project.options({ colour: 'red' } as Options))],
      }),
    ).toThrow('[unplugin-tms] unknown option "colour"')
  })
})

test('a service that cannot be reached: a warning through the bundler, translations from the cache', async () => {
  // A build with the service up fills the cache.
  await buildRollup(project.root, project.options())
  const built = await buildRollup(project.root, project.options({ baseUrl: 'http://127.0.0.1:9' }))
  expect(built.warnings).toHaveLength(1)
  expect(built.warnings[0]).toMatch(
    /^\[plugin unplugin-tms\] the service could not be reached .*; the build goes on with fr-FR: cached translations of \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  )
  expect(built.warnings[0]).not.toContain('demo-secret')
  const out = await renderInNode(built.entry!)
  expect(out.fr[0]).toBe(FRENCH['Welcome to the shop'])
}, 60_000)
