/**
 * What `webpack serve` does, in a process of its own, for the dev-loop section (bench/sections/dev-loop.ts):
 * a development compiler of the app at the working directory, served by webpack-dev-server (hot updates
 * and live reload on, its defaults) with React Fast Refresh (@pmmmwh/react-refresh-webpack-plugin), as a
 * webpack React app is set up for development. The app's TSX goes through SWC with the refresh transform
 * (bench/swc-refresh-loader.cjs); with `tms`, unplugin-tms's webpack plugin is given the options in
 * argv[4] (JSON); argv[5], when given, is the path of another build's webpack entry to take it from.
 *
 *   node bench/webpack-serve.mjs <port> plain|tms [options] [plugin]
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import ReactRefreshPlugin from '@pmmmwh/react-refresh-webpack-plugin'
import webpack from 'webpack'
import WebpackDevServer from 'webpack-dev-server'
import { answerRetained, RETAINED_ROUTE } from './retained-memory.mjs'

const [port, variant, options, plugin] = process.argv.slice(2)
const root = process.cwd()
const plugins = [new ReactRefreshPlugin({ overlay: false })]
const tms = plugin ? pathToFileURL(plugin).href : 'unplugin-tms/webpack'
if (variant === 'tms') plugins.push((await import(tms)).default(JSON.parse(options)))
const html =
  '<!doctype html><html lang="en"><body><div id="root"></div><script src="/main.js"></script></body></html>\n'
const compiler = webpack({
  mode: 'development',
  context: root,
  entry: './src/main.tsx',
  output: { path: join(root, 'webpack-out'), filename: 'main.js', publicPath: '/' },
  resolve: { extensions: ['.tsx', '.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        use: new URL('./swc-refresh-loader.cjs', import.meta.url).pathname,
      },
    ],
  },
  plugins,
  devServer: {
    host: '127.0.0.1',
    port: Number(port),
    hot: true,
    static: false,
    // The page, as an HtmlWebpackPlugin would write it.
    setupMiddlewares: (middlewares, server) => {
      server.app.get('/', (_req, res) => res.type('html').send(html))
      server.app.get(RETAINED_ROUTE, answerRetained)
      return middlewares
    },
  },
})
const server = new WebpackDevServer(compiler.options.devServer, compiler)
await server.start()
console.log(`  ➜  Local:   http://127.0.0.1:${port}/`)
const stop = () => server.stop().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
