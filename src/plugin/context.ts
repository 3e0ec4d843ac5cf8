import type { UnpluginContextMeta } from 'unplugin'
import type { Options } from '../options'
import type { DevOverlay } from './overlay/index'
import type { RollupLikeState } from './rollup-like'
import type { TmsSession } from './session'
import type { WebpackLikeState } from './watch-catalogs'

/** The bundler unplugin runs the plugins in. */
export type Framework = UnpluginContextMeta['framework']

/**
 * What the small plugins of one `createPlugin` call share: the session of the build and the little
 * each bundler family's hooks hand each other. Everything else a plugin needs, it asks the session or the `Build` it opened (`session.build`).
 */
export interface PluginContext {
  readonly framework: Framework
  /** The options as the user passed them (hooks read the resolved ones through the session). */
  readonly raw: Options | undefined
  /** Whether a tms.config file sits in the root: options may come from it at build start. */
  readonly hasConfigFile: boolean
  readonly session: TmsSession
  /** Rollup, rolldown and vite: what buildStart, buildEnd and renderChunk hand each other. */
  readonly rollupState: RollupLikeState
  /** webpack and rspack: the modules of the compilation whose catalogs are being rebuilt. */
  readonly webpackState: WebpackLikeState
  /** The review overlay: made by a dev server only (vite's, webpack's, rspack's), so no build holds any of it. */
  overlay: DevOverlay | undefined
  /**
   * Vite's dev server: each module its transform rewrote without moving a character (kept-positions.ts),
   * the code it was given and the code it gave, until the dev plugin's last transform puts the first in
   * the module's map.
   */
  keptSources: Map<string, { source: string; code: string }> | undefined
}

/** The one name every plugin of the array carries: it is what bundlers print in front of a warning. */
export const PLUGIN_NAME = 'unplugin-tms'

/** Whether the bundler is one of the rollup family, whose hooks the plugins share. */
export function isRollupLike(framework: Framework): framework is 'rollup' | 'rolldown' | 'vite' {
  return framework === 'rollup' || framework === 'rolldown' || framework === 'vite'
}

/** Whether the bundler is webpack or rspack. */
export function isWebpackLike(framework: Framework): framework is 'webpack' | 'rspack' {
  return framework === 'webpack' || framework === 'rspack'
}
