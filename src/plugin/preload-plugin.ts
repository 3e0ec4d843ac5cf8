import { posix } from 'node:path'
import type { UnpluginOptions } from 'unplugin'
import { PLUGIN_NAME } from './context'
import { catalogChunkLocale, type OutputFiles, type Sourcemap } from './rollup-like'

/**
 * Vite's preload lists of the catalog loaders, written before vite's own generateBundle reads them.
 *
 * A vite build wraps each dynamic `import()` of the client's code in its preload helper, with a marker
 * that its generateBundle replaces by the list of files to preload with the import. To find them it
 * reads back every chunk holding a marker and lexes all of it for its imports: the runtime's catalog
 * loaders put markers in the entry chunk, whose code, with the source texts of every call site, is
 * the app's largest (2.9 MB in BENCHMARKS.md's build, where vite's hook took 22 ms of the main
 * thread). A catalog's own chunk imports nothing and has no CSS, so vite's list for it is empty and
 * it writes `[]`: this hook writes that `[]` first, found by the text right before each marker
 * (`import("./tms-fr-FR-<hash>.js"),`), and vite then finds no marker to lex for. Only when every
 * marker of a chunk is a catalog loader's:
 * a chunk with any other dynamic import is left whole to vite, as is an output with source maps (the
 * map would shift), a format other than ES modules (vite leaves those markers to its legacy output)
 * and a config whose `build.modulePreload.resolveDependencies` may add files to any list. Markers
 * without vite 8's per-import digest (vite 5 to 7) are left to vite too: their shapes differ by line.
 */

/** Vite's marker of an import's preload list: vite 8 follows it with a digest of 32 hex digits. */
const MARKER = /__VITE_PRELOAD__(?:[\da-f]{32})?/g
const MARKER_NAME = '__VITE_PRELOAD__'
const DIGEST_LENGTH = 32
/** The text right before a marker in vite 8's wrapper: `import(<quote>./file<quote>),` (minified or not). */
const IMPORT_BEFORE = /import\(\s*(["'`])(\.{1,2}\/[^"'`\\\s]+)\1\s*\)\s*,\s*$/
/** How far back from a marker its import is looked for: a file name and the wrapper's punctuation. */
const LOOK_BACK = 512

/**
 * The code of a chunk with each of its markers replaced by `[]`, when each is a catalog loader's: the
 * import right before it names a catalog's own chunk of `bundle` that imports nothing and has no CSS.
 * Undefined when the chunk has no marker or any marker is not such a loader's.
 */
export function filledCatalogPreloads(
  code: string,
  fileName: string,
  bundle: OutputFiles,
): string | undefined {
  if (!code.includes(MARKER_NAME)) return undefined
  const parts: string[] = []
  let last = 0
  for (const marker of code.matchAll(MARKER)) {
    if (marker[0].length !== MARKER_NAME.length + DIGEST_LENGTH) return undefined
    const at = marker.index
    const before = IMPORT_BEFORE.exec(code.slice(Math.max(0, at - LOOK_BACK), at))
    if (!before || !isBareCatalogChunk(bundle[posix.join(posix.dirname(fileName), before[2]!)]))
      return undefined
    parts.push(code.slice(last, at), '[]')
    last = at + marker[0].length
  }
  parts.push(code.slice(last))
  return parts.join('')
}

/** What vite's output chunks tell of what a chunk needs beside it. */
interface ViteChunk {
  imports?: readonly string[]
  viteMetadata?: { importedCss?: ReadonlySet<string> }
}

/** A catalog's own chunk with nothing to preload beside it: vite's list for its import is empty. */
function isBareCatalogChunk(file: OutputFiles[string] | undefined): boolean {
  if (file?.type !== 'chunk' || catalogChunkLocale(file) === undefined) return false
  const { imports, viteMetadata } = file as ViteChunk
  return imports?.length === 0 && (viteMetadata?.importedCss?.size ?? 0) === 0
}

/** Vite's build only: its generateBundle, first of all plugins', fills the catalog loaders' lists. */
export function preloadPlugin(): UnpluginOptions {
  let leftToVite = false
  return {
    name: PLUGIN_NAME,
    enforce: 'pre',
    vite: {
      // A dev server writes no chunk.
      apply: 'build',
      configResolved(config) {
        const preload = config.build.modulePreload
        leftToVite = preload !== false && !!preload.resolveDependencies
      },
      generateBundle: {
        order: 'pre',
        handler(output: { format?: string; sourcemap?: Sourcemap }, bundle) {
          if (leftToVite || output.format !== 'es' || output.sourcemap) return
          const files = bundle as unknown as OutputFiles
          for (const fileName of Object.keys(files)) {
            const chunk = files[fileName]!
            if (chunk.type !== 'chunk') continue
            const code = filledCatalogPreloads(chunk.code, fileName, files)
            if (code !== undefined) chunk.code = code
          }
        },
      },
    },
  }
}
