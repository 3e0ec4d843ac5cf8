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
 * diagnostics), a line with the merged messages themselves, then one line per file
 * `path \t hash \t size \t mtime \t payload`. A file's payload (compact JSON of its messages and call
 * sites) is decoded only when something reads that file's result, and the merged messages only when
 * something reads them: a warm build whose memos answer needs their summary alone.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { VERSION } from '../../version'
import { type StoredText, tabsFrom, textOf } from '../stored-text'
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
export const EXTRACT_CACHE_SCHEMA = 3

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
  merged: (Merged & { from: string }) | null
}

function empty(): CacheFileContents {
  return { files: new Map(), payloads: new Map(), merged: null }
}

/**
 * Reads the disk cache for this options digest; an empty cache on any failure or mismatch. The file is
 * read as bytes and only the short fields are decoded (each line's own, a few dozen bytes): its
 * payloads and merged messages stay bytes until asked, since one string of megabytes costs a warm
 * start more than the few fields it needs.
 */
export async function loadCacheFile(
  cacheDir: string,
  digest: string,
  namespace: string | null,
): Promise<CacheFileContents> {
  let bytes: Buffer
  try {
    bytes = await readFile(join(cacheDir, CACHE_FILE))
  } catch {
    return empty()
  }
  try {
    const lines = lineEnds(bytes)
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
    const cachedFiles = new Map<string, CachedFile>()
    const payloads = new Map<string, { hash: string; payload: StoredText }>()
    for (let i = 3; i < lines.length; i++) {
      const start = lineStart(lines, i)
      const end = lines[i]!
      if (start === end) continue
      const tabs = tabsFrom(bytes, start, 4)
      if (!tabs || tabs[3]! > end) return empty()
      const [t1, t2, t3, t4] = tabs as [number, number, number, number]
      const file = JSON.parse(bytes.toString('utf8', start, t1)) as string
      const hash = bytes.toString('latin1', t1 + 1, t2)
      const size = Number(bytes.toString('latin1', t2 + 1, t3))
      const mtimeMs = Number(bytes.toString('latin1', t3 + 1, t4))
      if (!Number.isFinite(size) || !Number.isFinite(mtimeMs)) return empty()
      const payload = bytes.subarray(t4 + 1, end)
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
    if (lines.length > 2 && lineStart(lines, 1) < lines[1]! && lineStart(lines, 2) < lines[2]!) {
      const m = JSON.parse(text(1)) as EncodedSummary
      const line = bytes.subarray(lineStart(lines, 2), lines[2])
      let messages: Message[] | undefined
      merged = {
        from: m.from,
        messagesDigest: m.k,
        count: m.n,
        styled: m.s,
        diagnostics: m.d,
        line,
        get messages() {
          messages ??= decodeMerged(JSON.parse(line.toString('utf8')) as EncodedMerged, namespace)
          return messages
        },
      }
    }
    return { files: cachedFiles, payloads, merged }
  } catch {
    return empty()
  }
}

/** The offset of each line's end (its line break, or the end of the bytes for the last line). */
function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = []
  for (let at = 0; at <= bytes.length; ) {
    const end = bytes.indexOf(0x0a, at)
    ends.push(end < 0 ? bytes.length : end)
    if (end < 0) break
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
 * Writes the cache atomically. Files decoded from the previous cache file keep their payload text, so a
 * warm run that changed one file re-encodes only that one. A failure to write is returned, not thrown.
 */
export async function saveCacheFile(
  cacheDir: string,
  digest: string,
  cachedFiles: readonly CachedFile[],
  merged: Merged,
  payloads: CacheFileContents['payloads'],
): Promise<Error | null> {
  const header: Header = { schema: EXTRACT_CACHE_SCHEMA, revision: EXTRACTOR_REVISION, tool: VERSION, digest }
  const parts: string[] = [
    JSON.stringify(header),
    encodeSummary(filesDigest(cachedFiles), merged),
    merged.line === undefined ? encodeMerged(merged.messages) : textOf(merged.line),
  ]
  for (const e of cachedFiles) {
    const stored = payloads.get(e.result.file)
    const payload =
      e.payload ?? (stored !== undefined && stored.hash === e.hash ? stored.payload : encodeFile(e.result))
    parts.push(`${JSON.stringify(e.result.file)}\t${e.hash}\t${e.size}\t${e.mtimeMs}\t${textOf(payload)}`)
  }
  const target = join(cacheDir, CACHE_FILE)
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(cacheDir, { recursive: true })
    await writeFile(temp, `${parts.join('\n')}\n`)
    await rename(temp, target)
    return null
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    return error as Error
  }
}
