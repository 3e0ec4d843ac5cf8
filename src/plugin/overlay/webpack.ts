import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TmsSession } from '../session'
import { DevOverlay, overlayWanted } from './index'

/**
 * The overlay in webpack-dev-server and @rspack/dev-server (docs/dev-overlay.md). The plugin adds its
 * dev endpoints through the server's own hook, `setupMiddlewares`: in the compiler's `devServer`
 * options, which a Node script hands the server (`new WebpackDevServer(compiler.options.devServer,
 * compiler)`), and in the options of a webpack-dev-server applied as a plugin to the same compiler,
 * which is how `webpack serve` runs webpack-dev-server 6. The overlay exists
 * from the moment the server calls that hook, before it starts the first compilation: a plain
 * `webpack` build, watch mode included, never calls it, and a production-mode compiler never gets
 * the hook, so neither holds any of the overlay.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void
/** One entry of the list the dev server's `setupMiddlewares` receives and returns. */
type Middleware = Handler | { name?: string; path?: string; middleware: Handler }
/** The slice of the dev server's instance this file uses. */
interface LikeDevServer {
  server?: { once(event: 'close', fn: () => void): unknown } | null
}
interface DevServerOptions {
  setupMiddlewares?: (middlewares: Middleware[], devServer: LikeDevServer) => Middleware[]
  [option: string]: unknown
}
export interface OverlayCompiler {
  options: { mode?: string; devServer?: DevServerOptions | false; plugins?: unknown[] }
  /** Set from the target once the options have their defaults; `web: false` for a Node bundle. */
  platform?: { web?: boolean | null }
  hooks: { environment: { tap(name: string, fn: () => void): void } }
}

/** Each dev server's open-in-editor endpoint (launch-editor takes `file:line:col`). */
const EDITOR = {
  webpack: '/webpack-dev-server/open-editor?fileName=',
  rspack: '/rspack-dev-server/open-editor?fileName=',
}
/** The entries the endpoints go before: after the host checks, before the build's files and any proxy. */
const BEFORE = new Set(['webpack-dev-middleware', '@rspack/dev-middleware'])
const NAME = 'unplugin-tms-overlay'
/** The title of webpack-dev-server's options schema, which its class exposes as `schema`. */
const DEV_SERVER_SCHEMA = 'Dev Server options'

/**
 * The options of a webpack-dev-server applied to the compiler as a plugin (`webpack serve` with
 * webpack-dev-server 6 adds one to the configuration's plugins): it reads `setupMiddlewares` from
 * them when the first watch run starts, after every plugin applied.
 */
function pluginServerOptions(plugins: unknown[] = []): DevServerOptions[] {
  const found: DevServerOptions[] = []
  for (const plugin of plugins) {
    if (!plugin || typeof plugin !== 'object') continue
    const schema = (plugin.constructor as { schema?: { title?: unknown } } | undefined)?.schema
    const options = (plugin as { options?: unknown }).options
    if (schema?.title === DEV_SERVER_SCHEMA && options && typeof options === 'object')
      found.push(options as DevServerOptions)
  }
  return found
}

/**
 * Adds the overlay to the compiler's dev server, in development mode only; `onServer` receives it
 * when the server sets up its middlewares. `devServer: false`, a Node target or `TMS_DEV_OVERLAY=0`
 * leave it out.
 */
export function overlayInDevServer(
  session: TmsSession,
  compiler: OverlayCompiler,
  bundler: 'webpack' | 'rspack',
  onServer: (overlay: DevOverlay) => void,
): void {
  const hook = (options: DevServerOptions): void => {
    const theirs = options.setupMiddlewares
    options.setupMiddlewares = (middlewares, devServer) => {
      const overlay = new DevOverlay(session, EDITOR[bundler])
      onServer(overlay)
      devServer.server?.once('close', () => void overlay.close())
      const list = theirs ? theirs.call(options, middlewares, devServer) : middlewares
      const ours: Middleware = { name: NAME, middleware: (req, res, next) => overlay.handle(req, res, next) }
      const at = list.findIndex((m) => typeof m !== 'function' && BEFORE.has(m.name ?? ''))
      if (at < 0) list.push(ours)
      else list.splice(at, 0, ours)
      return list
    }
  }
  // Plugins apply before webpack gives the options their defaults (mode, platform): read them after.
  compiler.hooks.environment.tap(NAME, () => {
    if (compiler.options.mode !== 'development' || !overlayWanted()) return
    // A page is what the overlay is for; a Node bundle (server-side rendering) has none.
    if (compiler.platform?.web === false) return
    const current = compiler.options.devServer
    if (current === false) return
    const options: DevServerOptions = current ?? {}
    compiler.options.devServer = options
    hook(options)
    for (const pluginOptions of pluginServerOptions(compiler.options.plugins)) hook(pluginOptions)
  })
}
