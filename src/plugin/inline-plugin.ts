import type { UnpluginOptions } from 'unplugin'
import { loadOptions } from '../config'
import { isRollupLike, PLUGIN_NAME, type PluginContext } from './context'
import {
  copyPublicDir,
  emitLocaleCopies,
  inlineBase,
  inlinePublicPath,
  type LikeInlineCompilation,
  type LikeInlineCompiler,
  tapInlineCopies,
} from './inline/index'
import { compilerSlice } from './webpack-like'

/** The slice of webpack's and rspack's compiler the copies hook into. */
interface CopyingCompiler extends LikeInlineCompiler {
  hooks: { thisCompilation: { tap(name: string, fn: (compilation: LikeInlineCompilation) => void): void } }
}

/**
 * Inline mode's copies (`src/plugin/inline/`): once every other plugin has finished the output, one
 * copy of it per locale with the translations in place. Runtime-mode builds pass through untouched.
 */
export function inlineCopiesPlugin(plugins: PluginContext): UnpluginOptions {
  const { session, raw, hasConfigFile } = plugins
  const plugin: UnpluginOptions = { name: PLUGIN_NAME, enforce: 'pre' }
  const webpackLike = (compiler: CopyingCompiler): void => {
    // rspack reads the output options once, before the first build starts.
    if (raw?.mode === 'inline') inlinePublicPath(compiler)
    compiler.hooks.thisCompilation.tap(PLUGIN_NAME, (compilation) =>
      tapInlineCopies(() => session.openBuild, compiler, compilation),
    )
  }
  plugin.webpack = (compiler) => webpackLike(compilerSlice(compiler))
  plugin.rspack = (compiler) => webpackLike(compilerSlice(compiler))
  if (!isRollupLike(plugins.framework)) return plugin
  // After every other plugin, so the copies are made of the finished chunks and pages.
  const generateBundle = {
    order: 'post' as const,
    async handler(
      this: Parameters<typeof emitLocaleCopies>[1],
      output: Parameters<typeof emitLocaleCopies>[2],
      bundle: Parameters<typeof emitLocaleCopies>[3],
    ): Promise<void> {
      if (!session.openBuild?.inline) return
      // The translations: buildEnd has waited for them already.
      await session.synced()
      await emitLocaleCopies(session.build, this, output, bundle)
    },
  }
  plugin.rollup = { generateBundle }
  plugin.rolldown = { generateBundle }
  let viteConfig: Parameters<typeof copyPublicDir>[1] | undefined
  plugin.vite = {
    generateBundle,
    async config(config, env) {
      if (env.command !== 'build' || (raw?.mode !== 'inline' && !hasConfigFile)) return
      if ((raw?.mode ?? (await loadOptions(raw ?? {})).mode) !== 'inline') return
      const base = inlineBase(config.base)
      return base ? { base } : undefined
    },
    configResolved(config) {
      viteConfig = config
    },
    writeBundle: {
      order: 'post',
      handler() {
        const build = session.openBuild
        if (build?.inline && viteConfig) copyPublicDir(build, viteConfig)
      },
    },
  }
  return plugin
}
