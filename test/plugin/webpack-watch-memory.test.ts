import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import webpack from 'webpack'
import tmsWebpack from '../../src/webpack'
import { webpackConfig } from './bundlers'
import { suiteProject } from './helpers'

/**
 * A webpack watch lets each compilation go once a newer one is done. Its own file: the first ES module
 * loader this process loads is the one that counts (src/plugin/webpack-loader-import.ts).
 */

const suite = suiteProject(true)

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

test("a webpack watch keeps no compilation after a newer one is done (webpack's loader import)", async () => {
  const { root } = suite.current
  const plugin = tmsWebpack(suite.current.options())
  const compiler = webpack(
    webpackConfig(root, join(root, 'dist-webpack-memory'), plugin, 'development') as webpack.Configuration,
  )
  // Told when the first compilation is collected. (A WeakRef would not tell: each `deref()` keeps its
  // object alive until the current job ends.)
  let compilations = 0
  let collected = false
  const registry = new FinalizationRegistry(() => {
    collected = true
  })
  compiler.hooks.thisCompilation.tap('test', (compilation) => {
    if (compilations++ === 0) registry.register(compilation, 'first')
  })
  let done = 0
  let errors = ''
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
    errors += error?.message ?? (stats?.hasErrors() ? String(stats.compilation.errors[0]) : '')
    done++
  })
  if (!watching) throw new Error('webpack did not start the watch')
  const builds = async (n: number): Promise<void> => {
    for (let i = 0; i < 1500 && done < n; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(done).toBe(n)
  }
  try {
    await builds(1)
    watching.invalidate()
    await builds(2)
    watching.invalidate()
    await builds(3)
    expect(errors).toBe('')
    expect(compilations).toBe(3)
    // Collected once nothing holds it: some references go only with a later turn of the event loop.
    for (let i = 0; i < 100 && !collected; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(collected).toBe(true)
  } finally {
    await new Promise<void>((resolve) => watching.close(() => resolve()))
  }
}, 60_000)
