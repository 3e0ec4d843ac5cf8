/**
 * Inline mode (`mode: 'inline'`): the finished output copied once per locale under `<locale>/`, each
 * copy with its translations in place. The rest of the plugin reaches this folder only through here:
 * the hooks of each bundler family, the runtime of a copy, and what the session tells each copy.
 */

export type { LocaleTexts } from './markers'
export { copyPublicDir, emitLocaleCopies, inlineBase } from './rollup'
export { inlineRuntimeModule } from './runtime'
export { lineStarts, type RawSourceMap, shiftMappings } from './sourcemap'
export {
  inlinePublicPath,
  type LikeInlineCompilation,
  type LikeInlineCompiler,
  tapInlineCopies,
} from './webpack'
