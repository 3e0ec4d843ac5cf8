import type { UnpluginOptions } from 'unplugin'
import { PLUGIN_NAME, type PluginContext } from './context'
import { configureDevServer, type DevServerCatalogs } from './dev'
import { DevOverlay, overlayWanted } from './overlay/index'
import { overlayInDevServer } from './overlay/webpack'
import { pullsInDevServer } from './pull-channel'
import { compilerSlice, trustVirtualModules, watchWithoutVirtualModules } from './webpack-like'
import { makeLoaderImportEarly } from './webpack-loader-import'

/**
 * The dev server and its review overlay: vite's server gets the catalogs' hot updates and the
 * overlay's endpoints; a webpack or rspack dev server gets the overlay. Builds make none of it.
 */
export function devServerPlugin(plugins: PluginContext): UnpluginOptions {
  const { session } = plugins
  let catalogs: DevServerCatalogs | undefined
  const made = (overlay: DevOverlay): void => {
    plugins.overlay = overlay
  }
  return {
    name: PLUGIN_NAME,
    enforce: 'pre',
    webpack(compiler) {
      watchWithoutVirtualModules(compiler)
      trustVirtualModules(compiler)
      // Only a watch has a compilation after its first, which the loader import would keep.
      let early = false
      compiler.hooks.watchRun.tap(PLUGIN_NAME, () => {
        if (!early) makeLoaderImportEarly(compiler.webpack)
        early = true
      })
      overlayInDevServer(session, compilerSlice(compiler), 'webpack', made)
      pullsInDevServer(session, plugins.webpackState, compilerSlice(compiler))
    },
    rspack(compiler) {
      overlayInDevServer(session, compilerSlice(compiler), 'rspack', made)
      pullsInDevServer(session, plugins.webpackState, compilerSlice(compiler))
    },
    vite: {
      // Its transform has no filter: in a build, vite 8 would call into JavaScript for every module
      // to return null (2% of a warm build of BENCHMARKS.md's 2,000-component app).
      apply: 'serve',
      configureServer(server) {
        plugins.keptSources = new Map()
        catalogs = configureDevServer(session, server)
        if (overlayWanted()) {
          const overlay = new DevOverlay(session)
          made(overlay)
          overlay.configureServer(server)
        }
      },
      // A module rewritten without moving a character returned no map: the map the server serves is
      // then its TypeScript/JSX transform's alone, whose content is what that transform was given, the
      // rewritten code. After every other transform, the map that far (which vite keeps and extends
      // with any later one's) gets the code the rewrite was given as its content, for the browser's
      // devtools; a map whose content is another (an earlier plugin's, which mapped its own) stays.
      transform: {
        order: 'post',
        handler(_code, id) {
          const kept = plugins.keptSources?.get(id)
          if (kept === undefined) return null
          plugins.keptSources?.delete(id)
          const map = this.getCombinedSourcemap()
          if (map.sources.length === 1 && map.sourcesContent?.[0] === kept.code) {
            map.sourcesContent = [kept.source]
          }
          return null
        },
      },
      // A dev server's close ends its build (vite calls closeBundle then, in middleware mode too): no
      // cache change, debounce or refresh may reach the released session after it.
      closeBundle() {
        catalogs?.close()
        catalogs = undefined
      },
    },
  }
}
