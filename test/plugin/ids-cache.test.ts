import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RspackOptions, rspack } from '@rspack/core'
import { watch as rollupWatch } from 'rollup'
import { afterEach, expect, test } from 'vitest'
import webpack from 'webpack'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsRollup from '../../src/rollup'
import tmsRspack from '../../src/rspack'
import { VERSION } from '../../src/version'
import tmsWebpack from '../../src/webpack'
import { buildWebpack, webpackConfig } from './bundlers'
import { idsApp, renderInNode } from './helpers'

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

test('webpack filesystem cache: a module kept from the last process still finds its text when an added message shares its short id', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-cache-'))
  const options = {
    root,
    locales: ['fr-FR'],
    pseudo: true,
    cache: 'offline' as const,
    push: false,
    failOnMissing: false,
  }
  const cacheDirectory = join(root, '.webpack-cache')
  idsApp(root, ['Save 144024'])
  const first = await buildWebpack(root, options, 'production', cacheDirectory)
  expect((await renderInNode(first.entry!)).pseudo).toEqual([pseudoLocalize('Save 144024', 'en-XA')])
  idsApp(root, ['Save 144024', 'Save 322135'])
  const second = await buildWebpack(root, options, 'production', cacheDirectory)
  // The first module is the cache's copy, with the short id; the added one has its long id.
  expect(readFileSync(second.entry!, 'utf8').match(/F3OWHU\w*/g)).toEqual(['F3OWHU', 'F3OWHUHO'])
  expect((await renderInNode(second.entry!)).pseudo).toEqual([
    pseudoLocalize('Save 144024', 'en-XA'),
    pseudoLocalize('Save 322135', 'en-XA'),
  ])
})

test("a disk cache of webpack or rspack is this version's: modules another version made (8-character ids) are not reused", () => {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-cache-'))
  const options = { root, locales: ['fr-FR'], cache: 'offline' as const, push: false }
  const mark = `unplugin-tms@${VERSION}`
  const base = webpackConfig(root, join(root, 'dist'), tmsWebpack(options), 'production', join(root, '.wp'))
  expect(webpack(base as webpack.Configuration).options.cache).toMatchObject({
    type: 'filesystem',
    version: mark,
  })
  const own = { ...base, cache: { type: 'filesystem', version: 'v2' } }
  expect(webpack(own as webpack.Configuration).options.cache).toMatchObject({ version: `v2+${mark}` })
  // rspack 2's persistent cache is `cache`; rspack 1.2 to 1.x had it as `experiments.cache`, and rspack
  // 1.0 and 1.1 only a boolean `cache`, which holds nothing across runs.
  const [major, minor] = rspack.rspackVersion.split('.').map(Number) as [number, number]
  const persistent = { type: 'persistent' }
  const plugins = [tmsRspack(options)]
  if (major >= 2) {
    const made = rspack({ ...base, plugins, cache: persistent } as RspackOptions).options
    expect(made.cache).toMatchObject({ type: 'persistent', version: mark })
  } else if (minor >= 2) {
    const experiments = { ...base.experiments, cache: persistent }
    const made = rspack({ ...base, plugins, cache: true, experiments } as RspackOptions).options
    expect((made.experiments as { cache?: unknown }).cache).toMatchObject({
      type: 'persistent',
      version: mark,
    })
  }
  // A memory cache lives as long as the process: nothing to version.
  const memory = { ...base, cache: { type: 'memory' } }
  expect(webpack(memory as webpack.Configuration).options.cache).not.toHaveProperty('version', mark)
})

test('rollup watch: the module rollup keeps keeps its short id when an added message shares it', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-watch-'))
  const dir = root
  const options = { root, locales: ['fr-FR'], pseudo: true, cache: 'offline' as const, push: false }
  idsApp(dir, ['Save 144024'])
  const outDir = join(dir, 'dist')
  const watcher = rollupWatch({
    input: join(dir, 'src/main.js'),
    plugins: [tmsRollup(options)],
    output: { dir: outDir, format: 'es' },
    watch: { buildDelay: 50 },
  })
  // Each finished build's output, copied before the watcher can start the next.
  const builds: string[] = []
  const waiting: (() => void)[] = []
  const built = (count: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (errors.length > 0) reject(new Error(errors[0]))
        else if (builds.length >= count) resolve()
        else waiting.push(check)
      }
      check()
    })
  const errors: string[] = []
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END') void event.result.close()
    if (event.code === 'ERROR') errors.push(event.error.message)
    if (event.code === 'END') {
      const copy = `${outDir}-${builds.length}`
      cpSync(outDir, copy, { recursive: true })
      builds.push(copy)
    }
    if (event.code === 'END' || event.code === 'ERROR') for (const wake of waiting.splice(0)) wake()
  })
  try {
    await built(1)
    expect((await renderInNode(join(builds[0]!, 'main.js'))).pseudo).toEqual([
      pseudoLocalize('Save 144024', 'en-XA'),
    ])
    idsApp(dir, ['Save 144024', 'Save 322135'])
    await built(2)
    const main = readFileSync(join(builds[1]!, 'main.js'), 'utf8')
    expect(main.match(/F3OWHU\w*/g)).toEqual(['F3OWHU', 'F3OWHUHO'])
    expect((await renderInNode(join(builds[1]!, 'main.js'))).pseudo).toEqual([
      pseudoLocalize('Save 144024', 'en-XA'),
      pseudoLocalize('Save 322135', 'en-XA'),
    ])
  } finally {
    await watcher.close()
  }
})
