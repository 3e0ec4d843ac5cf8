import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { type LoadedRun, runRecordingLoads } from '../helpers/loaded-modules'
import { FRENCH, FRENCH_TEXT, PROJECT, renderInNode, suiteProject } from './helpers'

/**
 * An offline build or command never loads the HTTP client (the client module and undici, ~70 ms of
 * imports): they load only when a sync talks to the service. Run from dist (npm test builds first),
 * in a fresh Node process each, as users run them.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const DIST = new URL('../../dist/', import.meta.url)
const PLUGIN = new URL('rollup.mjs', DIST).href
const CLIENT = new URL('client.mjs', DIST).href
const CLI = fileURLToPath(new URL('cli.mjs', DIST))

const project = suiteProject(true)

/** The loaded modules of the HTTP client: the client module and any file of undici. */
function httpClientModules(run: LoadedRun): string[] {
  return run.loaded.filter((url) => url === CLIENT || url.includes('/node_modules/undici/'))
}

/** A rollup build of the fixture app with the built plugin and the project's options (credentials too). */
function buildInChild(outDir: string, env: Record<string, string>): Promise<LoadedRun> {
  const script = `
    const { rollup } = await import('rollup')
    const { default: tms } = await import(${JSON.stringify(PLUGIN)})
    const warnings = []
    const bundle = await rollup({
      input: ${JSON.stringify(join(project.current.root, 'src/main.js'))},
      plugins: [tms(${JSON.stringify(project.current.options())})],
      onLog: (level, log) => { if (level === 'warn') warnings.push(log.message) },
    })
    await bundle.write({ dir: ${JSON.stringify(outDir)}, format: 'es' })
    await bundle.close()
    process.stdout.write(JSON.stringify(warnings))
  `
  // From the repository, where the bare 'rollup' resolves.
  return runRecordingLoads(['--input-type=module', '-e', script], { cwd: REPO, env })
}

describe('a build from dist', () => {
  test('offline (TMS_OFFLINE=1, credentials set) reads the cache and loads no HTTP client', async () => {
    const outDir = join(project.current.root, 'dist-offline')
    const run = await buildInChild(outDir, { TMS_OFFLINE: '1' })
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
    expect(run.loaded).toContain(PLUGIN)
    expect(httpClientModules(run)).toEqual([])
    expect((await renderInNode(join(outDir, 'main.js'))).fr).toEqual(FRENCH_TEXT)
  })

  test('with the network on, the same build loads the client and pulls', async () => {
    const outDir = join(project.current.root, 'dist-network')
    const run = await buildInChild(outDir, {})
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
    expect(run.loaded).toContain(CLIENT)
    expect(run.loaded.some((url) => url.includes('/node_modules/undici/'))).toBe(true)
    expect((await renderInNode(join(outDir, 'main.js'))).fr).toEqual(FRENCH_TEXT)
  })
})

describe('the CLI from dist', () => {
  const tms = (args: string[]): Promise<LoadedRun> =>
    runRecordingLoads([CLI, ...args], {
      cwd: project.current.root,
      env: {
        TMS_PROJECT_ID: PROJECT,
        TMS_BASE_URL: project.current.emu.url,
        TMS_USER_IDENTIFIER: 'demo-user',
        TMS_USER_SECRET: 'demo-secret',
      },
    })

  test('tms extract and tms status (without --live) load no HTTP client', async () => {
    const extract = await tms(['extract', '--json'])
    expect(extract.code, extract.stderr).toBe(0)
    const texts = JSON.parse(extract.stdout).messages.map((m: { text: string }) => m.text)
    expect(texts.sort()).toEqual(Object.keys(FRENCH).sort())
    expect(httpClientModules(extract)).toEqual([])

    const status = await tms(['status', '--json', '--locales', 'fr-FR'])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout).sources).toEqual({ 'fr-FR': 'cache' })
    expect(httpClientModules(status)).toEqual([])
  })

  test('tms pull loads the client and pulls', async () => {
    const pull = await tms(['pull', '--json', '--locales', 'fr-FR'])
    expect(pull.code, pull.stderr).toBe(0)
    expect(JSON.parse(pull.stdout).sources).toEqual({ 'fr-FR': 'network' })
    expect(pull.loaded).toContain(CLIENT)
    expect(pull.loaded.some((url) => url.includes('/node_modules/undici/'))).toBe(true)
  })
})
