import { createHash } from 'node:crypto'
import { VERSION } from '../../version'
import { type CopiesStore, type CopyFile, InlineOutput, type OutputFile, slotted } from './copies'
import type { LocaleTexts } from './markers'

/**
 * Inline copies kept between builds. A copy is a function of the bundler's output, its locale and the
 * texts and forms of the output's numbered ids in that locale (`siteReplacement` reads nothing else),
 * so a build whose output and texts are the last build's makes byte-identical copies: it takes the
 * kept ones instead of reading the output's sites and making each copy again.
 *
 * What a build compares: the digest of its output files (names, hashes, bytes, source maps), then per
 * locale the texts and forms of the kept ids (the ids of the same output's sites, in their order): by
 * the key the catalog memo keeps them under (`LocaleTexts.slotsName`: it names every input they are
 * made of, so a warm build reads none of them), else by their digest. Anything else, or a file that
 * cannot be read or is out of shape, is a miss: the copy is made and the memo written again. The
 * tool's version and {@link REVISION} are in the header, so a change of how copies are made is a miss.
 *
 * The file: a header line; an index line, JSON ({@link Index}); then each kept file's bytes in the
 * index's order. A copy's file that is the output's own file as it was (an image, a chunk with no
 * message) is not kept twice: the index names the output file.
 */

/** Bump when the copies change for the same output and texts (the tool's version may not). */
const REVISION = 1
const HEADER = `unplugin-tms inline copies ${REVISION} ${VERSION}\n`
/** A kept file that is the output file `of` as the bundler made it: its bytes are not in the memo. */
const AS_OUTPUT = -1

/** A copy's file in the index: its name, the output file it is a copy of, its length in bytes (or {@link AS_OUTPUT}). */
type KeptFile = [fileName: string, of: string, length: number]

interface Index {
  /** The digest of the output files ({@link outputDigest}). */
  output: string
  /** The output's numbered ids (`InlineOutput.slotIds`). */
  ids: string[]
  /** Per locale: the name or digest of its texts and forms of `ids`, and its copy's files. */
  locales: Record<string, { slots: string; files: KeptFile[] }>
}

/**
 * What one output's memo is known by: the bundler's kind of output (rollup's `format`, `webpack`) and
 * the names of its files without a content hash (a page, a server entry), so that a config's several
 * outputs each keep their own; not its directory, which a build may pick anew each time.
 */
export function outputName(kind: string, files: readonly OutputFile[]): string {
  const names = files.flatMap((f) => (f.hash === undefined ? [f.fileName] : [])).sort()
  return JSON.stringify([kind, names])
}

/** What a copy is made of besides its locale's texts: every output file, in the order given (`of` sorts them by name). */
export function outputDigest(files: readonly OutputFile[]): string {
  const hash = createHash('sha1')
  for (const file of files) {
    const text = typeof file.source === 'string'
    hash.update(`${file.fileName}\0${file.hash ?? ''}\0${text ? 's' : 'b'}${file.source.length}\0`)
    hash.update(file.source)
    const map = file.map
    hash.update(
      map ? `\0${map.fileName ?? ''}\0${map.inline ? 'i' : ''}\0${JSON.stringify(map.raw)}\n` : '\n',
    )
  }
  return hash.digest('hex')
}

/** The digest of a locale's texts and forms of the numbered ids: the rest of what its copy is made of. */
function slotsDigest(texts: LocaleTexts): string {
  return createHash('sha1')
    .update(JSON.stringify([texts.locale, texts.slots, texts.slotForms]))
    .digest('hex')
}

const isKeptFile = (f: unknown): f is KeptFile =>
  Array.isArray(f) &&
  f.length === 3 &&
  typeof f[0] === 'string' &&
  typeof f[1] === 'string' &&
  Number.isInteger(f[2]) &&
  (f[2] as number) >= AS_OUTPUT

/** The memo's index and where each locale's bytes start; undefined when it is not one of this version. */
function readIndex(bytes: Buffer): { index: Index; starts: Map<string, number> } | undefined {
  if (bytes.toString('latin1', 0, HEADER.length) !== HEADER) return undefined
  const end = bytes.indexOf(10, HEADER.length)
  if (end < 0) return undefined
  let index: unknown
  try {
    index = JSON.parse(bytes.toString('utf8', HEADER.length, end))
  } catch {
    return undefined
  }
  if (typeof index !== 'object' || index === null) return undefined
  const { output, ids, locales } = index as Partial<Index>
  if (typeof output !== 'string' || !Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
    return undefined
  if (typeof locales !== 'object' || locales === null) return undefined
  const starts = new Map<string, number>()
  let at = end + 1
  for (const [locale, entry] of Object.entries(locales)) {
    if (typeof entry?.slots !== 'string' || !Array.isArray(entry.files) || !entry.files.every(isKeptFile))
      return undefined
    starts.set(locale, at)
    for (const [, , length] of entry.files) if (length !== AS_OUTPUT) at += length
  }
  // A file cut short, or with bytes the index does not account for, is not the memo that was written.
  if (at !== bytes.length) return undefined
  return { index: index as Index, starts }
}

/**
 * The copies of one build's output, one locale at a time: the kept ones where the output and the
 * locale's texts are those they were made of, else made (`InlineOutput`, which reads the output only
 * when a copy is made). {@link save} keeps this build's copies for the next.
 */
export class KeptCopies {
  private readonly files: readonly OutputFile[]
  private readonly byName: ReadonlyMap<string, OutputFile>
  private readonly store: CopiesStore | undefined
  private readonly digest: string
  private readonly kept: { index: Index; bytes: Buffer; starts: Map<string, number> } | undefined
  /** Output files' bytes as kept copies take them (see {@link outputBytes}). */
  private readonly encoded = new Map<string, Uint8Array>()
  private output: InlineOutput | undefined
  /** This build's copies, by locale: what {@link save} writes. */
  private readonly copies = new Map<string, { slots: string; files: CopyFile[] }>()
  /** Whether a copy was made rather than taken: only then is the memo written again. */
  private made = false

  private constructor(
    files: readonly OutputFile[],
    store: CopiesStore | undefined,
    digest: string,
    bytes: Buffer | undefined,
  ) {
    this.files = files
    this.byName = new Map(files.map((f) => [f.fileName, f]))
    this.store = store
    this.digest = digest
    const read = bytes && readIndex(bytes)
    if (!read || read.index.output !== digest) return
    // A file named as the output's own must be one of this output's: else the memo is not one written for it.
    for (const { files: kept } of Object.values(read.index.locales))
      for (const [, of, length] of kept) if (length === AS_OUTPUT && !this.byName.has(of)) return
    this.kept = { ...read, bytes: bytes! }
  }

  /** The copies of `files`, with the ones `store` keeps (none without a store). */
  static async of(output: readonly OutputFile[], store: CopiesStore | undefined): Promise<KeptCopies> {
    if (!store) return new KeptCopies(output, undefined, '', undefined)
    // By name: rspack lists the same assets in another order from one build to the next.
    const files = [...output].sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0))
    // Read on libuv's threads while this one digests the output.
    const bytes = store.read()
    const digest = outputDigest(files)
    return new KeptCopies(files, store, digest, await bytes)
  }

  /** The output read for making copies: only when a copy is made. */
  private read(): InlineOutput {
    this.output ??= new InlineOutput(this.files)
    return this.output
  }

  /** One locale's copy, its JS and text files as UTF-8 bytes (see `InlineOutput.copyBytes`). */
  copyBytes(locale: LocaleTexts): CopyFile[] {
    return this.copyOf(locale, true)
  }

  /** One locale's copy, its JS and text files as text (see `InlineOutput.copy`). */
  copy(locale: LocaleTexts): CopyFile[] {
    return this.copyOf(locale, false)
  }

  private copyOf(locale: LocaleTexts, asBytes: boolean): CopyFile[] {
    const make = (texts: LocaleTexts): CopyFile[] =>
      asBytes ? this.read().copyBytes(texts) : this.read().copy(texts)
    // Texts that cannot be looked up as a list have no digest to compare: such a copy is always made.
    if (!this.store || !locale.textsOf || !locale.formsOf) return make(locale)
    const ids = this.kept?.index.ids ?? this.read().slotIds
    // The name the texts are kept under, when they have one, tells them without reading them.
    const name = locale.slotsName?.(ids)
    let texts: LocaleTexts | undefined
    let slots: string
    if (name !== undefined) slots = `name ${locale.locale} ${name}`
    else {
      texts = slotted(locale, ids)
      slots = `digest ${slotsDigest(texts)}`
    }
    const entry = this.kept?.index.locales[locale.locale]
    let files: CopyFile[]
    if (entry?.slots === slots) files = this.keptFiles(locale.locale, asBytes)
    else {
      files = make(texts ?? slotted(locale, ids))
      this.made = true
    }
    this.copies.set(locale.locale, { slots, files })
    return files
  }

  /**
   * A kept copy's files: slices of the memo's bytes, or the output's own files. Not `asBytes`, a file
   * is text as a made copy's is: unless its output file is bytes (an image).
   */
  private keptFiles(locale: string, asBytes: boolean): CopyFile[] {
    const { index, bytes, starts } = this.kept!
    let at = starts.get(locale)!
    return index.locales[locale]!.files.map(([fileName, of, length]) => {
      const own = this.byName.get(of)
      const text = !asBytes && typeof own?.source !== 'object'
      if (length === AS_OUTPUT) {
        // One of the output's files: the constructor checked every name the memo gives.
        const source = text ? own!.source : this.outputBytes(own!)
        return { fileName, of, source, asOutput: true }
      }
      const kept = bytes.subarray(at, at + length)
      at += length
      return { fileName, of, source: text ? kept.toString('utf8') : kept }
    })
  }

  /** An output file's own bytes, encoded once for every copy that takes it as it is. */
  private outputBytes(file: OutputFile): Uint8Array {
    let bytes = this.encoded.get(file.fileName)
    if (!bytes) {
      bytes = typeof file.source === 'string' ? Buffer.from(file.source) : file.source
      this.encoded.set(file.fileName, bytes)
    }
    return bytes
  }

  /** Keeps this build's copies for the next build, when one of them was made; resolves once written. */
  async save(): Promise<void> {
    if (!this.store || !this.made) return
    const index: Index = { output: this.digest, ids: [...this.read().slotIds], locales: {} }
    const parts = new Map<string, Uint8Array[]>()
    for (const [locale, { slots, files }] of this.copies) {
      const own: Uint8Array[] = []
      const kept = files.map((file): KeptFile => {
        if (file.asOutput) return [file.fileName, file.of, AS_OUTPUT]
        const bytes = typeof file.source === 'string' ? Buffer.from(file.source) : file.source
        own.push(bytes)
        return [file.fileName, file.of, bytes.byteLength]
      })
      index.locales[locale] = { slots, files: kept }
      parts.set(locale, own)
    }
    // In the index's order, which is the order `readIndex` finds each locale's bytes in.
    const body = Object.keys(index.locales).flatMap((locale) => parts.get(locale)!)
    await this.store.write(Buffer.concat([Buffer.from(`${HEADER}${JSON.stringify(index)}\n`), ...body]))
  }
}
