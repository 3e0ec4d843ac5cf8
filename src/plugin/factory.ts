import type { UnpluginContextMeta, UnpluginMessage, UnpluginOptions } from 'unplugin'
import type { ViteDevServer } from 'vite'
import { findConfigFile, loadOptions } from '../config'
import { escapeRegex } from '../core/escape-regex'
import { REACT_MODULE } from '../core/extract/jsx'
import { MESSAGE_COMPONENT_MENTION } from '../core/extract/vue'
import { type Options, resolveOptions, TmsConfigError } from '../options'
import { configureDevServer } from './dev'
import { esbuildSetup, toEsbuildMessage } from './esbuild'
import { copyPublicDir, emitLocaleCopies, inlineBase } from './inline/index'
import { DevOverlay, overlayWanted } from './overlay/index'
import { type OverlayCompiler, overlayInDevServer } from './overlay/webpack'
import { type Problem, toRollupLog, toText } from './problems'
import { type RollupLikeState, rollupLikeHooks } from './rollup-like'
import { isServerCompiler } from './server-compiler'
import { inlineUnsupportedMessage, TmsSession } from './session'
import { SVELTE_RUNTIME } from './transform'
import { catalogModuleLocale, literalCatalogModule, RUNTIME_ID } from './virtual'
import { VUE_BINDING } from './vue-sfc'
import { type WebpackLikeState, watchWithoutVirtualModules, webpackLikeHooks } from './webpack-like'

/** What apps import; resolved to the virtual runtime module of the build. */
export const RUNTIME_SPECIFIER = 'unplugin-tms/runtime'
const PACKAGE_NAME = 'unplugin-tms'

const VIRTUAL = /^\0tms\//
const RESOLVED = /^(?:unplugin-tms\/runtime$|\0tms\/)/
const SCRIPT_MODULE = /\.(?:[cm]?[jt]sx?|vue|svelte|astro)(?:\?|$)/
const NODE_MODULES = /[\\/]node_modules[\\/]/

/**
 * The transform's code filter: a mention of a keyword's last name before `(`, a backtick, `<` or
 * `?.`, or of the runtime module or the React binding's (`<T>`). Modules without one never reach the handler (on rolldown and vite
 * the test runs natively). Keywords set in a tms.config file are not known yet here: then only the
 * id filter applies and the handler's own check decides.
 */
export function codeFilter(raw: Options | undefined, hasConfigFile: boolean): RegExp | undefined {
  if (!raw?.keywords && hasConfigFile) return undefined
  const names = [...new Set((raw?.keywords ?? ['t']).map((k) => k.split(':')[0]!.split('.').pop()!))]
  const alternatives = names.map((n) => (/^[\w]/.test(n) ? `\\b${escapeRegex(n)}` : escapeRegex(n)))
  // Vue's `<T msg="...">` and React's `<T>` hold a message without any call.
  return new RegExp(
    `(?:${alternatives.join('|')})\\s*(?:\\(|\`|<|\\?\\.)|${escapeRegex(RUNTIME_SPECIFIER)}|${MESSAGE_COMPONENT_MENTION.source}|${escapeRegex(REACT_MODULE)}`,
  )
}

/** Left to vite's resolveId in dev: the bindings import the runtime, and pre-bundled would carry a second copy. */
const NOT_PREBUNDLED = [RUNTIME_SPECIFIER, SVELTE_RUNTIME, VUE_BINDING, REACT_MODULE]

/** Bundlers the plugin cannot make inline copies with (a `mode` set in a config file fails at build start). */
const NO_INLINE: ReadonlySet<Framework> = new Set(['esbuild', 'farm', 'bun'])

/** Configuration errors surface when the plugin is created, not in the middle of a build. */
function validateAtSetup(raw: Options | undefined, framework: Framework): boolean {
  const hasConfigFile = findConfigFile(raw?.root ?? process.cwd()) !== undefined
  // Without a config file the inline options are all there is: check them now.
  if (!hasConfigFile) resolveOptions(raw, { command: 'build' })
  if (raw?.mode === 'inline' && NO_INLINE.has(framework)) {
    throw new TmsConfigError('mode', inlineUnsupportedMessage(framework))
  }
  return hasConfigFile
}

type Framework = UnpluginContextMeta['framework']

function toMessage(framework: Framework, p: Problem): string | UnpluginMessage {
  if (framework === 'rollup' || framework === 'rolldown' || framework === 'vite') {
    return toRollupLog(p, framework === 'vite' && p.severity === 'warning') as UnpluginMessage
  }
  if (framework === 'esbuild') {
    const m = toEsbuildMessage(p)
    return {
      message: m.text ?? p.message,
      loc: p.line === undefined ? undefined : { file: p.file, line: p.line, column: (p.column ?? 1) - 1 },
    }
  }
  return toText(p)
}

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
function loadVirtual(
  session: TmsSession,
  framework: UnpluginContextMeta['framework'],
  webpackState: WebpackLikeState,
  overlay: () => DevOverlay | undefined,
) {
  const isVite = framework === 'vite'
  const webpackLike = framework === 'webpack' || framework === 'rspack'
  return async function load(this: unknown, id: string, loadOptions?: { ssr?: boolean }) {
    await session.ready()
    const dev = isVite && session.command === 'serve'
    // A dev server's build (vite's, webpack's, rspack's): only a dev server makes an overlay.
    const devOverlay = session.command === 'serve' ? overlay() : undefined
    if (id === RUNTIME_ID) {
      // Vite's SSR (a `--ssr` build, `ssrLoadModule`, a server environment) and webpack's or rspack's
      // server compilers: the server runtime, with no HMR hook, which only the browser's receives.
      const server = isVite
        ? isServerEnvironment(this, loadOptions)
        : webpackLike && isServerCompiler(compilerOptions(this))
      const runtime = await session.runtimeModule({
        hot: dev && !server,
        chunkNames: webpackLike,
        server,
      })
      return devOverlay && !server ? devOverlay.runtime(runtime) : runtime
    }
    const overlaid = devOverlay ? await devOverlay.load(id) : undefined
    if (overlaid !== undefined) return overlaid
    const locale = catalogModuleLocale(id)
    if (locale === undefined || !session.locales.includes(locale)) return null
    // A catalog module holds translations: it waits for the pull, which the other modules do not.
    try {
      await session.synced()
    } catch (error) {
      // A production build fails in buildEnd with the sync's own error, not with one "Could not
      // load" wrapped around it per locale.
      if (!dev && !webpackLike) return literalCatalogModule(new Map())
      throw error
    }
    if (dev) return session.catalogModule(locale, {})
    if (webpackLike) {
      const hot = session.command === 'serve'
      return session.catalogModule(locale, { files: webpackState.files ?? [], hot })
    }
    return session.catalogModule(locale, { marker: framework === 'esbuild' ? 'digest' : 'render' })
  }
}

export function createPlugin(raw: Options | undefined, meta: UnpluginContextMeta): UnpluginOptions {
  const framework = meta.framework
  const hasConfigFile = validateAtSetup(raw, framework)
  const session = new TmsSession(raw)
  if (NO_INLINE.has(framework)) session.configure({ inlineUnsupported: framework })
  const rollupState: RollupLikeState = {}
  const webpackState: WebpackLikeState = { files: undefined }
  const webpackLike = framework === 'webpack' || framework === 'rspack'
  const code = codeFilter(raw, hasConfigFile)
  /** The review overlay: made by a dev server only (vite's, webpack's, rspack's), so no build ever holds any of it. */
  let overlay: DevOverlay | undefined

  const plugin: UnpluginOptions = {
    name: 'unplugin-tms',
    // Before other transforms: the call sites found at build start are positions in the original text.
    enforce: 'pre',
    resolveId: {
      filter: { id: RESOLVED },
      handler(id) {
        if (id === RUNTIME_SPECIFIER) return RUNTIME_ID
        return VIRTUAL.test(id) ? id : null
      },
    },
    load: {
      filter: { id: VIRTUAL },
      handler: loadVirtual(session, framework, webpackState, () => overlay),
    },
    transform: {
      filter: { id: { include: SCRIPT_MODULE, exclude: NODE_MODULES }, ...(code ? { code } : {}) },
      async handler(source, id) {
        await session.ready()
        const result = session.transform(source, id)
        if (!result) return null
        for (const p of result.problems) {
          if (p.severity === 'error') this.error(toMessage(framework, p))
          else this.warn(toMessage(framework, p))
        }
        return result.code === source ? null : { code: result.code, map: (result.map ?? null) as never }
      },
    },
    watchChange(_id, change) {
      // A new or deleted file may change what `include` selects.
      if (change.event !== 'update') return session.refreshIncluded()
    },
  }

  if (framework === 'esbuild') {
    plugin.esbuild = { setup: esbuildSetup(session) }
    return plugin
  }
  if (webpackLike) {
    const hooks = webpackLikeHooks(session, webpackState)
    plugin.buildStart = hooks.buildStart
    plugin.buildEnd = hooks.buildEnd
    const apply = (compiler: unknown): void => hooks.apply(compiler as Parameters<typeof hooks.apply>[0])
    if (framework === 'webpack') {
      plugin.webpack = (compiler) => {
        watchWithoutVirtualModules(compiler as Parameters<typeof watchWithoutVirtualModules>[0])
        apply(compiler)
        overlayInDevServer(session, compiler as OverlayCompiler, 'webpack', (made) => {
          overlay = made
        })
      }
    } else {
      plugin.rspack = (compiler) => {
        apply(compiler)
        overlayInDevServer(session, compiler as OverlayCompiler, 'rspack', (made) => {
          overlay = made
        })
      }
    }
    return plugin
  }
  const hooks = rollupLikeHooks(session, rollupState)
  plugin.buildStart = hooks.buildStart
  plugin.buildEnd = hooks.buildEnd
  // Inline mode: after every other plugin, so the copies are made of the finished chunks and pages.
  const generateBundle = {
    order: 'post' as const,
    async handler(this: unknown, options: unknown, bundle: unknown): Promise<void> {
      if (!session.inline) return
      // The translations: buildEnd has waited for them already.
      await session.synced()
      emitLocaleCopies(session, this as never, options as never, bundle as never)
    },
  }
  const closeBundle = hooks.closeBundle as never
  plugin.rollup = {
    renderChunk: hooks.renderChunk as never,
    generateBundle: generateBundle as never,
    closeBundle,
  }
  plugin.rolldown = {
    renderChunk: hooks.renderChunk as never,
    generateBundle: generateBundle as never,
    closeBundle,
  }
  plugin.vite = viteHooks(session, raw, hasConfigFile, rollupState, {
    renderChunk: hooks.renderChunk as never,
    generateBundle: generateBundle as never,
    closeBundle,
    onServer: (server) => {
      if (overlayWanted()) {
        overlay = new DevOverlay(session)
        overlay.configureServer(server)
      }
    },
  })
  return plugin
}

/** Vite's own hooks over the rollup family's: config defaults, the resolved root, the dev server, public files. */
function viteHooks(
  session: TmsSession,
  raw: Options | undefined,
  hasConfigFile: boolean,
  rollupState: RollupLikeState,
  shared: {
    renderChunk: never
    generateBundle: never
    closeBundle: never
    onServer: (server: ViteDevServer) => void
  },
): NonNullable<UnpluginOptions['vite']> {
  let viteConfig: Parameters<typeof copyPublicDir>[1] | undefined
  return {
    renderChunk: shared.renderChunk,
    generateBundle: shared.generateBundle,
    closeBundle: shared.closeBundle,
    async config(config, env) {
      const deps = {
        optimizeDeps: { exclude: NOT_PREBUNDLED },
        // Vite's SSR leaves packages of node_modules to Node, which would import the runtime file
        // itself: no catalogs registered, source text in every locale. The plugin's resolveId must see it.
        ssr: { noExternal: [PACKAGE_NAME] },
      }
      if (env.command !== 'build' || (raw?.mode !== 'inline' && !hasConfigFile)) return deps
      if ((raw?.mode ?? (await loadOptions(raw ?? {})).mode) !== 'inline') return deps
      const base = inlineBase(config.base)
      return base ? { ...deps, base } : deps
    },
    configResolved(config) {
      rollupState.command = config.command
      viteConfig = config
      session.configure({
        root: config.root,
        devServer: config.command === 'serve',
        // A production build without build.sourcemap never reads the transforms' maps.
        sourcemap: config.command === 'serve' || config.build.sourcemap !== false,
      })
      rollupState.info = (text) => config.logger.info(text)
    },
    configureServer(server) {
      configureDevServer(session, server)
      shared.onServer(server)
    },
    writeBundle: {
      order: 'post',
      handler() {
        if (session.inline && viteConfig) copyPublicDir(session, viteConfig)
      },
    },
  }
}
