import type { TmsSession } from '../session'
import { type DevServerCompiler, routeInDevServer } from '../webpack-dev-server'
import { DevOverlay, overlayWanted } from './index'

/**
 * The overlay in webpack-dev-server and @rspack/dev-server (docs/dev-overlay.md): its endpoints are a
 * route of the dev server (webpack-dev-server.ts). The overlay exists from the moment the server sets
 * up its middlewares, before the first compilation; a plain `webpack` build, watch mode included,
 * holds none of it.
 */

/** Each dev server's open-in-editor endpoint (launch-editor takes `file:line:col`). */
const EDITOR = {
  webpack: '/webpack-dev-server/open-editor?fileName=',
  rspack: '/rspack-dev-server/open-editor?fileName=',
}
const NAME = 'unplugin-tms-overlay'

/**
 * Adds the overlay to the compiler's dev server, in development mode only; `onServer` receives it
 * when the server sets up its middlewares. `devServer: false`, a Node target or `TMS_DEV_OVERLAY=0`
 * leave it out.
 */
export function overlayInDevServer(
  session: TmsSession,
  compiler: DevServerCompiler,
  bundler: 'webpack' | 'rspack',
  onServer: (overlay: DevOverlay) => void,
): void {
  routeInDevServer(compiler, NAME, overlayWanted, (devServer) => {
    const overlay = new DevOverlay(session, EDITOR[bundler])
    onServer(overlay)
    devServer.server?.once('close', () => void overlay.close())
    return (req, res, next) => overlay.handle(req, res, next)
  })
}
