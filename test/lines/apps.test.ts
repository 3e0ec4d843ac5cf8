/**
 * An app that pins an older release line of its bundler (vite 5 to 8 with the framework plugins of each,
 * webpack 5.95, @rspack/core 1, esbuild 0.25, rollup 4.30) installs the packed package as
 * `npm install -D unplugin-tms` would, with no peer conflict, and its build is translated. One install per line, from the npm registry (the local
 * cache when it can): slow, so scripts/test-bundler-lines.mjs runs this file (test/lines/vitest.config.ts),
 * not `npm test`. Needs dist/ built.
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { npmInstall, packTarball, userEnv } from '../../scripts/pack-install'
import {
  FRENCH_TEXT,
  type Project,
  PSEUDO_TEXT,
  renderInNode,
  SOURCE_TEXT,
  setupProject,
} from '../plugin/helpers'

const run = promisify(execFile)
const INSTALL_TIMEOUT = 300_000

/** The plugin's options: the test's emulator, from the environment the build script runs in. */
const OPTIONS = 'JSON.parse(process.env.TMS_TEST_OPTIONS)'

/**
 * The framework plugins of a vite app, each of the line its vite pairs with (react, vue and svelte
 * beside them): the app installs them with the packed package, with no peer conflict, and its build
 * runs with them before unplugin-tms. Their transforms of components are the bundler lines' example
 * tests (test/react, test/vue, test/svelte), which build and render each example on these lines.
 */
const FRAMEWORKS = `import react from '@vitejs/plugin-react'
import vue from '@vitejs/plugin-vue'
import { svelte } from '@sveltejs/vite-plugin-svelte'
const frameworks = [react(), vue(), svelte()]
`
const frameworkSpecs = (react: number, vue: number, svelte: number): string[] => [
  `@vitejs/plugin-react@^${react}`,
  `@vitejs/plugin-vue@^${vue}`,
  `@sveltejs/vite-plugin-svelte@^${svelte}`,
  'react',
  'react-dom',
  'vue',
  'svelte@^5',
]

/** Each bundler's build of `src/main.js` into `dist/main.js`, an ES module Node can run, as an app writes it. */
const BUILD_SCRIPTS = {
  vite: `import tms from 'unplugin-tms/vite'
import { build } from 'vite'
${FRAMEWORKS}await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [...frameworks, tms(${OPTIONS})],
  build: { lib: { entry: 'src/main.js', formats: ['es'], fileName: 'main' }, outDir: 'dist' },
})
`,
  webpack: `import tms from 'unplugin-tms/webpack'
import webpack from 'webpack'
const config = {
  mode: 'production',
  context: process.cwd(),
  entry: './src/main.js',
  target: 'node',
  output: {
    path: process.cwd() + '/dist',
    filename: 'main.js',
    module: true,
    chunkFormat: 'module',
    chunkLoading: 'import',
    library: { type: 'module' },
  },
  experiments: { outputModule: true },
  plugins: [tms(${OPTIONS})],
}
const stats = await new Promise((resolve, reject) =>
  webpack(config).run((error, stats) => (error ? reject(error) : resolve(stats))),
)
if (stats.hasErrors()) throw new Error(stats.toString('errors-only'))
`,
  rspack: `import tms from 'unplugin-tms/rspack'
import { rspack } from '@rspack/core'
const config = {
  mode: 'production',
  context: process.cwd(),
  entry: './src/main.js',
  target: 'node',
  output: {
    path: process.cwd() + '/dist',
    filename: 'main.js',
    module: true,
    chunkFormat: 'module',
    chunkLoading: 'import',
    library: { type: 'module' },
  },
  experiments: { outputModule: true },
  plugins: [tms(${OPTIONS})],
}
const stats = await new Promise((resolve, reject) =>
  rspack(config).run((error, stats) => (error ? reject(error) : resolve(stats))),
)
if (stats.hasErrors()) throw new Error(stats.toString('errors-only'))
`,
  esbuild: `import tms from 'unplugin-tms/esbuild'
import { build } from 'esbuild'
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  splitting: true,
  format: 'esm',
  outdir: 'dist',
  plugins: [tms(${OPTIONS})],
})
`,
  rollup: `import tms from 'unplugin-tms/rollup'
import { rollup } from 'rollup'
const bundle = await rollup({ input: 'src/main.js', plugins: [tms(${OPTIONS})] })
await bundle.write({ dir: 'dist', format: 'es' })
await bundle.close()
`,
} as const

/** The lines the issue names, each pinned as an app that has not upgraded would pin it. */
const LINES: { line: string; bundler: keyof typeof BUILD_SCRIPTS; spec: string; with?: string[] }[] = [
  // The vite releases no set of scripts/test-bundler-lines.mjs holds: vite 5's newest, the floors of 6, 7
  // and 8; each with the framework plugins' lines that pair with it (plugin-react 4 to 6, plugin-vue 5
  // and 6, vite-plugin-svelte 4 to 7 for Svelte 5).
  { line: 'vite 5', bundler: 'vite', spec: 'vite@^5', with: frameworkSpecs(4, 5, 4) },
  { line: 'vite 6', bundler: 'vite', spec: 'vite@6.0.0', with: frameworkSpecs(4, 5, 5) },
  { line: 'vite 7', bundler: 'vite', spec: 'vite@7.0.0', with: frameworkSpecs(5, 6, 6) },
  { line: 'vite 8.0', bundler: 'vite', spec: 'vite@8.0.0', with: frameworkSpecs(6, 6, 7) },
  { line: 'webpack 5.95', bundler: 'webpack', spec: 'webpack@5.95.0' },
  { line: '@rspack/core 1', bundler: 'rspack', spec: '@rspack/core@^1' },
  { line: 'esbuild 0.25', bundler: 'esbuild', spec: 'esbuild@0.25.0' },
  { line: 'rollup 4.30', bundler: 'rollup', spec: 'rollup@4.30.0' },
]

let dir: string
let tarball: string
let project: Project

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tms-lines-'))
  tarball = await packTarball(dir)
  project = await setupProject(undefined, undefined, dir)
}, INSTALL_TIMEOUT)

afterAll(async () => {
  await project?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe.each(LINES)('an app on $line', ({ bundler, spec, with: frameworks = [] }) => {
  let app: string
  let install: { stdout: string; stderr: string }

  beforeAll(async () => {
    // The fixture app (its package.json `name` is the namespace its strings were pushed under), in a
    // directory of its own whose node_modules holds only what it installs.
    app = mkdtempSync(join(dir, `${bundler}-`))
    cpSync(join(project.root, 'src'), join(app, 'src'), { recursive: true })
    cpSync(join(project.root, 'package.json'), join(app, 'package.json'))
    writeFileSync(join(app, 'build.mjs'), BUILD_SCRIPTS[bundler])
    install = await npmInstall(app, [spec, ...frameworks, tarball])
  }, INSTALL_TIMEOUT)

  it('installs unplugin-tms beside it with no peer conflict', () => {
    expect(install.stderr).not.toMatch(/ERESOLVE|peer/i)
    expect(existsSync(join(app, 'node_modules', 'unplugin-tms', 'package.json'))).toBe(true)
  })

  it(
    'builds, and the output renders the French and pseudo text',
    async () => {
      const options = project.options({ root: app, cacheDir: join(app, '.tms-cache'), report: false })
      await run(process.execPath, ['build.mjs'], {
        cwd: app,
        env: userEnv({ TMS_TEST_OPTIONS: JSON.stringify(options) }),
      })
      const rendered = await renderInNode(join(app, 'dist', 'main.js'))
      expect(rendered).toEqual({ source: SOURCE_TEXT, fr: FRENCH_TEXT, pseudo: PSEUDO_TEXT, pwned: false })
    },
    INSTALL_TIMEOUT,
  )
})
