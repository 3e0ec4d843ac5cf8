import { cpSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { REPORT_FILE } from '../report'
import type { InlineBuild, OutputFile } from './copies'
import { hashFromPattern, hashFromPreliminary } from './hashes'
import { KeptCopies, outputName } from './kept-copies'
import { DIR_TOKEN } from './markers'
import type { RawSourceMap } from './sourcemap'

/**
 * Inline mode for rollup, rolldown and vite: once every other plugin has finished the bundle
 * (`generateBundle`, order `post`: vite's HTML page and minified chunks are in), the bundle is
 * replaced by one copy per locale under `<locale>/`. The report stays at the top.
 */

/** The slice of rollup's and rolldown's output bundle read here. */
interface LikeChunk {
  type: 'chunk'
  fileName: string
  code: string
  preliminaryFileName?: string
  sourcemapFileName?: string | null
  map?: { mappings: string } | null
}
interface LikeAsset {
  type: 'asset'
  fileName: string
  source: string | Uint8Array
}
type LikeBundle = Record<string, LikeChunk | LikeAsset>
interface LikeOutputOptions {
  assetFileNames?: unknown
  format?: string
}
interface LikeContext {
  emitFile(file: { type: 'asset'; fileName: string; source: string | Uint8Array }): string
}

function mapOf(chunk: LikeChunk, bundle: LikeBundle): OutputFile['map'] {
  const mapFile = chunk.sourcemapFileName ? bundle[chunk.sourcemapFileName] : undefined
  if (mapFile?.type === 'asset') {
    const text = typeof mapFile.source === 'string' ? mapFile.source : Buffer.from(mapFile.source).toString()
    return { raw: JSON.parse(text) as RawSourceMap, fileName: mapFile.fileName }
  }
  if (chunk.map && /\/\/# sourceMappingURL=data:application\/json/.test(chunk.code)) {
    return { raw: JSON.parse(JSON.stringify(chunk.map)) as RawSourceMap, inline: true }
  }
  return undefined
}

/** The bundle's files as the copies see them, with their hashes and source maps. */
export function outputFilesOf(bundle: LikeBundle, options: LikeOutputOptions): OutputFile[] {
  const maps = new Set<string>()
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk' && item.sourcemapFileName && bundle[item.sourcemapFileName]) {
      maps.add(item.sourcemapFileName)
    }
  }
  const assetPattern = typeof options.assetFileNames === 'string' ? options.assetFileNames : undefined
  const files: OutputFile[] = []
  for (const item of Object.values(bundle)) {
    if (item.fileName === REPORT_FILE || maps.has(item.fileName)) continue
    if (item.type === 'chunk') {
      const hash = hashFromPreliminary(item.fileName, item.preliminaryFileName)
      files.push({ fileName: item.fileName, source: item.code, hash, map: mapOf(item, bundle) })
    } else {
      const hash = assetPattern ? hashFromPattern(item.fileName, assetPattern) : undefined
      files.push({ fileName: item.fileName, source: item.source, hash })
    }
  }
  return files
}

/**
 * Replaces the bundle's files with one copy per locale. On this thread: a worker thread making half
 * of the copies measured slower on 2 cores (docs/inline-mode.md, "Cost"). A copy whose output and
 * texts are the last build's is the kept one (`kept-copies.ts`).
 */
export async function emitLocaleCopies(
  build: InlineBuild,
  ctx: LikeContext,
  options: LikeOutputOptions,
  bundle: LikeBundle,
): Promise<void> {
  const files = outputFilesOf(bundle, options)
  const copies = await KeptCopies.of(files, build.keptCopies?.(outputName(options.format ?? '', files)))
  for (const name of Object.keys(bundle)) if (name !== REPORT_FILE) delete bundle[name]
  for (const locale of build.inlineLocales()) {
    for (const file of copies.copyBytes(build.inlineTexts(locale))) {
      // Bytes, not strings: rolldown (vite 8) writes a string asset several times slower, which on
      // large outputs was most of the cost of each copy.
      const source = typeof file.source === 'string' ? Buffer.from(file.source) : file.source
      ctx.emitFile({ type: 'asset', fileName: `${locale}/${file.fileName}`, source })
    }
  }
  // Written while the bundler writes the output; the build's end waits for it (`Build.copiesWritten`).
  void copies.save()
}

/**
 * Vite's `base` for an inline build: an absolute base gets the locale directory token, so the page,
 * the chunks and the CSS of each copy point into that copy (`/fr-FR/assets/...`). A relative base
 * already resolves inside each copy.
 */
export function inlineBase(base: string | undefined): string | undefined {
  const value = base ?? '/'
  if (!/^(?:\/|[a-z][\w+.-]*:)/i.test(value) || value.includes(DIR_TOKEN)) return undefined
  return `${value.endsWith('/') ? value : `${value}/`}${DIR_TOKEN}/`
}

/** Vite copies `public/` to the output's top; each copy gets its own, since its pages link there. */
export function copyPublicDir(
  build: InlineBuild,
  config: {
    root: string
    publicDir: string | false
    build: { outDir: string; copyPublicDir: boolean; write: boolean }
  },
): void {
  if (
    !config.build.write ||
    !config.build.copyPublicDir ||
    !config.publicDir ||
    !existsSync(config.publicDir)
  )
    return
  const outDir = resolve(config.root, config.build.outDir)
  for (const locale of build.inlineLocales()) {
    cpSync(config.publicDir, join(outDir, locale), { recursive: true })
  }
}
