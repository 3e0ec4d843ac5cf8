/**
 * Configs as most webpack users write them: a CommonJS project (`"type": "commonjs"`, what `npm init -y`
 * makes) whose webpack.config.js `require`s the plugin. The package is linked into the app (as `npm link`
 * does) with its built dist/, and real webpack runs the config. The bundle is then run in Node, in the
 * pseudo-locale, so the plugin's catalogs are proven to be in it.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO } from '../../scripts/pack-install'
import { pseudoLocalize } from '../../src/core/model/pseudo'

const run = promisify(execFile)
let app: string

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'tms-commonjs-'))
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'cjs-app', version: '1.0.0', type: 'commonjs' }),
  )
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(REPO, join(app, 'node_modules', 'unplugin-tms'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'webpack'), join(app, 'node_modules', 'webpack'), 'dir')
  mkdirSync(join(app, 'src'))
  writeFileSync(
    join(app, 'src', 'main.mjs'),
    [
      "import { setLocale, t } from 'unplugin-tms/runtime'",
      "setLocale('en-XA').then(() => console.log(t('Hello {name}!', { name: 'Ada' })))",
      '',
    ].join('\n'),
  )
  writeFileSync(
    join(app, 'webpack.config.js'),
    [
      "const path = require('node:path')",
      "const Tms = require('unplugin-tms/webpack')",
      '',
      'module.exports = {',
      "  mode: 'production',",
      "  target: 'node',",
      "  entry: './src/main.mjs',",
      "  output: { path: path.resolve(__dirname, 'dist') },",
      "  plugins: [Tms({ locales: ['fr-FR'], pseudo: true, cache: 'offline', report: false })],",
      '}',
      '',
    ].join('\n'),
  )
  // webpack-cli's `webpack` command does this: require the config, run the compiler.
  writeFileSync(
    join(app, 'build.js'),
    [
      "const webpack = require('webpack')",
      "webpack(require('./webpack.config.js'), (error, stats) => {",
      '  if (error || stats.hasErrors()) {',
      "    console.error(error ?? stats.toString('errors-only'))",
      '    process.exitCode = 1',
      '  }',
      '})',
      '',
    ].join('\n'),
  )
})

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true })
})

const node = (args: string[]) =>
  run(process.execPath, args, { cwd: app, env: { PATH: process.env.PATH ?? '' } })

describe('CommonJS configs', () => {
  it('require() of each bundler entry returns the plugin factory, also as .default; the Nuxt module likewise', async () => {
    const script = `
      for (const entry of ['vite', 'webpack', 'rollup', 'esbuild', 'rspack', 'rolldown']) {
        const plugin = require('unplugin-tms/' + entry)
        console.log(entry, typeof plugin, plugin.default === plugin)
      }
      const root = require('unplugin-tms')
      console.log('root', typeof root.unplugin.webpack, typeof root.unpluginFactory, root.default === root.unplugin)
      console.log('next', typeof require('unplugin-tms/next').withTms)
      const nuxt = require('unplugin-tms/nuxt')
      console.log('nuxt', typeof nuxt, nuxt.default === nuxt, JSON.stringify(nuxt.meta))`
    const { stdout, stderr } = await node(['-e', script])
    expect(stdout).toBe(
      [
        'vite function true',
        'webpack function true',
        'rollup function true',
        'esbuild function true',
        'rspack function true',
        'rolldown function true',
        'root function function true',
        'next function',
        'nuxt function true {"name":"unplugin-tms","configKey":"tms"}',
        '',
      ].join('\n'),
    )
    // No experimental warning of require(esm) reaches the user.
    expect(stderr).toBe('')
  }, 60_000)

  it('a CommonJS webpack.config.js builds with real webpack, and the bundle is translated', async () => {
    const built = await node(['build.js'])
    expect(built.stderr).toBe('')
    const { stdout } = await node([join('dist', 'main.js')])
    expect(stdout).toBe(`${pseudoLocalize('Hello {name}!', 'en-XA').replace('{name}', 'Ada')}\n`)
  }, 120_000)
})
