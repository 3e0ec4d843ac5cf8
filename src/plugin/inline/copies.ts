import { basename } from 'node:path'
import { escapeRegex } from '../../core/escape-regex'
import { newHash } from './hashes'
import type { Edit, LocaleTexts, Site } from './markers'
import {
  assemble,
  bytesOf,
  digestOf,
  type OutputFile,
  type Prepared,
  prepare,
  renameFile,
  stage,
} from './prepare'
import { lineStarts, readMappings, shiftMappings } from './sourcemap'

/**
 * The copies of an inline build: the bundler's finished output (every chunk, asset and page) in, one
 * complete set of files per locale out, bundler-free. The output is read once here (parsing the
 * chunks that hold message calls, finding which files name which hashed files); a copy then costs
 * string building, one digest per renamed file and one pass over each source map.
 */

export type { OutputFile }

/**
 * What the adapters (rollup.ts, webpack.ts) ask of the current build (the plugin's `Build`) to make
 * the copies: declared here, so that this folder needs nothing of the plugin that imports it.
 */
export interface InlineBuild {
  /** Whether the current build is an inline one. */
  readonly inline: boolean
  /** The locales of the copies. */
  inlineLocales(): readonly string[]
  /** What a locale's copy puts in place of the sites. */
  inlineTexts(locale: string): LocaleTexts
  /** Where the copies of the output named `output` are kept for the next build (`kept-copies.ts`). */
  keptCopies?(output: string): CopiesStore | undefined
}

/** Where one output's copies are kept (`kept-copies.ts`): a read that fails is undefined, a write that fails is lost. */
export interface CopiesStore {
  read(): Promise<Buffer | undefined>
  write(bytes: Buffer): Promise<void>
}

/** A file of one locale's copy, named relative to the copy's directory. */
export interface CopyFile {
  fileName: string
  source: string | Uint8Array
  /** The output file it is a copy of. */
  of: string
  /** Whether it is that file as the bundler made it (no site, no renamed hash in it, not renamed). */
  asOutput?: true
}

/** A locale's texts with those of `ids` looked up once (`slots`, `slotForms`): what a copy reads per site. */
export function slotted(locale: LocaleTexts, ids: readonly string[]): LocaleTexts {
  const slots = locale.textsOf ? locale.textsOf(ids) : ids.map((id) => locale.text(id))
  const texts: LocaleTexts = { locale: locale.locale, text: (id) => locale.text(id), slots }
  if (locale.form) texts.form = locale.form
  if (locale.formsOf) texts.slotForms = locale.formsOf(ids, slots)
  return texts
}

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

  /**
   * The files of one locale's copy. Texts with their `slots` already looked up must be those of this
   * output's {@link slotIds} (see {@link slotted}).
   */
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

  /** The message ids of the output's sites, in the order of their slots (`Site.slot`). */
  get slotIds(): readonly string[] {
    return this.ids
  }

  private make(locale: LocaleTexts, bytes: boolean): CopyFile[] {
    const texts = locale.slots ? locale : slotted(locale, this.ids)
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
        out.push({ fileName, source: p.file.source, of: p.file.fileName, asOutput: true })
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
        let mappings = map.raw.mappings
        if (edits.length > 0) {
          p.segments ??= readMappings(mappings)
          mappings = shiftMappings(p.segments, p.lines!, edits, lines())
        }
        const json = `{"version":3,"file":${JSON.stringify(basename(fileName))}${p.mapRest},"mappings":${JSON.stringify(mappings)}}`
        if (map.inline && typeof source === 'string') {
          source += `\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(json).toString('base64')}\n`
        } else if (map.fileName) {
          const mapName = mentionsRenamed ? rename(map.fileName) : map.fileName
          out.push({ fileName: mapName, source: json, of: map.fileName })
        }
      }
      const file: CopyFile = { fileName, source, of: p.file.fileName }
      const same = p.kind !== 'html' && p.sites.length === 0 && !mentionsRenamed && !this.renamed[i]
      if (same && p.text === p.file.source) file.asOutput = true
      out.push(file)
    })
    return out
  }
}

/**
 * A file's bytes in a copy: its staged bytes (or, without sites, the bytes every copy shares) with the
 * renamed hashes written over the old ones. The shared bytes are never written into.
 */
