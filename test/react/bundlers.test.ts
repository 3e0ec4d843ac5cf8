import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { rolldown } from 'rolldown'
import { afterAll, beforeAll, expect, test } from 'vitest'
import webpack from 'webpack'
import tmsEsbuild from '../../src/esbuild'
import type { Options } from '../../src/options'
import tmsRolldown from '../../src/rolldown'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import { REACT, renderPages, rollupReactApp } from '../helpers/react-app'
import { type LikeCompiler, outputFiles, runWebpackLike, webpackConfig } from '../plugin/bundlers'
import { type Project, setupProject } from '../plugin/helpers'

/**
 * A small React app (useLocale, <T>, t) built by webpack, rspack, rollup, rolldown and esbuild against
 * the emulator. `unplugin-tms/react` is bundled from the built package (dist/react.mjs, which imports
 * the bare `unplugin-tms/runtime`); React stays external. Each output must hold the runtime once (the
 * plugin resolves the binding's import to the same runtime module as the app's), and the page that
 * react-dom/server renders in Node after setLocale('fr-FR') shows the French of <T> and of t.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const APP = join(REPO, 'test/fixtures/react-bundlers')
/** A string of the runtime that a minifier keeps: one per copy of the runtime in an output. */
const RUNTIME_MARK = '] unknown locale "'

const FRENCH: Record<string, string> = {
  'Welcome to the shop': 'Bienvenue dans la boutique',
  'Hello <b>{name}</b>, see <a>the docs</a>': 'Bonjour <b>{name}</b>, voyez <a>la documentation</a>',
}

let project: Project

beforeAll(async () => {
  // Under the repo, so the app resolves `unplugin-tms/react` to the built package (the package's
  // self-reference) and React from the repo's node_modules, as an app with them installed would.
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  project = await setupProject(FRENCH, APP, join(REPO, '.tmp'))
}, 120_000)

afterAll(async () => {
  await project?.close()
})

const options = (): Options => project.options()
const entry = (): string => join(project.root, 'src/main.jsx')

/** The JSX left after the plugin's transform, compiled by esbuild for webpack and rspack. */
const JSX_LOADER = fileURLToPath(new URL('./jsx-loader.cjs', import.meta.url))

const BUILDS: Record<string, (outDir: string) => Promise<string>> = {
  async webpack(outDir) {
    const config = {
      ...webpackConfig(project.root, outDir, tmsWebpack(options()), 'production'),
      entry: './src/main.jsx',
      externals: REACT,
      externalsType: 'module',
      module: { rules: [{ test: /\.jsx$/, loader: JSX_LOADER }] },
    }
    await runWebpackLike((c) => webpack(c as webpack.Configuration) as unknown as LikeCompiler, config)
    return join(outDir, 'main.mjs')
  },
  async rspack(outDir) {
    const { rspack } = await import('@rspack/core')
    const config = {
      ...webpackConfig(project.root, outDir, tmsRspack(options()), 'production'),
      entry: './src/main.jsx',
      externals: REACT,
      externalsType: 'module',
      module: {
        rules: [
          {
            test: /\.jsx$/,
            loader: 'builtin:swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'ecmascript', jsx: true },
                transform: { react: { runtime: 'automatic' } },
              },
            },
          },
        ],
      },
    }
    await runWebpackLike((c) => rspack(c as never) as unknown as LikeCompiler, config)
    return join(outDir, 'main.mjs')
  },
  rollup: (outDir) => rollupReactApp(entry(), outDir, options()),
  async rolldown(outDir) {
    const bundle = await rolldown({
      input: entry(),
      external: REACT,
      plugins: [tmsRolldown(options())],
      transform: { jsx: 'react-jsx' },
    })
    await bundle.write({ dir: outDir, format: 'es', minify: true })
    await bundle.close()
    return join(outDir, 'main.js')
  },
  async esbuild(outDir) {
    await esbuild.build({
      absWorkingDir: project.root,
      entryPoints: ['src/main.jsx'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      minify: true,
      jsx: 'automatic',
      external: ['react', 'react-dom', 'react/*', 'react-dom/*'],
      outdir: outDir,
      logLevel: 'silent',
      plugins: [tmsEsbuild(options())],
    })
    return join(outDir, 'main.js')
  },
}

test.each(Object.keys(BUILDS))(
  '%s: the binding and the app share one runtime; <T> and t render in French',
  async (name) => {
    const outDir = join(project.root, `dist-${name}`)
    const file = await BUILDS[name]!(outDir)
    const copies = [...outputFiles(outDir).values()].reduce(
      (n, text) => n + text.split(RUNTIME_MARK).length - 1,
      0,
    )
    expect(copies).toBe(1)
    expect(await renderPages(file)).toEqual({
      source:
        '<main lang="en-US"><h1>Welcome to the shop</h1><p>Hello <b>Ada</b>, see <a href="/docs">the docs</a></p></main>',
      fr: '<main lang="fr-FR"><h1>Bienvenue dans la boutique</h1><p>Bonjour <b>Ada</b>, voyez <a href="/docs">la documentation</a></p></main>',
    })
  },
  180_000,
)
