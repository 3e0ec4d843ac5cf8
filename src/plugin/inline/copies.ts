import { basename } from 'node:path'
import { escapeRegex } from '../../core/escape-regex'
import { contentDigest, newHash, replacementsDigest } from './hashes'
import { localizeHtml } from './html'
import {
  DIR_TOKEN,
  type Edit,
  findDirTokens,
  findSites,
  type LocaleTexts,
  mayHaveSites,
  type Site,
  siteReplacement,
} from './markers'
import { lineStarts, type RawSourceMap, rebaseSources, shiftMappings } from './sourcemap'

/**
 * The copies of an inline build: the bundler's finished output (every chunk, asset and page) in, one
 * complete set of files per locale out, bundler-free. The output is read once here (parsing the
 * chunks that hold message calls, finding which files name which hashed files); a copy then costs
 * string building, one digest per renamed file and one pass over each source map.
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

/** A file of one locale's copy, named relative to the copy's directory. */
export interface CopyFile {
  fileName: string
  source: string | Uint8Array
  /** The output file it is a copy of. */
  of: string
}

interface Prepared {
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
interface Staged {
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

const JS = /\.[cm]?js$/i
const HTML = /\.html?$/i
const INLINE_MAP = /\n?\/\/# sourceMappingURL=data:application\/json[^\n]*\s*$/

export class InlineOutput {
  private readonly files: Prepared[]
  /** Per file: will it be renamed in every copy (its content or that of a file it names changes)? */
  private readonly renamed: boolean[]
  /** Per hashed file: the hashed files it names, directly or not (itself excluded), by file name. */
  private readonly closures: number[][]
  private readonly renamedTokens: RegExp | undefined
  /** Hash -> the renamed files whose names hold it. */
  private readonly renamedGroups = new Map<string, number[]>()
  /** The message ids of every site, numbered (`Site.slot`): each copy looks them up once. */
  private readonly ids: string[] = []

  constructor(files: readonly OutputFile[]) {
    this.files = files.map((file) => prepare(file))
    const slots = new Map<string, number>()
    const number = (sites: readonly Site[]): void => {
      for (const site of sites) {
        if (site.kind === 'message') {
          let slot = slots.get(site.id)
          if (slot === undefined) {
            slot = this.ids.push(site.id) - 1
            slots.set(site.id, slot)
          }
          site.slot = slot
        }
        number(site.children)
      }
    }
    for (const p of this.files) number(p.sites)
    const hashed = this.files.map((p, i) => (p.file.hash ? i : -1)).filter((i) => i >= 0)
    const tokens = hashed.map((i) => this.files[i]!.file.hash!)
    if (tokens.length > 0) {
      const byToken = new Map<string, number[]>()
      for (const i of hashed)
        byToken.set(this.files[i]!.file.hash!, [...(byToken.get(this.files[i]!.file.hash!) ?? []), i])
      const any = new RegExp([...new Set(tokens)].map(escapeRegex).join('|'), 'g')
      for (const p of this.files) {
        const text = p.text ?? ''
        const refs = new Set<number>()
        let site = 0
        for (const m of text.matchAll(any)) {
          const owners = byToken.get(m[0])!
          for (const owner of owners) refs.add(owner)
          const file = owners[0]!
          const start = m.index
          while (site < p.sites.length && p.sites[site]!.end <= start) site++
          const inside = site < p.sites.length && p.sites[site]!.start <= start
          if (inside) p.siteHasToken[site] = true
          else p.tokens.push({ start, end: start + m[0].length, file })
        }
        // The map names its chunk (`file`) and sits next to it: it follows the chunk's name.
        if (p.file.hash && p.file.map) for (const owner of byToken.get(p.file.hash)!) refs.add(owner)
        p.refs = [...refs]
      }
    }
    const changed = this.files.map((p) => p.sites.length > 0 || p.kind === 'html')
    this.closures = this.files.map((_, i) => this.closureOf(i))
    this.renamed = this.files.map(
      (p, i) => p.file.hash !== undefined && (changed[i]! || this.closures[i]!.some((j) => changed[j])),
    )
    const renamedHashes = new Set(this.files.filter((_, i) => this.renamed[i]).map((p) => p.file.hash!))
    this.files.forEach((p, i) => {
      if (p.file.hash === undefined || !renamedHashes.has(p.file.hash)) return
      // A hash shared with a renamed file changes in every name that holds it.
      this.renamed[i] = true
      const group = this.renamedGroups.get(p.file.hash)
      if (group) group.push(i)
      else this.renamedGroups.set(p.file.hash, [i])
    })
    const renamedTokens = [...this.renamedGroups.keys()]
    this.renamedTokens =
      renamedTokens.length > 0 ? new RegExp(renamedTokens.map(escapeRegex).join('|'), 'g') : undefined
  }

  private closureOf(start: number): number[] {
    const seen = new Set<number>([start])
    const stack = [start]
    while (stack.length > 0) {
      for (const j of this.files[stack.pop()!]!.refs) {
        if (!seen.has(j)) {
          seen.add(j)
          stack.push(j)
        }
      }
    }
    seen.delete(start)
    return [...seen].sort((a, b) => (this.files[a]!.file.fileName < this.files[b]!.file.fileName ? -1 : 1))
  }

  /** The files of one locale's copy. */
  copy(texts: LocaleTexts): CopyFile[] {
    return this.make(texts, false)
  }

  /**
   * The same copy with its JS and text files as UTF-8 bytes, what rollup and rolldown write fastest. A
   * file with sites is encoded once per copy, digested as bytes, and its renamed hashes (which keep
   * their length) are written into those bytes: its text is not built a second time. A file without
   * sites is encoded once for every copy.
   */
  copyBytes(texts: LocaleTexts): CopyFile[] {
    return this.make(texts, true)
  }

  private make(locale: LocaleTexts, bytes: boolean): CopyFile[] {
    const slots = locale.textsOf ? locale.textsOf(this.ids) : this.ids.map((id) => locale.text(id))
    const texts: LocaleTexts = { locale: locale.locale, text: (id) => locale.text(id), slots }
    if (locale.form) texts.form = locale.form
    const staged = this.files.map((p) => stage(p, texts, bytes))
    const digests = new Map<number, string>()
    const digest = (i: number): string => {
      let d = digests.get(i)
      if (d === undefined) {
        d = digestOf(this.files[i]!, staged[i]!)
        digests.set(i, d)
      }
      return d
    }
    const renames = new Map<string, string>()
    for (const [old, group] of this.renamedGroups) {
      // Files that share a hash (webpack's [chunkhash] on a chunk's JS and CSS) are renamed together.
      const digests = group.flatMap((i) => [digest(i), ...this.closures[i]!.map(digest)])
      renames.set(old, newHash(old, digests))
    }
    const rename = (text: string): string =>
      this.renamedTokens ? text.replace(this.renamedTokens, (t) => renames.get(t) ?? t) : text
    const token = (file: number): string | undefined => renames.get(this.files[file]!.file.hash!)
    const out: CopyFile[] = []
    this.files.forEach((p, i) => {
      const fileName = this.renamed[i] ? renameFile(p.file.fileName, p.file.hash!, renames) : p.file.fileName
      if (p.text === undefined) {
        out.push({ fileName, source: p.file.source, of: p.file.fileName })
        return
      }
      const { replacements, html } = staged[i]!
      const mentionsRenamed = p.refs.some((j) => this.renamed[j])
      const map = p.file.map
      // A hash inside a site's replacement, or an inline map, moves text around: those go as text.
      const asBytes =
        bytes && html === undefined && !map?.inline && !(mentionsRenamed && p.siteHasToken.includes(true))
      let source: string | Buffer
      if (asBytes) source = bytesOf(p, staged[i]!, mentionsRenamed ? token : undefined)
      else if (html !== undefined) source = mentionsRenamed ? rename(html) : html
      else {
        const renamedSite = (k: number): string =>
          p.siteHasToken[k] ? rename(replacements[k]!) : replacements[k]!
        source =
          mentionsRenamed || staged[i]!.text === undefined
            ? assemble(p, renamedSite, mentionsRenamed ? token : undefined)
            : staged[i]!.text!
      }
      if (map && p.mapRest !== undefined) {
        const edits: Edit[] = p.sites.map((site, k) => ({
          start: site.start,
          end: site.end,
          text: replacements[k]!,
        }))
        // Renamed hashes keep their length: the staged text has the lines of the final one.
        const lines = (): number[] =>
          lineStarts(typeof source === 'string' ? source : (staged[i]!.text ?? p.text!))
        const mappings =
          edits.length > 0 ? shiftMappings(map.raw.mappings, p.lines!, edits, lines()) : map.raw.mappings
        const json = `{"version":3,"file":${JSON.stringify(basename(fileName))}${p.mapRest},"mappings":${JSON.stringify(mappings)}}`
        if (map.inline && typeof source === 'string') {
          source += `\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(json).toString('base64')}\n`
        } else if (map.fileName) {
          const mapName = mentionsRenamed ? rename(map.fileName) : map.fileName
          out.push({ fileName: mapName, source: json, of: map.fileName })
        }
      }
      out.push({ fileName, source, of: p.file.fileName })
    })
    return out
  }
}

/**
 * A file's bytes in a copy: its staged bytes (or, without sites, the bytes every copy shares) with the
 * renamed hashes written over the old ones. The shared bytes are never written into.
 */
function bytesOf(
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
function byteOffsets(text: string, bytes: Buffer, offsets: readonly number[]): number[] {
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
function assemble(
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
function digestOf(p: Prepared, staged: Staged): string {
  if (staged.html !== undefined) return contentDigest(staged.html)
  if (staged.text !== undefined || staged.bytes !== undefined) {
    p.digest ??= contentDigest(p.text!)
    return replacementsDigest(p.digest, staged.replacements, staged.joined)
  }
  // The same in every copy: digested once.
  p.digest ??= contentDigest(p.text ?? p.file.source)
  return p.digest
}

function renameFile(fileName: string, hash: string, renames: ReadonlyMap<string, string>): string {
  const at = fileName.lastIndexOf(hash)
  return fileName.slice(0, at) + renames.get(hash)! + fileName.slice(at + hash.length)
}

function prepare(file: OutputFile): Prepared {
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

function rebasedMapText(text: string): string | undefined {
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
function stage(p: Prepared, texts: LocaleTexts, bytes: boolean): Staged {
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
function stageBytes(p: Prepared, replacements: string[]): Staged {
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
