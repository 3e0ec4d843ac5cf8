/**
 * The extractor: application source in, messages out. One implementation for the bundler plugin and
 * `tms extract`, so the two can never disagree about a message.
 */
import { readFileSync, statSync } from 'node:fs'
import { relative } from 'node:path'
import fg from 'fast-glob'
import { type CacheEntry, loadDiskCache, memoryEntry, rememberEntry, saveDiskCache } from './cache'
import { contentHash, extractUncached } from './file'
import { mergeFiles } from './merge'
import { type ExtractOptions, type ResolvedExtractOptions, resolveExtractOptions } from './options'
import { extractInThreads, type ParsedFile, threadCount } from './pool'
import { isExtractable } from './sources'
import type { ExtractResult, FileExtraction } from './types'

export { clearExtractionMemory } from './cache'
export { MAX_TEXT_LENGTH } from './calls'
export { ExtractOptionsError } from './errors'
export { type KeywordSpec, parseKeywordSpec } from './keywords'
export {
  EXTRACT_DEFAULTS,
  type ExtractOptions,
  type ResolvedExtractOptions,
  resolveExtractOptions,
} from './options'
export { isExtractable } from './sources'
export {
  type CallSite,
  compareMessages,
  type Diagnostic,
  type ExtractResult,
  type ExtractStats,
  type FileExtraction,
  type Message,
  type MessageLocation,
  messageKey,
  type Range,
} from './types'

/**
 * One file's messages and call sites from its text: synchronous, for a bundler transform meeting a
 * module that extraction at build start did not see. Same content and options give the cached result.
 */
export function extractFromCode(file: string, code: string, options: ResolvedExtractOptions): FileExtraction {
  const hash = contentHash(code)
  const cached = memoryEntry(file)
  if (cached !== undefined && cached.digest === options.digest && cached.hash === hash) return cached.result
  const { result } = extractUncached(file, code, options, hash)
  // No stat: size/mtime of -1 never match, so extractMessages still reads the file once to compare hashes.
  rememberEntry({ digest: options.digest, hash, size: -1, mtimeMs: -1, result })
  return result
}

function isResolved(options: ExtractOptions | ResolvedExtractOptions): options is ResolvedExtractOptions {
  return typeof (options as ResolvedExtractOptions).digest === 'string'
}

/** The files `include`/`exclude` select, absolute and sorted; only extensions the extractor reads. */
export async function findSourceFiles(options: ResolvedExtractOptions): Promise<string[]> {
  const found = await fg(options.include, {
    cwd: options.cwd,
    ignore: options.exclude,
    absolute: true,
    onlyFiles: true,
    followSymbolicLinks: true,
  })
  return found.filter(isExtractable).sort()
}

/**
 * Every message of the files `include`/`exclude` select: fast-glob, the content-hash caches, oxc-parser
 * (on worker threads for large trees), then one message per key with all its locations.
 */
export async function extractMessages(
  options: ExtractOptions | ResolvedExtractOptions = {},
): Promise<ExtractResult> {
  const resolved = isResolved(options) ? options : resolveExtractOptions(options)
  const files = await findSourceFiles(resolved)
  const disk = resolved.cacheDir === null ? null : await loadDiskCache(resolved.cacheDir, resolved.digest)

  const entries = new Array<CacheEntry | undefined>(files.length)
  // Synchronous stat is several times faster than thousands of promises here.
  const stats = files.map((f) => {
    try {
      return statSync(f)
    } catch {
      return null
    }
  })
  const toParse: number[] = []
  let cached = 0
  let skipped = 0
  let parsed = 0
  const count = (outcome: ParsedFile['outcome']): void => {
    if (outcome === 'skipped') skipped++
    else if (outcome === 'parsed') parsed++
  }
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!
    const s = stats[i]
    const known = pickEntry(memoryEntry(file), disk?.get(file), resolved.digest)
    if (known === undefined || s === null) {
      toParse.push(i)
      continue
    }
    if (known.size === s.size && known.mtimeMs === s.mtimeMs) {
      entries[i] = known
      cached++
      continue
    }
    // Changed size or mtime: read and hash; a known hash still spares the parse.
    let code: string
    try {
      code = readFileSync(file, 'utf8')
    } catch {
      toParse.push(i)
      continue
    }
    const hash = contentHash(code)
    const same = pickEntry(memoryEntry(file), disk?.get(file), resolved.digest, hash)
    if (same !== undefined) {
      entries[i] = { ...same, size: s.size, mtimeMs: s.mtimeMs }
      cached++
      continue
    }
    const { result, outcome } = extractUncached(file, code, resolved, hash)
    count(outcome)
    entries[i] = { digest: resolved.digest, hash, size: s.size, mtimeMs: s.mtimeMs, result }
  }

  const threads = threadCount(resolved.workers, toParse.length)
  const { results, workers } = await extractInThreads(
    toParse.map((i) => files[i]!),
    resolved,
    threads,
  )
  results.forEach((r, k) => {
    const i = toParse[k]!
    const s = stats[i]
    count(r.outcome)
    // An unreadable (or vanished) file is not remembered: the next run tries again.
    const remember = r.outcome !== 'unreadable' && s !== null
    entries[i] = {
      digest: resolved.digest,
      hash: r.result.hash,
      size: remember ? s.size : -1,
      mtimeMs: remember ? s.mtimeMs : -1,
      result: r.result,
    }
  })

  const fileMap = new Map<string, FileExtraction>()
  const ordered: FileExtraction[] = []
  let changed = disk === null || disk.size !== files.length
  for (const entry of entries) {
    const e = entry!
    if (e.size >= 0) rememberEntry(e)
    fileMap.set(e.result.file, e.result)
    ordered.push(e.result)
    if (!changed && disk!.get(e.result.file) !== e) changed = true
  }
  if (resolved.cacheDir !== null && changed) {
    await saveDiskCache(
      resolved.cacheDir,
      resolved.digest,
      entries.filter((e): e is CacheEntry => e !== undefined && e.size >= 0),
    )
  }
  const { messages, diagnostics } = mergeFiles(ordered, resolved.cwd)
  return {
    messages,
    files: fileMap,
    diagnostics,
    stats: { files: files.length, parsed, cached, skipped, workers },
  }
}

function pickEntry(
  mem: CacheEntry | undefined,
  disk: CacheEntry | undefined,
  digest: string,
  hash?: string,
): CacheEntry | undefined {
  for (const e of [mem, disk]) {
    if (e !== undefined && e.digest === digest && (hash === undefined || e.hash === hash)) return e
  }
  return undefined
}

/** A file path as `tms extract` prints it: relative to cwd, with forward slashes. */
export function displayPath(file: string, cwd: string): string {
  return relative(cwd, file).split('\\').join('/')
}
