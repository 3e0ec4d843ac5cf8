import { fileURLToPath } from 'node:url'
import type { UnpluginOptions } from 'unplugin'
import { escapeRegex } from '../core/escape-regex'
import { REACT_MODULE } from '../core/extract/jsx'
import { isRollupLike, isWebpackLike, PLUGIN_NAME, type PluginContext } from './context'
import { catalogBaseModuleLocale, hotCatalogsOf } from './hot-catalog'
import { PULLS_PATH } from './pull-channel'
import {
  type CatalogChunk,
  type CatalogFilesContext,
  catalogChunkHash,
  fillChunkCatalogs,
  type OutputFiles,
  type Sourcemap,
  writeCatalogFiles,
} from './rollup-like'
import { isServerCompiler } from './server-compiler'
import { SVELTE_RUNTIME } from './transform'
import { CATALOG_MARKER_NAME, catalogModuleLocale, literalCatalogModule, RUNTIME_ID } from './virtual'
import { VUE_BINDING } from './vue-sfc'
import { loadWatchCatalogModule } from './watch-catalogs'

/**
 * The runtime and the catalogs as virtual modules: `unplugin-tms/runtime` resolved to the build's one
 * runtime module, one catalog module per locale (and the dev overlay's modules), and, in the rollup
 * family, the catalog markers of the rendered chunks filled once every module is known.
 */

/** What apps import; resolved to the virtual runtime module of the build. */
export const RUNTIME_SPECIFIER = 'unplugin-tms/runtime'
const PACKAGE_NAME = 'unplugin-tms'

/** `\x00`, not `\0`: esbuild's Go regular expressions read this one too. */
const VIRTUAL = /^\x00tms\//
const RUNTIME_EXACT = new RegExp(`^${escapeRegex(RUNTIME_SPECIFIER)}$`)
/** See the vite config hook below. */
const RUNTIME_PROXY = fileURLToPath(new URL('./runtime-proxy.mjs', import.meta.url))
const RESOLVED = new RegExp(`${RUNTIME_EXACT.source}|${VIRTUAL.source}`)

/** Left to vite's resolveId in dev: the bindings import the runtime, and pre-bundled would carry a second copy. */
const NOT_PREBUNDLED = [RUNTIME_SPECIFIER, SVELTE_RUNTIME, VUE_BINDING, REACT_MODULE]

/** Vite: whether a hook runs for a server (SSR) environment, from vite 6's environments or the older `ssr` flag. */
function isServerEnvironment(ctx: unknown, options: { ssr?: boolean } | undefined): boolean {
  const consumer = (ctx as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer
  return consumer === undefined ? options?.ssr === true : consumer === 'server'
}

/** The options of the webpack or rspack compiler a hook runs in (undefined elsewhere). */
function compilerOptions(ctx: unknown): Parameters<typeof isServerCompiler>[0] {
  const native = (ctx as { getNativeBuildContext?: () => unknown }).getNativeBuildContext?.() as
    | { compiler?: { options?: Parameters<typeof isServerCompiler>[0] } }
    | undefined
  return native?.compiler?.options
}

/**
 * The `load` hook of the virtual modules: the runtime module (the server runtime for vite's SSR), the
 * dev overlay's modules, and one catalog module per locale.
 */
function loadVirtual(plugins: PluginContext) {
  const { session, framework } = plugins
  const isVite = framework === 'vite'
  return async function load(this: unknown, id: string, loadOptions?: { ssr?: boolean }) {
    await session.ready()
    const code = await loadCode.call(this, plugins, id, loadOptions)
    // Generated code has no source of its own: vite's dev server would otherwise map each such module
    // to itself, character by character (a catalog's map runs to megabytes), and inline that map in
    // the response. An empty map says there is none.
    if (typeof code === 'string' && isVite && session.command === 'serve') return { code, map: NO_MAP }
    return code
  }
}

/** The source map of generated code (rollup's and vite's word for "none"). */
const NO_MAP = { mappings: '' as const }

/** What a virtual module holds: its code, or null for an id that is not one. */
async function loadCode(
  this: unknown,
  plugins: PluginContext,
  id: string,
  loadOptions: { ssr?: boolean } | undefined,
): Promise<string | null> {
  const { session, framework, webpackState } = plugins
  const isVite = framework === 'vite'
  const webpackLike = isWebpackLike(framework)
  const dev = isVite && session.command === 'serve'
  // A dev server's build (vite's, webpack's, rspack's): only a dev server makes an overlay.
  const devOverlay = session.command === 'serve' ? plugins.overlay : undefined
  if (id === RUNTIME_ID) {
    // Vite's SSR (a `--ssr` build, `ssrLoadModule`, a server environment) and webpack's or rspack's
    // server compilers: the server runtime, with no HMR hook, which only the browser's receives.
    const server = isVite
      ? isServerEnvironment(this, loadOptions)
      : webpackLike && isServerCompiler(compilerOptions(this))
    // A page of webpack's or rspack's dev server listens to its channel of pulled translations.
    const pulls = webpackLike && !server && session.command === 'serve' && webpackState.pulls
    const runtime = await session.runtimeModule({
      hot: dev && !server,
      chunkNames: webpackLike,
      server,
      pulls: pulls ? PULLS_PATH : undefined,
    })
    return devOverlay && !server ? devOverlay.runtime(runtime) : runtime
  }
  const overlaid = devOverlay ? await devOverlay.load(id) : undefined
  if (overlaid !== undefined) return overlaid
  const base = catalogBaseModuleLocale(id)
  const locale = base ?? catalogModuleLocale(id)
  if (locale === undefined || !session.build.locales.includes(locale)) return null
  // A catalog module holds translations: it waits for the pull, which the other modules do not.
  try {
    await session.syncedLatest()
  } catch (error) {
    // A production build fails in buildEnd with the sync's own error, not with one "Could not
    // load" wrapped around it per locale.
    if (!dev && !webpackLike) return literalCatalogModule(new Map())
    throw error
  }
  if (dev) {
    const { build } = session
    return literalCatalogModule(build.catalogLiteralFor(locale), build.catalogDigestFor(locale))
  }
  if (webpackLike && session.command === 'serve') {
    if (base !== undefined) return hotCatalogsOf(session.build).baseModule(locale, webpackState.files)
    return loadWatchCatalogModule(session, webpackState, compilerOptions(this), id, locale)
  }
  if (webpackLike) return session.catalogModule(locale, { files: webpackState.files ?? [] })
  return session.catalogModule(locale, { marker: framework === 'esbuild' ? 'digest' : 'render' })
}

export function virtualModulesPlugin(plugins: PluginContext): UnpluginOptions {
  const { session, rollupState } = plugins
  const plugin: UnpluginOptions = {
    name: PLUGIN_NAME,
    enforce: 'pre',
    resolveId: {
      // Rolldown's own alias (the options hook below) resolves the specifier: rolldown calls the
      // plugins' resolveId before its alias, so the filter must leave the specifier out.
      filter: { id: plugins.framework === 'rolldown' ? VIRTUAL : RESOLVED },
      handler(id) {
        if (id === RUNTIME_SPECIFIER) return RUNTIME_ID
        return VIRTUAL.test(id) ? id : null
      },
    },
    load: { filter: { id: VIRTUAL }, handler: loadVirtual(plugins) },
    // esbuild calls a plugin's callbacks for the paths its Go filter matches (unplugin's default
    // matches every import and every file), and resolves the runtime by its own alias, as rolldown
    // does below: no call from Go per importing module. An alias of the app's for it is the app's choice.
    esbuild: {
      onResolveFilter: VIRTUAL,
      onLoadFilter: VIRTUAL,
      config(options) {
        if (options.alias && RUNTIME_SPECIFIER in options.alias) return
        options.alias = { ...options.alias, [RUNTIME_SPECIFIER]: RUNTIME_PROXY }
      },
    },
  }
  if (!isRollupLike(plugins.framework)) return plugin
  // A catalog's own chunk is written as a file of bytes in generateBundle (`writeCatalogFiles`). Any
  // other marker (an output with source maps, a chunk the app's chunking shared) is filled by the last
  // renderChunk hook: the others (vite's own, a minifier plugin's) then read the small marker rather
  // than a catalog of megabytes, each copied between the bundler and JavaScript; the marker survives a
  // minifier (see `catalogMarker`). One entry per bundler: each types its own context and output options.
  // Rolldown (vite 8 too) reads the filter itself: a chunk with no marker, the entry of megabytes
  // among them, is not copied into JavaScript to be searched. Rollup has no renderChunk filter; the
  // handler looks itself.
  const filter = { code: { include: CATALOG_MARKER_NAME } }
  // A catalog's own chunk: its catalog's digest in its name, its file written as bytes (rollup-like.ts).
  const catalogFiles = {
    augmentChunkHash(this: CatalogFilesContext, chunk: CatalogChunk) {
      return catalogChunkHash(session, rollupState, this, chunk)
    },
    generateBundle: {
      order: 'post' as const,
      handler(this: CatalogFilesContext, output: { sourcemap?: Sourcemap }, bundle: OutputFiles) {
        writeCatalogFiles(session, rollupState, this, output.sourcemap, bundle)
      },
    },
  }
  plugin.rollup = {
    renderChunk: {
      order: 'post',
      handler(code, chunk, output) {
        return fillChunkCatalogs(session, rollupState, this, code, chunk, output.sourcemap)
      },
    },
    ...catalogFiles,
  }
  plugin.rolldown = {
    // As vite's build below: rolldown's own alias, not a resolveId call per importing module. An
    // alias of the app's for the specifier is the app's choice.
    options(input) {
      const alias = input.resolve?.alias
      if (alias && RUNTIME_SPECIFIER in alias) return null
      return {
        ...input,
        resolve: { ...input.resolve, alias: { ...alias, [RUNTIME_SPECIFIER]: RUNTIME_PROXY } },
      }
    },
    renderChunk: {
      order: 'post',
      filter,
      handler(code, chunk, output) {
        return fillChunkCatalogs(session, rollupState, this, code, chunk, output.sourcemap)
      },
    },
    ...catalogFiles,
  }
  plugin.vite = {
    renderChunk: {
      order: 'post',
      filter,
      handler(code, chunk, output) {
        return fillChunkCatalogs(session, rollupState, this, code, chunk, output.sourcemap)
      },
    },
    ...catalogFiles,
    config(_config, env) {
      return {
        // A production build's modules import the runtime through a file that re-exports the runtime
        // module: vite's alias (native in vite 8) resolves each import, where the plugin's resolveId
        // would be called for every module that imports it (about 0.2x of a build of 2,000 modules,
        // BENCHMARKS.md). The dev server keeps the resolveId: its dependency optimizer reads aliases too.
        ...(env.command === 'build'
          ? { resolve: { alias: [{ find: RUNTIME_EXACT, replacement: RUNTIME_PROXY }] } }
          : {}),
        optimizeDeps: { exclude: NOT_PREBUNDLED },
        // Vite's SSR leaves packages of node_modules to Node, which would import the runtime file
        // itself: no catalogs registered, source text in every locale. The plugin's resolveId must see it.
        ssr: { noExternal: [PACKAGE_NAME] },
      }
    },
  }
  return plugin
}
