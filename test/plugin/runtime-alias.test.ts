import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as esbuild from 'esbuild'
import { rolldown } from 'rolldown'
import { build, type Plugin } from 'vite'
import { afterEach, expect, test } from 'vitest'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsEsbuild from '../../src/esbuild'
import type { Options } from '../../src/options'
import tmsRolldown from '../../src/rolldown'
import tmsVite from '../../src/vite'
import { idsApp, recording, renderInNode } from './helpers'

/**
 * A vite production build, a rolldown build and an esbuild build resolve each module's
 * `unplugin-tms/runtime` with the bundler's own alias, to a file that re-exports the build's runtime
 * module (src/plugin/runtime-proxy.mjs): the plugin's resolveId, which the bundler calls from its own
 * threads into JavaScript, is asked once for the runtime module rather than once per module that
 * imports it. The app still has one runtime, the build's, its catalogs registered.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

const texts = ['Save 144024', 'Open the door', 'Close the door']
const options = (dir: string): Options => ({
  root: dir,
  locales: ['fr-FR'],
  pseudo: true,
  cache: 'offline',
  push: false,
})

async function expectRendered(entry: string): Promise<void> {
  const rendered = await renderInNode(entry)
  expect(rendered.source).toEqual(texts)
  expect(rendered.fr).toEqual(texts)
  expect(rendered.pseudo).toEqual(texts.map((t) => pseudoLocalize(t, 'en-XA')))
}

test("a vite production build's modules reach the runtime module through vite's alias, not the plugin's resolveId", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-alias-'))
  idsApp(root, texts)
  const asked: string[] = []
  const outDir = join(root, 'dist')
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: recording(tmsVite(options(root)) as Plugin[], 'resolveId', asked),
    build: {
      outDir,
      minify: false,
      lib: { entry: join(root, 'src/main.js'), formats: ['es'], fileName: () => 'main.js' },
    },
  })
  // Four modules import the runtime (the three messages' and main.js); the proxy imports it once.
  expect(asked.filter((id) => id === 'unplugin-tms/runtime')).toEqual([])
  expect(asked.filter((id) => id === '\0tms/runtime.js')).toEqual(['\0tms/runtime.js'])
  await expectRendered(join(outDir, 'main.js'))
})

test("a rolldown build's modules reach the runtime module through rolldown's alias, not the plugin's resolveId", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-alias-'))
  idsApp(root, texts)
  const asked: string[] = []
  const outDir = join(root, 'dist')
  const plugins = [tmsRolldown(options(root))].flat() as object[]
  const bundle = await rolldown({
    input: join(root, 'src/main.js'),
    plugins: recording(plugins, 'resolveId', asked) as never,
  })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
  expect(asked.filter((id) => id === 'unplugin-tms/runtime')).toEqual([])
  expect(asked.filter((id) => id === '\0tms/runtime.js')).toEqual(['\0tms/runtime.js'])
  await expectRendered(join(outDir, 'main.js'))
})

test("an esbuild build's modules reach the runtime module through esbuild's alias, and only virtual ids reach the plugin", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-alias-'))
  idsApp(root, texts)
  const outDir = join(root, 'dist')
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/main.js'],
    bundle: true,
    format: 'esm',
    outdir: outDir,
    metafile: true,
    logLevel: 'silent',
    plugins: [tmsEsbuild(options(root))],
  })
  // The proxy is a file esbuild read (the alias), the runtime module the plugin's (its namespace).
  const inputs = Object.keys(result.metafile.inputs)
  expect(inputs.filter((i) => i.endsWith('runtime-proxy.mjs'))).toHaveLength(1)
  expect(inputs.filter((i) => i.includes('tms/runtime.js'))).toEqual(['unplugin-tms:\0tms/runtime.js'])
  await expectRendered(join(outDir, 'main.js'))
})
