import type { UnpluginContextMeta, UnpluginOptions } from 'unplugin'
import { findConfigFile } from '../config'
import { inlineUnsupportedMessage, type Options, resolveOptions, TmsConfigError } from '../options'
import { type Framework, PLUGIN_NAME, type PluginContext } from './context'
import { devServerPlugin } from './dev-plugin'
import { inlineCopiesPlugin } from './inline-plugin'
import { preloadPlugin } from './preload-plugin'
import { reportPlugin } from './report-plugin'
import { TmsSession } from './session'
import { transformPlugin } from './transform-plugin'
import { virtualModulesPlugin } from './virtual-plugin'

export { codeFilter } from './transform-plugin'
export { RUNTIME_SPECIFIER } from './virtual-plugin'

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

/**
 * The plugin as small plugins with one job each, sharing one {@link PluginContext}: the runtime and
 * catalogs as virtual modules, the transform, the build's start and report, inline copies, the dev
 * server, and in vite the catalog loaders' preload lists (`preload-plugin.ts`). All carry one name
 * (bundlers print it in front of warnings) and run `pre`, in this order, which is the order the hooks
 * of one plugin ran in before (webpack's loader rules, esbuild's callbacks); unplugin gives each
 * bundler the array in its own way (esbuild: one host plugin).
 */
export function createPlugin(raw: Options | undefined, meta: UnpluginContextMeta): UnpluginOptions[] {
  const framework = meta.framework
  const hasConfigFile = validateAtSetup(raw, framework)
  const session = new TmsSession(raw)
  if (NO_INLINE.has(framework)) session.configure({ inlineUnsupported: framework })
  // esbuild's host plugin names the virtual modules' namespace and its messages.
  if (meta.framework === 'esbuild') meta.esbuildHostName = PLUGIN_NAME
  const context: PluginContext = {
    framework,
    raw,
    hasConfigFile,
    session,
    rollupState: {},
    webpackState: { files: undefined, loaded: new WeakMap(), pulls: undefined },
    overlay: undefined,
    keptSources: undefined,
  }
  return [
    virtualModulesPlugin(context),
    transformPlugin(context),
    reportPlugin(context),
    inlineCopiesPlugin(context),
    devServerPlugin(context),
    ...(framework === 'vite' ? [preloadPlugin()] : []),
  ]
}
