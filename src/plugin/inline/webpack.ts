import { REPORT_FILE } from '../report'
import type { InlineBuild, OutputFile } from './copies'
import { KeptCopies, outputName } from './kept-copies'
import { DIR_TOKEN } from './markers'
import { INLINE_MAP } from './prepare'
import type { RawSourceMap } from './sourcemap'

/**
 * Inline mode for webpack and rspack: when the assets are final (minified, source maps made, real
 * content hashes in their names: just after the OPTIMIZE_HASH stage of processAssets) they are
 * replaced by one copy per locale under `<locale>/`. Compression plugins, which run later, see the
 * copies.
 */

interface LikeSource {
  source(): string | Buffer
}
interface LikeAssetInfo {
  contenthash?: string | string[]
  chunkhash?: string | string[]
  fullhash?: string | string[]
  related?: { sourceMap?: string | string[] }
  [flag: string]: unknown
}
interface LikeAsset {
  name: string
  source: LikeSource
  info: LikeAssetInfo
}
/** A chunk's output files; webpack's are sets that plugins may change (rspack's are read-only views). */
interface LikeChunk {
  files: ReadonlySet<string> | Set<string>
  auxiliaryFiles?: ReadonlySet<string> | Set<string>
}
export interface LikeInlineCompilation {
  chunks?: Iterable<LikeChunk>
  getAssets(): readonly LikeAsset[]
  emitAsset(name: string, source: LikeSource, info?: Record<string, unknown>): void
  deleteAsset(name: string): void
  hooks: {
    processAssets: {
      tap(options: { name: string; stage: number }, fn: () => void): void
      tapPromise(options: { name: string; stage: number }, fn: () => Promise<void>): void
    }
  }
}
export interface LikeInlineCompiler {
  options: { output: { publicPath?: unknown } }
  webpack: {
    Compilation: { PROCESS_ASSETS_STAGE_OPTIMIZE_HASH: number }
    sources: { RawSource: new (source: string | Buffer) => LikeSource }
  }
}

function hashIn(name: string, info: LikeAssetInfo): string | undefined {
  const all = [info.contenthash, info.chunkhash, info.fullhash].flat().filter((h): h is string => !!h)
  return all.find((h) => name.includes(h))
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

function textOf(source: LikeSource): string | Buffer {
  return source.source()
}

/** A source map at the end of a chunk as a data URL (devtool `inline-source-map`), decoded. */
function inlineMapOf(name: string, text: string): RawSourceMap | undefined {
  if (!/\.[cm]?js$/i.test(name)) return undefined
  const url = INLINE_MAP.exec(text)?.[0]
  const at = url?.indexOf('base64,') ?? -1
  if (at < 0) return undefined
  try {
    const raw = JSON.parse(Buffer.from(url!.slice(at + 7).trim(), 'base64').toString('utf8')) as RawSourceMap
    return typeof raw.mappings === 'string' && Array.isArray(raw.sources) ? raw : undefined
  } catch {
    return undefined
  }
}

/** The compilation's assets as the copies see them; source maps go with their chunks. */
export function outputFilesOfAssets(assets: readonly LikeAsset[]): OutputFile[] {
  const byName = new Map(assets.map((a) => [a.name, a]))
  const maps = new Set<string>()
  for (const a of assets) for (const m of list(a.info.related?.sourceMap)) if (byName.has(m)) maps.add(m)
  const files: OutputFile[] = []
  for (const asset of assets) {
    if (asset.name === REPORT_FILE || maps.has(asset.name)) continue
    const content = textOf(asset.source)
    const isText =
      typeof content === 'string' || /\.(?:[cm]?js|css|html?|json|svg|txt|map)$/i.test(asset.name)
    const source =
      typeof content === 'string' ? content : isText ? content.toString('utf8') : new Uint8Array(content)
    const mapName = list(asset.info.related?.sourceMap).find((m) => maps.has(m))
    const inline = mapName || typeof source !== 'string' ? undefined : inlineMapOf(asset.name, source)
    const map = mapName
      ? { raw: JSON.parse(String(textOf(byName.get(mapName)!.source))) as RawSourceMap, fileName: mapName }
      : inline && { raw: inline, inline: true }
    files.push({ fileName: asset.name, source, hash: hashIn(asset.name, asset.info), map })
  }
  return files
}

/**
 * An absolute `output.publicPath` gets the locale directory token, so that each copy loads its chunks
 * from its own directory; `auto` and relative paths already do.
 */
export function inlinePublicPath(compiler: LikeInlineCompiler): void {
  const output = compiler.options.output
  const value = output.publicPath
  if (typeof value !== 'string' || !/^(?:\/|[a-z][\w+.-]*:)/i.test(value) || value.includes(DIR_TOKEN)) return
  output.publicPath = `${value.endsWith('/') ? value : `${value}/`}${DIR_TOKEN}/`
}

export function tapInlineCopies(
  /** The build open when the assets are processed: a watch's next build is another. */
  currentBuild: () => InlineBuild | undefined,
  compiler: LikeInlineCompiler,
  compilation: LikeInlineCompilation,
): void {
  const stage = compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1
  compilation.hooks.processAssets.tapPromise({ name: 'unplugin-tms:inline', stage }, async () => {
    const build = currentBuild()
    if (!build?.inline) return
    const assets = compilation.getAssets()
    const files = outputFilesOfAssets(assets)
    const copies = await KeptCopies.of(files, build.keptCopies?.(outputName('webpack', files)))
    // Deleting an asset takes it out of its chunk: the chunks get their copies' files back below.
    const chunkFiles = [...(compilation.chunks ?? [])].map((chunk) => ({
      chunk,
      files: [...chunk.files],
      auxiliary: [...(chunk.auxiliaryFiles ?? [])],
    }))
    for (const asset of assets) if (asset.name !== REPORT_FILE) compilation.deleteAsset(asset.name)
    const { RawSource } = compiler.webpack.sources
    const infoOf = new Map(assets.map((a) => [a.name, a.info]))
    const copiesOf = new Map<string, string[]>()
    for (const locale of build.inlineLocales()) {
      const files = copies.copy(build.inlineTexts(locale))
      const nameOf = new Map(files.map((file) => [file.of, `${locale}/${file.fileName}`]))
      for (const file of files) {
        const source = typeof file.source === 'string' ? file.source : Buffer.from(file.source)
        const name = nameOf.get(file.of)!
        const info = infoOf.get(file.of)
        compilation.emitAsset(name, new RawSource(source), info && copyInfo(info, file.of, name, nameOf))
        const names = copiesOf.get(file.of)
        if (names) names.push(name)
        else copiesOf.set(file.of, [name])
      }
    }
    for (const { chunk, files, auxiliary } of chunkFiles) {
      addCopies(chunk.files, files, copiesOf)
      if (chunk.auxiliaryFiles) addCopies(chunk.auxiliaryFiles, auxiliary, copiesOf)
    }
    // Written before the compilation ends: a compiler's build has no later hook of this plugin's to wait in.
    await copies.save()
  })
}

/**
 * A copy's asset info: the original's, its hashes the ones in the copy's name and its source map the
 * copy's. Its flags matter: webpack's minimizer and source map plugin also run on assets emitted after
 * their stage, and would minify each copy again, dropping its source map and moving every column its
 * map points at, unless the copy says it is `minimized` as its original did.
 */
function copyInfo(
  info: LikeAssetInfo,
  original: string,
  name: string,
  nameOf: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const { related, ...flags } = info
  const copy: Record<string, unknown> = { ...flags }
  // A renamed hash keeps its length, so a hash's place in the name is the same in the copy's.
  const inName = name.slice(name.indexOf('/') + 1)
  const renamed = (hash: string): string => {
    const at = original.indexOf(hash)
    return at < 0 ? hash : inName.slice(at, at + hash.length)
  }
  for (const field of ['contenthash', 'chunkhash', 'fullhash'] as const) {
    const value = info[field]
    if (value !== undefined) copy[field] = Array.isArray(value) ? value.map(renamed) : renamed(value)
  }
  const maps = list(related?.sourceMap).flatMap((m) => nameOf.get(m) ?? [])
  if (maps.length > 0) copy.related = { sourceMap: maps.length === 1 ? maps[0] : maps }
  return copy
}

/** The stats list an entrypoint's files from its chunks: each copy of a chunk's file is one of its files. */
function addCopies(
  set: ReadonlySet<string> | Set<string>,
  originals: readonly string[],
  copiesOf: ReadonlyMap<string, readonly string[]>,
): void {
  if (!('add' in set) || typeof set.add !== 'function') return
  for (const file of originals) for (const copy of copiesOf.get(file) ?? []) set.add(copy)
}
