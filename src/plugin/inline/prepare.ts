import { contentDigest, replacementsDigest } from './hashes'
import { localizeHtml } from './html'
import {
  DIR_TOKEN,
  findDirTokens,
  findSites,
  type LocaleTexts,
  mayHaveSites,
  type Site,
  siteReplacement,
} from './markers'
import { lineStarts, type RawSourceMap, rebaseSources, type SourceMapMappings } from './sourcemap'

/**
 * One output file read once for every copy (`prepare`), then staged and assembled per locale: the
 * per-file work of `InlineOutput` (`src/plugin/inline/copies.ts`).
 */

/** One file of the bundler's output, as an adapter hands it over. */
export interface OutputFile {
  fileName: string
  source: string | Uint8Array
  /** The content hash in the file name, when the bundler put one there. */
  hash?: string
  /** A JS chunk's source map: in its own file (`fileName`), or inline as a data URL at the end. */
  map?: { raw: RawSourceMap; fileName?: string; inline?: boolean }
}

export interface Prepared {
  file: OutputFile
  /** Text without an inline source map comment (appended again per copy). */
  text: string | undefined
  kind: 'js' | 'html' | 'text' | 'binary'
  /** Top-level sites, sorted. */
  sites: Site[]
  /** Hashed file names in the text outside the sites: where, and whose (file index). */
  tokens: { start: number; end: number; file: number }[]
  /** Per site: whether its range holds a hashed file name (its replacement is renamed as a whole). */
  siteHasToken: boolean[]
  lines?: number[]
  /** Indexes of the hashed files whose hash the text mentions (itself included). */
  refs: number[]
  /** The map's mappings decoded, once for every copy (when a copy has edits to move them past). */
  segments?: SourceMapMappings
  /** Everything of the map but `file` and `mappings`, serialised once. */
  mapRest?: string
  /** The digest of the bundler's file (text without the inline map comment, or bytes). */
  digest?: string
  /** The UTF-8 bytes of a text file without sites, made once for every copy. */
  bytes?: Buffer
  /** Byte offsets of `tokens` in `bytes`. */
  tokenBytes?: number[]
  /** Byte offsets in `bytes` of each site's start and end (two a site), for copies made as bytes. */
  siteBytes?: number[]
}

/** One file of a copy before the references to renamed files change. */
export interface Staged {
  /** Per site of the file, its replacement in this locale. */
  replacements: string[]
  /** HTML: the whole page, with its lang set. */
  html?: string
  /** Other files with sites: the text with the replacements, old hashes kept (what the digest reads). */
  text?: string
  /** Where each of the file's `tokens` is in `text`. */
  tokenAt?: number[]
  /** `text` as UTF-8 (copies made as bytes), its renamed hashes written in once they are known. */
  bytes?: Buffer
  /** Where each of the file's `tokens` is in `bytes`, when the bytes were made without `text`. */
  tokenBytes?: number[]
  /** The replacements joined, as UTF-8: what the digest reads. */
  joined?: Buffer
}

export const JS: RegExp = /\.[cm]?js$/i
export const HTML: RegExp = /\.html?$/i
export const INLINE_MAP: RegExp = /\n?\/\/# sourceMappingURL=data:application\/json[^\n]*\s*$/

export function bytesOf(
  p: Prepared,
  staged: Staged,
  token: ((file: number) => string | undefined) | undefined,
): Buffer {
  let base: Buffer
  let at: () => number[]
  if (staged.bytes) {
    base = staged.bytes
    at = () => staged.tokenBytes ?? byteOffsets(staged.text!, staged.bytes!, staged.tokenAt!)
  } else {
    p.bytes ??= Buffer.from(p.text!)
    base = p.bytes
    at = () => {
      p.tokenBytes ??= byteOffsets(
        p.text!,
        p.bytes!,
        p.tokens.map((t) => t.start),
      )
      return p.tokenBytes
    }
  }
  if (!token || p.tokens.length === 0) return base
  const offsets = at()
  let out: Buffer | undefined
  p.tokens.forEach((hit, t) => {
    const renamed = token(hit.file)
    if (renamed === undefined) return
    out ??= staged.bytes ?? Buffer.from(base)
    out.write(renamed, offsets[t]!, 'latin1')
  })
  return out ?? base
}

/** Byte offsets in `bytes` (the UTF-8 of `text`) of the given character offsets, in ascending order. */
export function byteOffsets(text: string, bytes: Buffer, offsets: readonly number[]): number[] {
  // As many bytes as characters: every character is ASCII.
  if (bytes.length === text.length) return [...offsets]
  const out: number[] = []
  let at = 0
  let byte = 0
  for (const offset of offsets) {
    byte += Buffer.byteLength(text.slice(at, offset))
    at = offset
    out.push(byte)
  }
  return out
}

/**
 * A file's text in a copy, in one pass over the original: the text between the sites and the hashed
 * names, the sites' replacements, and the renamed hashes (`token` gives a hash's new value, or
 * undefined when it keeps it). No regular expression runs over the large chunks here.
 */
export function assemble(
  p: Prepared,
  replacement: (site: number) => string,
  token: ((file: number) => string | undefined) | undefined,
): string {
  const text = p.text!
  if (p.sites.length === 0 && !token) return text
  const parts: string[] = []
  let last = 0
  let t = 0
  const tokensBefore = (end: number): void => {
    if (!token) return
    for (; t < p.tokens.length && p.tokens[t]!.start < end; t++) {
      const hit = p.tokens[t]!
      const renamed = token(hit.file)
      if (renamed === undefined) continue
      parts.push(text.slice(last, hit.start), renamed)
      last = hit.end
    }
  }
  p.sites.forEach((site, k) => {
    tokensBefore(site.start)
    parts.push(text.slice(last, site.start), replacement(k))
    last = site.end
  })
  tokensBefore(text.length)
  parts.push(text.slice(last))
  return parts.join('')
}

/**
 * The digest of a file as the copy has it before its references to renamed files change. A file with
 * sites is the bundler's text with each site replaced: its digest is that of the bundler's text and of
 * the replacements, which name the content as well as a digest of all of it does (the sites stand at
 * fixed places between fixed text) for a tenth of the bytes.
 */
export function digestOf(p: Prepared, staged: Staged): string {
  if (staged.html !== undefined) return contentDigest(staged.html)
  if (staged.text !== undefined || staged.bytes !== undefined) {
    p.digest ??= contentDigest(p.text!)
    return replacementsDigest(p.digest, staged.replacements, staged.joined)
  }
  // The same in every copy: digested once.
  p.digest ??= contentDigest(p.text ?? p.file.source)
  return p.digest
}

export function renameFile(fileName: string, hash: string, renames: ReadonlyMap<string, string>): string {
  const at = fileName.lastIndexOf(hash)
  return fileName.slice(0, at) + renames.get(hash)! + fileName.slice(at + hash.length)
}

export function prepare(file: OutputFile): Prepared {
  const source = file.source
  const none = (): Pick<Prepared, 'tokens' | 'siteHasToken' | 'refs'> => ({
    tokens: [],
    siteHasToken: [],
    refs: [],
  })
  if (typeof source !== 'string') return { file, text: undefined, kind: 'binary', sites: [], ...none() }
  if (JS.test(file.fileName)) {
    const text = file.map?.inline ? source.replace(INLINE_MAP, '') : source
    let sites: Site[] = []
    if (mayHaveSites(text)) {
      const found = findSites(text, file.fileName)
      if (found.unparsed > 0) {
        throw new Error(
          `[unplugin-tms] mode: 'inline' cannot replace ${found.unparsed} message call(s) in ${file.fileName}: they are not code here (webpack's devtool 'eval' puts each module in a string). Use a devtool without eval (e.g. 'source-map' or false), or mode: 'runtime'.`,
        )
      }
      sites = found.sites
    }
    const prepared: Prepared = {
      file,
      text,
      kind: 'js',
      sites,
      ...none(),
      siteHasToken: sites.map(() => false),
    }
    if (file.map) {
      prepared.lines = lineStarts(text)
      const { file: _file, mappings: _mappings, version: _version, ...rest } = file.map.raw
      const serialised = JSON.stringify({ ...rest, ...rebaseSources(file.map.raw) })
      prepared.mapRest = serialised === '{}' ? '' : `,${serialised.slice(1, -1)}`
    }
    return prepared
  }
  const kind = HTML.test(file.fileName) ? 'html' : 'text'
  if (/\.map$/i.test(file.fileName)) {
    // A source map of its own (a stylesheet's): its sources are one directory further away now.
    const rebased = rebasedMapText(source)
    if (rebased !== undefined) return { file, text: rebased, kind, sites: [], ...none(), siteHasToken: [] }
  }
  const sites = source.includes(DIR_TOKEN) ? findDirTokens(source) : []
  return { file, text: source, kind, sites, ...none(), siteHasToken: sites.map(() => false) }
}

export function rebasedMapText(text: string): string | undefined {
  try {
    const raw = JSON.parse(text) as RawSourceMap
    return Array.isArray(raw.sources) ? JSON.stringify({ ...raw, ...rebaseSources(raw) }) : undefined
  } catch {
    return undefined
  }
}

/**
 * The replacements of a file's sites in one locale, the text with them (old hashes kept, and where
 * the file's hashed names are in it), and an HTML page's text with its lang set.
 */
export function stage(p: Prepared, texts: LocaleTexts, bytes: boolean): Staged {
  if (p.text === undefined || (p.sites.length === 0 && p.kind !== 'html')) return { replacements: [] }
  const code = p.text
  const replacements = p.sites.map((site) => siteReplacement(code, site, texts, p.file.fileName))
  // A source map needs the lines of the text: only files without one skip it.
  if (bytes && p.kind !== 'html' && !p.file.map) return stageBytes(p, replacements)
  const parts: string[] = []
  const tokenAt: number[] = []
  let last = 0
  let length = 0
  let t = 0
  const tokensBefore = (end: number): void => {
    for (; t < p.tokens.length && p.tokens[t]!.start < end; t++)
      tokenAt.push(length + p.tokens[t]!.start - last)
  }
  p.sites.forEach((site, k) => {
    tokensBefore(site.start)
    const replacement = replacements[k]!
    parts.push(code.slice(last, site.start), replacement)
    length += site.start - last + replacement.length
    last = site.end
  })
  tokensBefore(code.length)
  parts.push(code.slice(last))
  const text = parts.join('')
  if (p.kind === 'html') return { replacements, html: localizeHtml(text, texts.locale) }
  return { replacements, text, tokenAt, bytes: bytes ? Buffer.from(text) : undefined }
}

/**
 * A file's staged bytes made without its text: the bundler's bytes between the sites (encoded once for
 * every copy) and the replacements, encoded once together (the digest reads them so too), copied into
 * one buffer. No 2 MB string per file and copy to join and encode again.
 */
export function stageBytes(p: Prepared, replacements: string[]): Staged {
  p.bytes ??= Buffer.from(p.text!)
  const orig = p.bytes
  p.tokenBytes ??= byteOffsets(
    p.text!,
    orig,
    p.tokens.map((t) => t.start),
  )
  p.siteBytes ??= byteOffsets(
    p.text!,
    orig,
    p.sites.flatMap((site) => [site.start, site.end]),
  )
  const sites = p.siteBytes
  const tokens = p.tokenBytes
  const text = replacements.join('')
  const joined = Buffer.from(text)
  // As many bytes as characters: every replacement is ASCII, and its byte length is its length.
  const ascii = joined.length === text.length
  let size = orig.length + joined.length
  for (let k = 0; k < sites.length; k += 2) size -= sites[k + 1]! - sites[k]!
  const out = Buffer.allocUnsafe(size)
  const tokenBytes: number[] = []
  let at = 0
  let last = 0
  let from = 0
  let t = 0
  for (let k = 0; k < replacements.length; k++) {
    const start = sites[2 * k]!
    for (; t < tokens.length && tokens[t]! < start; t++) tokenBytes.push(at + tokens[t]! - last)
    at += orig.copy(out, at, last, start)
    const replacement = replacements[k]!
    const length = ascii ? replacement.length : Buffer.byteLength(replacement)
    at += joined.copy(out, at, from, from + length)
    from += length
    last = sites[2 * k + 1]!
  }
  for (; t < tokens.length; t++) tokenBytes.push(at + tokens[t]! - last)
  orig.copy(out, at, last)
  return { replacements, bytes: out, tokenBytes, joined }
}
