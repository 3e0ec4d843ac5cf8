/**
 * The content-hash cache of per-file results.
 *
 * In process: a map from path to the last result, its content hash, size and mtime, and the options
 * digest; plus the last merged message list, reused when no file changed. On disk (when `cacheDir` is
 * set): `<cacheDir>/extract.v1.cache`, written atomically (temp file + rename), where any read failure
 * or mismatch (schema, tool version, options digest) is a miss.
 *
 * A file whose size and mtime are unchanged is trusted without reading it; otherwise it is read and
 * hashed, and a matching hash still avoids the parse. So an unchanged file is never parsed again, and a
 * touched but identical one costs a read.
 *
 * The disk format is built for the warm run, whose cost is reading this file: one header line, a line
 * that sums up the merged messages (the file digest they came from, their digest and count, the
 * diagnostics), a line with the merged messages themselves, an index line (a JSON array of five values
 * per file: path, hash, size, mtime and the length in bytes of its payload), then each file's payload
 * on a line of its own, in the index's order. The index is parsed in one call, where reading each
 * file's fields from the bytes one by one cost a cold start thousands of small calls; a file's payload
 * (compact JSON of its messages and call sites) is decoded only when something reads that file's
 * result, and the merged messages only when something reads them: a warm build whose memos answer
 * needs their summary alone.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { VERSION } from '../../version'
import { readWhole } from '../read-whole'
import { byteLengthOf, type StoredText } from '../stored-text'
import { filesDigest } from './files-digest'
import { EXTRACTOR_REVISION } from './options'
import { decodeMessage, type EncodedMessage, encodeFile, encodeMessage, storedExtraction } from './payload'
import type { CachedFile, Diagnostic, Message } from './types'

export type { CachedFile }

/** The messages of a merge, and what is known of them without reading them. */
export interface Merged {
  /** Read from the cache file when first asked, in a warm run. */
  readonly messages: Message[]
  /** See `messagesDigest`. */
  messagesDigest: string
  diagnostics: Diagnostic[]
  /** `messages.length`. */
  count: number
  /** How many messages may name a style (`mayNameAStyle`). */
  styled: number
  /** The cache file's line of these messages, as read (its bytes): written back as it is. */
  line?: StoredText
}

/** The merged outcome of one run, with the cached files it came from (compared by identity). */
export interface MergedRun {
  digest: string
  files: readonly CachedFile[]
  merged: Merged
}

const memory = new Map<string, CachedFile>()
let lastRun: MergedRun | null = null
// What the disk cache held when this process last read or wrote it, so an unchanged one is not rewritten.
let diskState: string | null = null

export function diskStateOf(): string | null {
  return diskState
}

export function setDiskState(state: string): void {
  diskState = state
}

export function rememberedFile(file: string): CachedFile | undefined {
  return memory.get(file)
}

/** Whether this process remembers no file yet (its first run): a run then reads the disk cache. */
export function remembersNoFile(): boolean {
  return memory.size === 0
}

export function rememberFile(cached: CachedFile): void {
  memory.set(cached.result.file, cached)
}

export function lastMergedRun(): MergedRun | null {
  return lastRun
}

export function rememberMergedRun(run: MergedRun): void {
  lastRun = run
}

/** Forgets every in-process result (tests, and the benchmark's cold runs). */
export function clearExtractionMemory(): void {
  memory.clear()
  lastRun = null
  diskState = null
}

/** True when `cachedFiles` are exactly the run's files (same files, same results). */
export function sameFiles(
  run: MergedRun | null,
  digest: string,
  cachedFiles: readonly CachedFile[],
): boolean {
  if (run === null || run.digest !== digest || run.files.length !== cachedFiles.length) return false
  for (let i = 0; i < cachedFiles.length; i++) if (run.files[i] !== cachedFiles[i]) return false
  return true
}

// ---------------------------------------------------------------------------------------------------
// Disk file

const CACHE_FILE = 'extract.v1.cache'
const NEWLINE = Buffer.from('\n')
export const EXTRACT_CACHE_SCHEMA = 4

interface Header {
  schema: number
  revision: number
  tool: string
  digest: string
}

interface EncodedSummary {
  /** digest of the file list and hashes the merge came from */
  from: string
  /** `messagesDigest` of the messages */
  k: string
  /** how many messages */
  n: number
  /** how many may name a style */
  s: number
  d: Diagnostic[]
}

interface EncodedMerged {
  files: string[]
  m: EncodedMessage[]
}

/** What the cache file holds for an options digest: each cached file and the last merged result. */
export interface CacheFileContents {
  files: Map<string, CachedFile>
  /** Each file's encoded payload as read, reused when the file is written back unchanged. */
  payloads: Map<string, { hash: string; payload: StoredText }>
  merged: StoredMerge | null
}

/** The merge a cache file holds. */
export interface StoredMerge extends Merged {
  /** The digest of the files it was made of (`filesDigest`). */
  from: string
  /**
   * Its line parsed and its messages decoded, each call anew (nothing kept): a patch
   * (`merge-patch.ts`) takes the messages and writes the entries of those it keeps as they are.
   */
  decoded(): { messages: Message[]; line: PatchableLine }
}

/** A merged line as parsed, to write again with some of its entries (see {@link patchedLine}). */
export interface PatchableLine {
  readonly files: readonly string[]
  readonly m: readonly EncodedMessage[]
}

function empty(): CacheFileContents {
  return { files: new Map(), payloads: new Map(), merged: null }
}

/**
 * Reads the disk cache for this options digest; an empty cache on any failure or mismatch. The file is
 * read as bytes and only its first four lines are decoded (the merged messages' only when asked): the
 * payloads stay bytes until asked, since one string of megabytes costs a warm start more than the few
 * fields it needs.
 */
export async function loadCacheFile(
  cacheDir: string,
  digest: string,
  namespace: string | null,
): Promise<CacheFileContents> {
  let bytes: Buffer
  try {
    bytes = await readWhole(join(cacheDir, CACHE_FILE))
  } catch {
    return empty()
  }
  try {
    const lines = lineEnds(bytes, 4)
    if (!lines) return empty()
    const text = (i: number): string => bytes.toString('utf8', lineStart(lines, i), lines[i])
    const header = JSON.parse(text(0)) as Header
    if (
      header.schema !== EXTRACT_CACHE_SCHEMA ||
      header.revision !== EXTRACTOR_REVISION ||
      header.tool !== VERSION ||
      header.digest !== digest
    ) {
      return empty()
    }
    const rows = JSON.parse(text(3)) as unknown
    if (!Array.isArray(rows) || rows.length % 5 !== 0) return empty()
    const cachedFiles = new Map<string, CachedFile>()
    const payloads = new Map<string, { hash: string; payload: StoredText }>()
    let at = lines[3]! + 1
    for (let i = 0; i < rows.length; i += 5) {
      const file: unknown = rows[i]
      const hash: unknown = rows[i + 1]
      const size: unknown = rows[i + 2]
      const mtimeMs: unknown = rows[i + 3]
      const length: unknown = rows[i + 4]
      if (typeof file !== 'string' || typeof hash !== 'string') return empty()
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || !Number.isInteger(length)) return empty()
      const end = at + (length as number)
      if (end < at || bytes[end] !== 0x0a) return empty()
      const payload = bytes.subarray(at, end)
      at = end + 1
      payloads.set(file, { hash, payload })
      cachedFiles.set(file, {
        digest,
        hash,
        size,
        mtimeMs,
        result: storedExtraction(file, hash, payload, namespace),
      })
    }
    let merged: CacheFileContents['merged'] = null
    if (lineStart(lines, 1) < lines[1]! && lineStart(lines, 2) < lines[2]!) {
      const m = JSON.parse(text(1)) as EncodedSummary
      const line = bytes.subarray(lineStart(lines, 2), lines[2])
      let messages: Message[] | undefined
      const decoded = () => {
        const parsed = JSON.parse(line.toString('utf8')) as EncodedMerged
        return { messages: decodeMerged(parsed, namespace), line: parsed }
      }
      merged = {
        from: m.from,
        messagesDigest: m.k,
        count: m.n,
        styled: m.s,
        diagnostics: m.d,
        line,
        decoded,
        get messages() {
          messages ??= decoded().messages
          return messages
        },
      }
    }
    return { files: cachedFiles, payloads, merged }
  } catch {
    return empty()
  }
}

/** The offsets of the first `count` line breaks, or undefined when the bytes have fewer. */
function lineEnds(bytes: Buffer, count: number): number[] | undefined {
  const ends: number[] = []
  for (let at = 0; ends.length < count; ) {
    const end = bytes.indexOf(0x0a, at)
    if (end < 0) return undefined
    ends.push(end)
    at = end + 1
  }
  return ends
}

function lineStart(ends: readonly number[], i: number): number {
  return i === 0 ? 0 : ends[i - 1]! + 1
}

/** The merged line's messages: every message of the app, kept for the whole build. */
function decodeMerged(merged: EncodedMerged, namespace: string | null): Message[] {
  const messages: Message[] = new Array(merged.m.length)
  for (let k = 0; k < merged.m.length; k++) {
    const e = merged.m[k]!
    const where = e[6]
    const locations = new Array(where.length / 3)
    for (let i = 0; i < where.length; i += 3)
      locations[i / 3] = { file: merged.files[where[i]!]!, line: where[i + 1]!, column: where[i + 2]! }
    const message = decodeMessage(e, namespace) as Message
    message.locations = locations
    messages[k] = message
  }
  return messages
}

/**
 * The merged line of `messages`, a patch of the stored line `stored`: the message at `i` is the stored
 * entry `kept[i]` as it was, or encoded now when that is -1. File indexes stay (a file met now is
 * added at the end), so a kept entry's locations read back the same. Undefined when the stored line
 * names a file that `exists` denies: a whole encode then leaves it out, so the list never outgrows the
 * app's files.
 */
export function patchedLine(
  stored: PatchableLine,
  messages: readonly Message[],
  kept: readonly number[],
  exists: (file: string) => boolean,
): string | undefined {
  if (!stored.files.every(exists)) return undefined
  const files = stored.files.slice()
  const fileIndex = new Map(files.map((f, i) => [f, i]))
  const m = messages.map((msg, i) => {
    const at = kept[i]!
    if (at >= 0) return stored.m[at]!
    const where: number[] = []
    for (const l of msg.locations) {
      let fi = fileIndex.get(l.file)
      if (fi === undefined) {
        fi = files.push(l.file) - 1
        fileIndex.set(l.file, fi)
      }
      where.push(fi, l.line, l.column)
    }
    return encodeMessage(msg, where)
  })
  return JSON.stringify({ files, m } satisfies EncodedMerged)
}

function encodeSummary(from: string, merged: Merged): string {
  const { messagesDigest: k, count: n, styled: s, diagnostics: d } = merged
  return JSON.stringify({ from, k, n, s, d: [...d] } satisfies EncodedSummary)
}

function encodeMerged(messages: readonly Message[]): string {
  const files: string[] = []
  const fileIndex = new Map<string, number>()
  const m = messages.map((msg) => {
    const where: number[] = []
    for (const l of msg.locations) {
      let fi = fileIndex.get(l.file)
      if (fi === undefined) {
        fi = files.length
        files.push(l.file)
        fileIndex.set(l.file, fi)
      }
      where.push(fi, l.line, l.column)
    }
    return encodeMessage(msg, where)
  })
  return JSON.stringify({ files, m } satisfies EncodedMerged)
}

/**
 * Writes the cache atomically. Files read from the previous cache file keep their payload's bytes, so
 * a warm run that changed one file encodes only that one. A failure to write is returned, not thrown.
 */
export async function saveCacheFile(
  cacheDir: string,
  digest: string,
  cachedFiles: readonly CachedFile[],
  merged: Merged,
  payloads: CacheFileContents['payloads'],
): Promise<Error | null> {
  const header: Header = { schema: EXTRACT_CACHE_SCHEMA, revision: EXTRACTOR_REVISION, tool: VERSION, digest }
  const rows: (string | number)[] = []
  const texts: StoredText[] = []
  for (const e of cachedFiles) {
    const stored = payloads.get(e.result.file)
    const payload =
      e.payload ?? (stored !== undefined && stored.hash === e.hash ? stored.payload : encodeFile(e.result))
    rows.push(e.result.file, e.hash, e.size, e.mtimeMs, byteLengthOf(payload))
    texts.push(payload)
  }
  // Payloads and the merged line read from the last file go back as the bytes they were read as.
  const lines: StoredText[] = [
    JSON.stringify(header),
    encodeSummary(filesDigest(cachedFiles), merged),
    merged.line ?? encodeMerged(merged.messages),
    JSON.stringify(rows),
    ...texts,
  ]
  const bytes = Buffer.concat(lines.flatMap((l) => [typeof l === 'string' ? Buffer.from(l) : l, NEWLINE]))
  const target = join(cacheDir, CACHE_FILE)
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(cacheDir, { recursive: true })
    await writeFile(temp, bytes)
    await rename(temp, target)
    return null
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    return error as Error
  }
}
