import { isAscii } from 'node:buffer'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { SourceMap } from 'magic-string'
import { contentHash } from '../core/extract/file'
import type { ResolvedExtractOptions } from '../core/extract/index'
import type { ResolvedOptions } from '../core/model/options'
import { readWhole } from '../core/read-whole'
import { byteLengthOf, type StoredText } from '../core/stored-text'
import { VERSION } from '../version'
import type { IdTable, SpelledId } from './id-table'
import { IdleWrite, writeMemoFile } from './memo-file'
import type { Problem } from './problems'

/**
 * The transform memo: each module's transform as the last build (or dev server) made it, kept in
 * `<cacheDir>/transform/<digest>.v1.cache`, so that a warm build's transform of an unchanged module costs a
 * hash and a lookup instead of decoding its call sites, looking each one up and rewriting it.
 *
 * An entry is the output of one module id for one content (its hash) under one digest of everything
 * else the output depends on (`transformDigest`). The ids it wrote are its one input from the rest of
 * the app: a message's id is its key's hash, 6 characters unless another key of the app shares them
 * (then 8). So an entry holds only while this build gives each of its plain ids to a key (the key
 * the module's unchanged content has: any other key with those characters would have made both
 * long); a re-spelled site's id is a hash of its key and spelling alone. Any mismatch, or a failure to
 * read, is a miss: the memo can make a build faster, never different. An entry also keeps the stamp of
 * the last build that made or checked it (`IdTable.stamp`: the digest of its messages and of their long
 * ids): a build with the same stamp gives every key the same plain id, so it takes the entry's ids
 * without looking each one up.
 *
 * The file: a header line; an index line, JSON, `{"stamps": [...], "records": [...]}`, where `records`
 * holds five values per module (its id, content hash, the index of its stamp in `stamps`, and the
 * lengths in bytes of its entry and of its output code, -1 for none); then each record's entry (JSON,
 * one line: see {@link MemoEntry}) and code as they are, followed by a line break, in the index's
 * order. A warm start parses the index in one call and keeps only where each record's bytes are: a
 * record's entry and code are read only when its module is transformed, each a short string the
 * transform hands on (read field by field, thousands of small calls into the buffer API, which cost a
 * cold start more than the parse). A file all of ASCII (its byte offsets are then its characters') is
 * made one string at the first hit, and each hit takes slices of it: no decoding call per record. A record
 * whose bytes do not end where the index says ends the reading: the ones before it stand, the rest are
 * misses. A source map's `sourcesContent` is left out (it is the module's content, which a hit has). Written
 * atomically (temp file + rename) when a build made an entry, so a build that changed nothing writes
 * nothing. A production build writes it when it ends; a dev server, whose build ends only when it
 * closes (and a server stopped with Ctrl-C never closes), also once its transforms pause
 * ({@link TransformMemo.autosave}), so that its next start is served from it.
 */

/** Bump when the transform's output changes for the same inputs (the tool's version may not). */
const TRANSFORM_REVISION = 6
/** One file per digest: apps sharing a cache directory, and one app's builds of other settings, keep theirs. */
const memoFile = (cacheDir: string, digest: string): string =>
  join(cacheDir, 'transform', `${digest.slice(0, 16)}.v1.cache`)

/** One module's remembered transform, less its code (see {@link Stored}). */
interface MemoEntry {
  /** The source map's fields as `JSON.stringify` gives them, less `sourcesContent` (the module's content). */
  map: ConstructorParameters<typeof SourceMap>[0] | null
  /** The ids the module uses. */
  ids: string[]
  /** Re-spelled sites' ids: id, message key, placeholder spelling. */
  spelled: SpelledId[]
  /** Warnings of the module (a module-level `t()`, a Vue template's), given again on each build. */
  problems: Problem[]
}

/** What a hit gives the transform: the module's output and the ids it uses. */
export interface MemoHit {
  code: string | null
  map: SourceMap | null
  ids: Set<string>
  problems: Problem[]
  /** The module's content hash: the memo keeps its ids under it and this build's stamp. */
  hash: string
}

/** Everything besides a module's content and ids that its transform's output depends on. */
export interface TransformInputs {
  extractDigest: string
  sourceLocale: string
  inline: boolean
  sourceCatalog: boolean
  sourcemap: boolean
  /** A dev server's rewrite, which moves no character (kept-positions.ts). */
  keepPositions: boolean
  /** Compiled into a call site's source form. */
  formats: ResolvedOptions['formats']
}

/** A build's memo (a dev server's too): what its transform's output depends on, besides each module's content and ids. */
export function loadTransformMemo(
  options: ResolvedOptions,
  extractOptions: ResolvedExtractOptions,
  how: Pick<TransformInputs, 'inline' | 'sourcemap' | 'keepPositions'>,
): Promise<TransformMemo> {
  return TransformMemo.load(options.cacheDir, {
    extractDigest: extractOptions.digest,
    sourceLocale: options.sourceLocale,
    inline: how.inline,
    sourceCatalog: options.sourceCatalog && !how.inline,
    sourcemap: how.sourcemap,
    keepPositions: how.keepPositions,
    formats: options.formats,
  })
}

/**
 * A module's remembered transform as this build made or confirmed it: content hash, stamp, the entry's
 * JSON, and the output code (null when the transform left the module as it was); the last two as made,
 * or as the file's bytes.
 */
type Stored = [hash: string, stamp: string, entry: StoredText, code: StoredText | null]

/**
 * A module's remembered transform as the file holds it: content hash, stamp, and where its entry and
 * code are in the file's bytes (the entry from `entryAt` to `codeAt`, the code from `codeAt` to
 * `codeEnd`, which is -1 for none).
 */
type Read = [hash: string, stamp: string, entryAt: number, codeAt: number, codeEnd: number]

export class TransformMemo {
  private readonly cacheDir: string
  /** What names everything besides a module's content and ids that its output depends on. */
  readonly digest: string
  /** The file's bytes, which {@link stored} points into. */
  private readonly bytes: Buffer
  /** Module id -> what the file holds of its transform. */
  private readonly stored: Map<string, Read>
  /** Module id -> its transform, made or confirmed by this build. */
  private readonly met = new Map<string, Stored>()
  private changed = false
  private written: Promise<void> | undefined
  /** A dev server's write, waiting for its transforms to pause (see {@link autosave}). */
  private idle: IdleWrite | undefined
  /** The file as one string when it is all ASCII, null when it is not; made at the first hit. */
  private text: string | null | undefined

  private constructor(cacheDir: string, digest: string, bytes: Buffer, stored: Map<string, Read>) {
    this.cacheDir = cacheDir
    this.digest = digest
    this.bytes = bytes
    this.stored = stored
  }

  /** The memo of `cacheDir` for these inputs: empty when the file is missing, unreadable or other inputs'. */
  static async load(cacheDir: string, inputs: TransformInputs): Promise<TransformMemo> {
    const digest = createHash('sha1')
      .update(JSON.stringify([TRANSFORM_REVISION, VERSION, inputs]))
      .digest('hex')
    try {
      const bytes = await readWhole(memoFile(cacheDir, digest))
      const header = Buffer.from(`${JSON.stringify({ digest })}\n`)
      if (bytes.subarray(0, header.length).equals(header)) {
        return new TransformMemo(cacheDir, digest, bytes, readRecords(bytes, header.length))
      }
    } catch {
      // Missing, unreadable or an index that does not parse: every module misses.
    }
    return new TransformMemo(cacheDir, digest, Buffer.alloc(0), new Map())
  }

  /**
   * The remembered transform of module `id` with this `code`, if that is the content the build start
   * extracted (`startHash`: its keys are the build's) and its ids still hold in `ids`: a build with
   * the same stamp verified them, or each plain id is the one this build gives its key.
   */
  hit(id: string, code: string, startHash: string | undefined, ids: IdTable): MemoHit | undefined {
    const stored = this.stored.get(id)
    if (stored === undefined || stored[0] !== startHash || startHash !== contentHash(code)) return undefined
    const [hash, stamp, entryAt, codeAt, codeEnd] = stored
    const entryBytes = this.bytes.subarray(entryAt, codeAt)
    if (this.text === undefined) this.text = isAscii(this.bytes) ? this.bytes.toString('latin1') : null
    const text = this.text
    let entry: MemoEntry
    try {
      entry = JSON.parse(
        text === null ? entryBytes.toString('utf8') : text.slice(entryAt, codeAt),
      ) as MemoEntry
    } catch {
      return undefined
    }
    if (stamp === ids.stamp) ids.adoptVerified(entry.ids, entry.spelled)
    else {
      const spelled = new Set(entry.spelled.map(([sid]) => sid))
      for (const sid of entry.ids) if (!spelled.has(sid) && !ids.holds(sid)) return undefined
      for (const sid of entry.ids) if (!spelled.has(sid)) ids.adopt(sid)
      for (const [sid, key, spelling] of entry.spelled) ids.adopt(sid, { key, spelling })
      this.changed = true
    }
    const codeBytes = codeEnd < 0 ? null : this.bytes.subarray(codeAt, codeEnd)
    this.met.set(id, [hash, ids.stamp, entryBytes, codeBytes])
    const map = entry.map === null ? null : new SourceMap({ ...entry.map, sourcesContent: [code] })
    const out =
      codeBytes === null ? null : text === null ? codeBytes.toString('utf8') : text.slice(codeAt, codeEnd)
    return { code: out, map, ids: new Set(entry.ids), problems: entry.problems, hash }
  }

  /** Remembers the transform of module `id` (content `hash`), which used `used` of `ids`. */
  record(
    id: string,
    hash: string,
    out: { code: string | null; map: SourceMap | null; problems: Problem[] },
    used: ReadonlySet<string>,
    ids: IdTable,
  ): void {
    const spelled: MemoEntry['spelled'] = []
    for (const sid of used) {
      const source = ids.sources.get(sid)
      if (source?.spelling) spelled.push([sid, source.key, source.spelling])
    }
    const map =
      out.map === null
        ? null
        : (JSON.parse(JSON.stringify({ ...out.map, sourcesContent: undefined })) as MemoEntry['map'])
    const entry: MemoEntry = { map, problems: out.problems, ids: [...used], spelled }
    this.met.set(id, [hash, ids.stamp, JSON.stringify(entry), out.code])
    this.changed = true
    this.idle?.touch()
  }

  /** Writes the memo once each burst of new entries pauses (a dev server, {@link IdleWrite}); `keep` as for {@link save}. */
  autosave(keep: (id: string) => boolean): void {
    this.idle = new IdleWrite(() => void this.save(keep))
  }

  /**
   * Writes the memo when this build made an entry since the last write: the entries it met, and the
   * stored ones of modules it did not meet while their files are included (another entry point's).
   * Resolves when the last write is done; a failed write is a miss later.
   */
  save(keep: (id: string) => boolean): Promise<void> {
    this.idle?.cancel()
    if (this.changed) {
      this.changed = false
      const previous = this.written ?? Promise.resolve()
      this.written = previous.then(() => this.write(keep))
    }
    return this.written ?? Promise.resolve()
  }

  /**
   * Drops a dev server's waiting write: its server closed (which wrote the memo) or a newer build
   * start replaced this one. A write then could outlive the server; an entry not written is a miss later.
   */
  dispose(): void {
    this.idle?.cancel()
    this.idle = undefined
  }

  /** `keep`: whether a stored module's entry stays (its file is still one the build includes). */
  private async write(keep: (id: string) => boolean): Promise<void> {
    const stamps: string[] = []
    const stampAt = new Map<string, number>()
    const records: (string | number)[] = []
    const blobs: (string | Buffer)[] = []
    const record = (id: string, [hash, stamp, entry, code]: Stored): void => {
      let at = stampAt.get(stamp)
      if (at === undefined) {
        at = stamps.push(stamp) - 1
        stampAt.set(stamp, at)
      }
      records.push(id, hash, at, byteLengthOf(entry), code === null ? -1 : byteLengthOf(code))
      blobs.push(entry, code ?? '', '\n')
    }
    const { bytes } = this
    for (const [id, [hash, stamp, entryAt, codeAt, codeEnd]] of this.stored) {
      if (this.met.has(id) || !keep(id)) continue
      const code = codeEnd < 0 ? null : bytes.subarray(codeAt, codeEnd)
      record(id, [hash, stamp, bytes.subarray(entryAt, codeAt), code])
    }
    for (const [id, stored] of this.met) record(id, stored)
    const head = `${JSON.stringify({ digest: this.digest })}\n${JSON.stringify({ stamps, records })}\n`
    const parts = [head, ...blobs].map((p) => (typeof p === 'string' ? Buffer.from(p) : p))
    await writeMemoFile(memoFile(this.cacheDir, this.digest), Buffer.concat(parts))
  }
}

/**
 * The records of a memo file's `bytes` whose index line starts at `at`. A record whose fields are out
 * of shape, or whose bytes do not end with a line break where its lengths say, ends the reading: the
 * records before it stand, the rest are misses. An index that does not parse throws.
 */
function readRecords(bytes: Buffer, at: number): Map<string, Read> {
  const stored = new Map<string, Read>()
  const indexEnd = bytes.indexOf(0x0a, at)
  if (indexEnd < 0) return stored
  const { stamps, records } = JSON.parse(bytes.toString('utf8', at, indexEnd)) as {
    stamps?: unknown
    records?: unknown
  }
  if (!Array.isArray(stamps) || !Array.isArray(records)) return stored
  let next = indexEnd + 1
  for (let i = 0; i + 4 < records.length; i += 5) {
    const id: unknown = records[i]
    const hash: unknown = records[i + 1]
    const stamp: unknown = stamps[records[i + 2] as number]
    const entryLength: unknown = records[i + 3]
    const codeLength: unknown = records[i + 4]
    if (typeof id !== 'string' || typeof hash !== 'string' || typeof stamp !== 'string') return stored
    if (!isLength(entryLength, 0) || !isLength(codeLength, -1)) return stored
    const codeAt = next + entryLength
    const codeEnd = codeAt + Math.max(codeLength, 0)
    if (bytes[codeEnd] !== 0x0a) return stored
    stored.set(id, [hash, stamp, next, codeAt, codeLength < 0 ? -1 : codeEnd])
    next = codeEnd + 1
  }
  return stored
}

function isLength(value: unknown, least: number): value is number {
  return Number.isInteger(value) && (value as number) >= least
}
