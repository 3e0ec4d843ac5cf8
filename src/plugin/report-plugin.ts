import type { UnpluginOptions } from 'unplugin'
import type { ViteBuilder } from 'vite'
import { isRollupLike, isWebpackLike, PLUGIN_NAME, type PluginContext } from './context'
import { esbuildSetup } from './esbuild'
import { rollupLikeHooks } from './rollup-like'
import { compilerSlice, webpackLikeHooks } from './webpack-like'

/**
 * A build's start, sync and report in each bundler family's hooks: the session's build starts
 * (extraction, then push and pull), its problems and its report reach the bundler, and it is released
 * when the bundler is done with it. A new or deleted file re-runs the `include` globs.
 */
export function reportPlugin(plugins: PluginContext): UnpluginOptions {
  const { session, framework, rollupState, webpackState } = plugins
  const plugin: UnpluginOptions = {
    name: PLUGIN_NAME,
    enforce: 'pre',
    watchChange(id, change) {
      // A new or deleted file may change what `include` selects.
      if (change.event !== 'update') return session.refreshIncluded(id)
    },
  }
  if (framework === 'esbuild') {
    plugin.esbuild = { setup: esbuildSetup(session) }
    return plugin
  }
  if (isWebpackLike(framework)) {
    const hooks = webpackLikeHooks(session, webpackState)
    plugin.buildStart = hooks.buildStart
    plugin.buildEnd = hooks.buildEnd
    plugin.webpack = (compiler) => hooks.apply(compilerSlice(compiler))
    plugin.rspack = (compiler) => hooks.apply(compilerSlice(compiler))
    return plugin
  }
  if (!isRollupLike(framework)) return plugin
  const hooks = rollupLikeHooks(session, rollupState)
  plugin.buildStart = hooks.buildStart
  plugin.buildEnd = hooks.buildEnd
  const { renderStart, closeBundle } = hooks
  plugin.rollup = { renderStart, closeBundle }
  plugin.rolldown = { renderStart, closeBundle }
  // Vite 7 and later, before any environment is built: a failure rolldown (vite 8) would wrap in its
  // own error, with its stack and its `errors` below our message, reaches vite's CLI as it is.
  const buildApp = {
    order: 'pre' as const,
    async handler(builder: ViteBuilder): Promise<void> {
      // Only when this instance builds (each environment may have its own, see vite's
      // `sharedConfigBuild`), and not for a watch, which reports each build's failures and goes on.
      const builds = Object.values(builder.environments).some((env) =>
        env.config.plugins.some((p) => p.buildApp === buildApp),
      )
      if (builds && !builder.config.build.watch) await session.checked()
    },
  }
  plugin.vite = {
    buildApp,
    renderStart,
    closeBundle,
    configResolved(config) {
      rollupState.command = config.command
      session.configure({
        root: config.root,
        devServer: config.command === 'serve',
        // A production build without build.sourcemap never reads the transforms' maps.
        sourcemap: config.command === 'serve' || config.build.sourcemap !== false,
      })
      rollupState.info = (text) => config.logger.info(text)
      rollupState.error = (text) => config.logger.error(text)
    },
  }
  return plugin
}
