/**
 * Inline mode (`mode: 'inline'`): the finished output copied once per locale under `<locale>/`, each
 * copy with its translations in place. The rest of the plugin reaches this folder only through here:
 * the hooks of each bundler family, the runtime of a copy, and what the build tells each copy.
 *
 * Hooks: `rollup.ts` (rollup, rolldown, vite: `generateBundle`, order `post`), `webpack.ts` (webpack,
 * rspack: after `OPTIMIZE_HASH`). The copies: `copies.ts` reads the output once (`InlineBuild` is what
 * they ask of the build), `prepare.ts` prepares and stages each file, `markers.ts` is what differs per
 * locale, `hashes.ts` new content hashes in file names, `sourcemap.ts`, `html.ts` (`<html lang dir>`),
 * `runtime.ts` (a runtime with no catalog to load), `kept-copies.ts` (a build's copies kept for the next).
 */

export type { CopiesStore } from './copies'
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
