import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from 'unplugin'
import type { Options } from './options'
import { createPlugin } from './plugin/factory'

export type { TmsReport } from './core/report'
export type { Options, PseudoLocale } from './options'

/**
 * The plugin for every bundler unplugin supports: `unplugin-tms/vite`, `/webpack`, `/rollup`,
 * `/esbuild`, `/rspack` and `/rolldown` are this factory bound to one bundler. It makes several small
 * plugins (vite, rollup and rolldown get them as an array; webpack, rspack and esbuild one plugin).
 */
export const unpluginFactory: UnpluginFactory<Options | undefined, true> = (options, meta) =>
  createPlugin(options, meta)

export const unplugin: UnpluginInstance<Options | undefined, true> =
  /* #__PURE__ */ createUnplugin(unpluginFactory)

export default unplugin
