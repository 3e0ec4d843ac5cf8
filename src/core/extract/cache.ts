/**
 * The content-hash cache of per-file results.
 *
 * In process: a map from path to the last result, its content hash, size and mtime, and the options
 * digest. On disk (when `cacheDir` is set): the same entries in `<cacheDir>/extract.json`, versioned,
 * written atomically (temp file + rename), and every read failure is a miss.
 *
 * A file whose size and mtime are unchanged is trusted without reading it; otherwise it is read and
 * hashed, and a matching hash still avoids the parse. So an unchanged file is never parsed again, and a
 * touched but identical one costs a read.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { VERSION } from '../../version'
import { EXTRACTOR_REVISION } from './options'
import type { CallSite, Diagnostic, FileExtraction, Message } from './types'

export interface CacheEntry {
  digest: string
  hash: string
  size: number
  mtimeMs: number
  result: FileExtraction
}

const memory = new Map<string, CacheEntry>()

export function memoryEntry(file: string): CacheEntry | undefined {
  return memory.get(file)
}

export function rememberEntry(entry: CacheEntry): void {
  memory.set(entry.result.file, entry)
}

/** Forgets every in-process result (tests, and the benchmark's cold runs). */
export function clearExtractionMemory(): void {
  memory.clear()
}

const CACHE_FILE = 'extract.json'
export const EXTRACT_CACHE_SCHEMA = 1

// On disk, messages keep their locations as [line, column] (the file is the entry's key).
interface DiskMessage extends Omit<Message, 'locations'> {
  locations: [number, number][]
}

interface DiskEntry {
  hash: string
  size: number
  mtimeMs: number
  messages: DiskMessage[]
  calls: CallSite[]
  diagnostics: Diagnostic[]
}

interface DiskCache {
  schema: number
  revision: number
  tool: string
  digest: string
  files: Record<string, DiskEntry>
}

/** Entries of the disk cache for this options digest; an empty map on any failure or mismatch. */
export async function loadDiskCache(cacheDir: string, digest: string): Promise<Map<string, CacheEntry>> {
  const entries = new Map<string, CacheEntry>()
  let data: DiskCache
  try {
    data = JSON.parse(await readFile(join(cacheDir, CACHE_FILE), 'utf8')) as DiskCache
  } catch {
    return entries
  }
  if (
    data === null ||
    typeof data !== 'object' ||
    data.schema !== EXTRACT_CACHE_SCHEMA ||
    data.revision !== EXTRACTOR_REVISION ||
    data.tool !== VERSION ||
    data.digest !== digest ||
    data.files === null ||
    typeof data.files !== 'object'
  ) {
    return entries
  }
  try {
    for (const file of Object.keys(data.files)) {
      const e = data.files[file]!
      const messages: Message[] = e.messages.map((m) => ({
        ...m,
        locations: m.locations.map(([line, column]) => ({ file, line, column })),
      }))
      entries.set(file, {
        digest,
        hash: e.hash,
        size: e.size,
        mtimeMs: e.mtimeMs,
        result: { file, hash: e.hash, messages, calls: e.calls, diagnostics: e.diagnostics },
      })
    }
  } catch {
    // A damaged entry list is a miss for the whole file, not an error.
    return new Map()
  }
  return entries
}

/** Writes the entries atomically; a failure to write is reported to the caller, never thrown. */
export async function saveDiskCache(
  cacheDir: string,
  digest: string,
  entries: Iterable<CacheEntry>,
): Promise<Error | null> {
  const files: Record<string, DiskEntry> = {}
  for (const e of entries) {
    files[e.result.file] = {
      hash: e.hash,
      size: e.size,
      mtimeMs: e.mtimeMs,
      messages: e.result.messages.map((m) => ({
        ...m,
        locations: m.locations.map((l) => [l.line, l.column] as [number, number]),
      })),
      calls: e.result.calls,
      diagnostics: e.result.diagnostics,
    }
  }
  const data: DiskCache = {
    schema: EXTRACT_CACHE_SCHEMA,
    revision: EXTRACTOR_REVISION,
    tool: VERSION,
    digest,
    files,
  }
  const target = join(cacheDir, CACHE_FILE)
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(cacheDir, { recursive: true })
    await writeFile(temp, JSON.stringify(data))
    await rename(temp, target)
    return null
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    return error as Error
  }
}
