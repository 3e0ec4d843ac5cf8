import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rollup } from 'rollup'
import svelte from 'rollup-plugin-svelte'
import { afterAll, beforeAll, expect, test } from 'vitest'
import webpack from 'webpack'
import tmsRollup from '../../src/rollup'
import tmsWebpack from '../../src/webpack'
import { renderPages } from '../helpers/react-app'
import { type LikeCompiler, outputFiles, runWebpackLike, webpackConfig } from '../plugin/bundlers'
import { type Project, setupProject } from '../plugin/helpers'

/**
 * A Svelte 5 component (markup `t`, an attribute, a `$derived` in the script, `<T>` with a snippet)
 * built against the emulator by rollup with rollup-plugin-svelte after the plugin, and by webpack with
 * svelte-loader, for the server (`generate: 'server'`; Svelte stays external). The plugin's transform
 * runs first, on the original .svelte text; the output holds the runtime once; svelte/server renders
 * the source text, then the French after setLocale('fr-FR').
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const APP = join(REPO, 'test/fixtures/svelte-bundlers')
const RUNTIME_MARK = '] unknown locale "'

const FRENCH: Record<string, string> = {
  'Welcome to the shop': 'Bienvenue dans la boutique',
  Greeting: 'Salutation',
  'Hello {name}!': 'Bonjour {name} !',
  'Read the <link>terms</link>.': 'Lisez les <link>conditions</link>.',
}

let project: Project

beforeAll(async () => {
  // Under the repo, so Node finds svelte in the repo's node_modules when it runs the output.
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  project = await setupProject(FRENCH, APP, join(REPO, '.tmp'))
}, 120_000)

afterAll(async () => {
  await project?.close()
})

async function buildRollup(outDir: string): Promise<string> {
  const warnings: string[] = []
  const bundle = await rollup({
    input: join(project.root, 'src/main.js'),
    external: (id) => /^svelte(?:\/|$)/.test(id),
    plugins: [
      tmsRollup(project.options()),
      // What @rollup/plugin-node-resolve does for this one import: the package's `exports`.
      {
        name: 'resolve-binding',
        resolveId: (id) => (id === 'unplugin-tms/svelte' ? join(REPO, 'dist/svelte.mjs') : null),
      },
      svelte({ compilerOptions: { generate: 'server' }, emitCss: false }),
    ],
    onLog: (level, log) => {
      // <T> renders a rich piece's content with itself: the one cycle there is, by design.
      const selfImport = log.code === 'CIRCULAR_DEPENDENCY' && log.ids?.every((id) => id.endsWith('T.svelte'))
      if (level === 'warn' && !selfImport) warnings.push(log.message)
    },
  })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
  expect(warnings).toEqual([])
  return join(outDir, 'main.js')
}

async function buildWebpack(outDir: string): Promise<string> {
  const config = {
    ...webpackConfig(project.root, outDir, tmsWebpack(project.options()), 'production'),
    externals: /^svelte(?:\/|$)/,
    externalsType: 'module',
    // The binding's `svelte` export condition, as Svelte's webpack setup asks for.
    resolve: { conditionNames: ['svelte', 'import', 'module', 'default'] },
    module: {
      rules: [
        {
          test: /\.svelte$/,
          use: { loader: 'svelte-loader', options: { compilerOptions: { generate: 'server' } } },
        },
      ],
    },
  }
  const warnings = await runWebpackLike(
    (c) => webpack(c as webpack.Configuration) as unknown as LikeCompiler,
    config,
  )
  expect(warnings).toEqual([])
  return join(outDir, 'main.mjs')
}

const BUILDS = { rollup: buildRollup, webpack: buildWebpack }

test.each(Object.keys(BUILDS) as (keyof typeof BUILDS)[])(
  '%s: markup, attribute, script and <T> in French after setLocale, one runtime',
  async (name) => {
    const outDir = join(project.root, `dist-${name}`)
    const file = await BUILDS[name](outDir)
    const copies = [...outputFiles(outDir).values()].reduce(
      (n, text) => n + text.split(RUNTIME_MARK).length - 1,
      0,
    )
    expect(copies).toBe(1)
    const { source, fr } = await renderPages(file)
    // Svelte's server output marks its blocks with comments; the texts are what is asserted.
    const page = (html: string) => html.replace(/<!--[^>]*-->/g, '')
    expect({ source: page(source), fr: page(fr) }).toEqual({
      source:
        '<main lang="en-US"><h1>Welcome to the shop</h1> <p title="Greeting">Hello Ada!</p> <p>Read the <a href="/terms">terms</a>.</p></main>',
      fr: '<main lang="fr-FR"><h1>Bienvenue dans la boutique</h1> <p title="Salutation">Bonjour Ada !</p> <p>Lisez les <a href="/terms">conditions</a>.</p></main>',
    })
  },
)
