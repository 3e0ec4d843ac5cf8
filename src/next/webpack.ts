import type { Options } from '../options'
import rspackPlugin from '../rspack'
import webpackPlugin from '../webpack'
import type { NextConfigObject, NextWebpackContext, WebpackConfigLike } from './types'

/**
 * The `webpack` function of next.config: the plugin in each of Next's compilers, after the app's own
 * function. Each compiler gets its own plugin instance; the plugin gives server compilers (Node and
 * edge) the server runtime and the client compiler the browser runtime (src/plugin/server-compiler.ts).
 * Next's rspack mode (`next-rspack`) calls the same function with rspack's `webpack` in the context.
 */
export function webpackWithTms(
  own: NextConfigObject['webpack'],
  options: Options,
): NonNullable<NextConfigObject['webpack']> {
  return (config: WebpackConfigLike, context: NextWebpackContext) => {
    const next = own ? own(config, context) : config
    const bundler = (context as { webpack?: { rspackVersion?: string } }).webpack
    const plugin = bundler?.rspackVersion !== undefined ? rspackPlugin(options) : webpackPlugin(options)
    next.plugins = [...(next.plugins ?? []), plugin]
    return next
  }
}
