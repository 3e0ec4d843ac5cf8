import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The plugin's routes in webpack-dev-server and @rspack/dev-server (the overlay's endpoints, the page's
 * channel of pulled translations), added through the server's own hook, `setupMiddlewares`: in the
 * compiler's `devServer` options, which a Node script hands the server (`new
 * WebpackDevServer(compiler.options.devServer, compiler)`), and in the options of a webpack-dev-server
 * applied as a plugin to the same compiler, which is how `webpack serve` runs webpack-dev-server 6.
 * The server calls that hook before it starts the first compilation: a plain `webpack` build, watch
 * mode included, never calls it, and a production-mode compiler never gets the hook, so neither holds
 * any of what it makes.
 */

export type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void
/** One entry of the list the dev server's `setupMiddlewares` receives and returns. */
type Middleware = Handler | { name?: string; path?: string; middleware: Handler }
/** The slice of the dev server's instance the plugin uses. */
export interface LikeDevServer {
  server?: { once(event: 'close', fn: () => void): unknown } | null
}
interface DevServerOptions {
  setupMiddlewares?: (middlewares: Middleware[], devServer: LikeDevServer) => Middleware[]
  [option: string]: unknown
}
export interface DevServerCompiler {
  options: { mode?: string; devServer?: DevServerOptions | false; plugins?: unknown[] }
  /** Set from the target once the options have their defaults; `web: false` for a Node bundle. */
  platform?: { web?: boolean | null }
  hooks: { environment: { tap(name: string, fn: () => void): void } }
}

/** The entries the routes go before: after the host checks, before the build's files and any proxy. */
const BEFORE = new Set(['webpack-dev-middleware', '@rspack/dev-middleware'])
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
 * Adds the route `name` to the compiler's dev server, in development mode for a page only (a Node
 * bundle, server-side rendering, has none) and unless `devServer: false`. `wanted` is asked once the
 * options have their defaults; `route` when the server sets up its middlewares, and gives the route's
 * handler (undefined: none).
 */
export function routeInDevServer(
  compiler: DevServerCompiler,
  name: string,
  wanted: () => boolean,
  route: (devServer: LikeDevServer) => Handler | undefined,
): void {
  const hook = (options: DevServerOptions): void => {
    const theirs = options.setupMiddlewares
    options.setupMiddlewares = (middlewares, devServer) => {
      const handler = route(devServer)
      const list = theirs ? theirs.call(options, middlewares, devServer) : middlewares
      if (!handler) return list
      const ours: Middleware = { name, middleware: handler }
      const at = list.findIndex((m) => typeof m !== 'function' && BEFORE.has(m.name ?? ''))
      if (at < 0) list.push(ours)
      else list.splice(at, 0, ours)
      return list
    }
  }
  // Plugins apply before webpack gives the options their defaults (mode, platform): read them after.
  compiler.hooks.environment.tap(name, () => {
    if (compiler.options.mode !== 'development' || !wanted()) return
    if (compiler.platform?.web === false) return
    const current = compiler.options.devServer
    if (current === false) return
    const options: DevServerOptions = current ?? {}
    compiler.options.devServer = options
    hook(options)
    for (const pluginOptions of pluginServerOptions(compiler.options.plugins)) hook(pluginOptions)
  })
}
