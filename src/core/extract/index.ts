/**
 * The extractor: application source in, messages out. One implementation for the bundler plugin and
 * `tms extract`, so the two can never disagree about a message.
 *
 * Which calls are messages:
 * - a call (or tagged template) of a keyword name that the file does not declare itself: a global, or
 *   an import from any module (an app's own wrapper around the runtime included);
 * - the runtime's `t` (imported from `runtimeModule`) under any local name, a namespace import's `.t`,
 *   and the same through `require()`;
 * - member keywords (`i18n.t`) by their written path.
 * A local declaration (variable, function, parameter, class, catch binding) of the name in an
 * enclosing scope hides the keyword; so does importing another runtime export under that name.
 *
 * Diagnostics (stable codes): warnings `non-literal-text`, `non-literal-plural`, `non-literal-variant`
 * (also a context argument), `non-literal-options`, `non-literal-instruction`, `invalid-max-length`,
 * `missing-argument`, `empty-text`, `unsupported-tagged-template`, `conflicting-metadata`,
 * `parse-error`, `read-error`; error `text-too-long` (over 10000 UTF-16 units). A skipped call never
 * stops the rest of the file, and a file that does not parse never stops the others.
 *
 * The folder, in the order a file goes through it: `sources.ts` (a file's parse units: scripts of
 * .vue/.svelte, the frontmatter of .astro), `precheck.ts` (does it mention a keyword at all),
 * `nesting.ts` (a guard against pathological depth), `parse.ts` (oxc), one `Scanner` (`scan.ts`):
 * `scan-lazy.ts` (Node >= 22), `scan-json.ts` (Node 20), `scan-estree.ts` (scope-aware, for programs that
 * declare a keyword's name), with `bindings.ts` (which names are keywords), `keywords.ts` (xgettext
 * specs), `calls.ts`/`quick.ts`/`nodes.ts` (a call read into a message), `jsx.ts` (React `<T>` found;
 * `jsx-element.ts` one element read, `jsx-text.ts` its text as React renders it), `vue.ts` (templates
 * through the app's compiler-sfc), `svelte.ts` (markup through the app's svelte/compiler),
 * `module-level.ts` (sites evaluated at module level). All of them add to one `FileContext`
 * (`file-context.ts`: a file's sites, messages, diagnostics and positions), which parses placeholders
 * through `placeholder-memo.ts`. `file.ts` extracts one file,
 * `pool.ts`/`worker.ts` spread files over threads, `cache.ts`/`files-digest.ts` keep results by content
 * hash, `merge.ts` joins them in file order, `options.ts` and `types.ts` hold the shapes.
 */
import { readFileSync, statSync } from 'node:fs'
import { relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { globSync } from 'tinyglobby'
import { mayNameAStyle } from '../icu/styles'
import { messagesDigest } from '../messages-digest'
import {
  type CachedFile,
  type CacheFileContents,
  diskStateOf,
  lastMergedRun,
  loadCacheFile,
  type Merged,
  rememberedFile,
  rememberFile,
  rememberMergedRun,
  remembersNoFile,
  sameFiles,
  saveCacheFile,
  setDiskState,
} from './cache'
import { contentHash, extractFileFromDisk, extractUncached } from './file'
import { filesDigest } from './files-digest'
import { Merger, mergeFiles } from './merge'
import { patchStoredMerge } from './merge-patch'
import {
  type ExtractOptions,
  type ResolvedExtractOptions,
  resolveExtractOptions,
  type ScannerName,
} from './options'
import { extractInThreads, extractMessagesInThreads, type ParsedFile, threadCount } from './pool'
import { isExtractable } from './sources'
import { dependsOnInstall } from './svelte'
import type { Diagnostic, ExtractResult, FileExtraction, Message } from './types'

export { clearExtractionMemory } from './cache'
export { ExtractOptionsError } from './errors'
export { MAX_TEXT_LENGTH } from './file-context'
export { type KeywordSpec, parseKeywordSpec } from './keywords'
export {
  EXTRACT_DEFAULTS,
  type ExtractOptions,
  type ResolvedExtractOptions,
  resolveExtractOptions,
} from './options'
export { transientExtraction } from './payload'
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
 * module that extraction at build start did not see, read with the options' `oneFileScanner`. Same
 * content and options give the cached result.
 */
export function extractFromCode(file: string, code: string, options: ResolvedExtractOptions): FileExtraction {
  const hash = contentHash(code)
  const cached = rememberedFile(file)
  if (cached !== undefined && cached.digest === options.digest && cached.hash === hash) return cached.result
  const { result } = extractUncached(file, code, options, hash, options.oneFileScanner)
  // No stat: size/mtime of -1 never match, so extractMessages still reads the file once to compare hashes.
  rememberFile({ digest: options.digest, hash, size: -1, mtimeMs: -1, result })
  return result
}

function isResolved(options: ExtractOptions | ResolvedExtractOptions): options is ResolvedExtractOptions {
  return typeof (options as ResolvedExtractOptions).digest === 'string'
}

/** The files `include`/`exclude` select, absolute and sorted; only extensions the extractor reads. */
export async function findSourceFiles(options: ResolvedExtractOptions): Promise<string[]> {
  // The synchronous walk is faster than the asynchronous one on large trees (no promise per entry).
  const found = globSync(options.include, {
    cwd: options.cwd,
    ignore: options.exclude,
    absolute: true,
    onlyFiles: true,
    followSymbolicLinks: true,
    // A glob selects what it matches: `src` alone is the directory, not everything in it.
    expandDirectories: false,
  })
  return found.filter(isExtractable).sort()
}

/**
 * Whether `file` (an absolute path) is one {@link findSourceFiles} would find now: the test of one file
 * that a dev server asks of a module its watcher has not told it of yet (a file created and imported
 * at once), as the glob reads it (paths relative to `cwd`, dot files left out).
 */
export function sourceFileTest(options: ResolvedExtractOptions): (file: string) => boolean {
  // A negated include (`!src/gen/**`) leaves files out, as the glob reads it, rather than matching the rest.
  const negated = options.include.filter((p) => p.startsWith('!')).map((p) => p.slice(1))
  const include = picomatch(
    options.include.filter((p) => !p.startsWith('!')),
    { ignore: [...options.exclude, ...negated] },
  )
  return (file) => {
    if (!isExtractable(file)) return false
    const rel = relative(options.cwd, file).split(sep).join('/')
    return include(rel) || include(file)
  }
}

/**
 * Every message of the files `include`/`exclude` select: tinyglobby, the content-hash caches, oxc-parser
 * (on worker threads for large trees), then one message per key with all its locations. Long because
 * the steps share the run's counters and caches, and reading them in order is the point.
 */
export async function extractMessages(
  options: ExtractOptions | ResolvedExtractOptions = {},
): Promise<ExtractResult> {
  const resolved = isResolved(options) ? options : resolveExtractOptions(options)
  const { digest } = resolved
  // A process's first run needs the disk cache: its read (megabytes, on libuv's threads) goes on while
  // this thread walks the tree and stats each file, rather than after.
  const early =
    resolved.cacheDir !== null && remembersNoFile()
      ? loadCacheFile(resolved.cacheDir, digest, resolved.namespace)
      : null
  const files = await findSourceFiles(resolved)
  // Synchronous stat is several times faster than thousands of promises here. Only the caches read
  // size and mtime: a messages-only run remembers nothing, so it has no stat (and nothing is kept).
  const stats = resolved.messagesOnly
    ? files.map(() => null)
    : files.map((f) => {
        try {
          return statSync(f)
        } catch {
          return null
        }
      })

  const cachedFiles = new Array<CachedFile>(files.length)
  const counts = { parsed: 0, cached: 0, skipped: 0 }
  const count = (outcome: ParsedFile['outcome']): void => {
    if (outcome === 'skipped') counts.skipped++
    else if (outcome === 'parsed') counts.parsed++
  }
  let misses: number[] = []
  for (let i = 0; i < files.length; i++) {
    const known = rememberedFile(files[i]!)
    const s = stats[i]
    if (known?.digest === digest && s && known.size === s.size && known.mtimeMs === s.mtimeMs) {
      cachedFiles[i] = known
      counts.cached++
    } else misses.push(i)
  }
  // The disk cache is read only when the in-process one does not cover every file.
  const disk =
    misses.length > 0 && resolved.cacheDir !== null
      ? await (early ?? loadCacheFile(resolved.cacheDir, digest, resolved.namespace))
      : null
  if (disk !== null) {
    misses = misses.filter((i) => {
      const known = disk.files.get(files[i]!)
      const s = stats[i]
      if (known === undefined || !s || known.size !== s.size || known.mtimeMs !== s.mtimeMs) return true
      cachedFiles[i] = known
      counts.cached++
      return false
    })
  }

  // Changed size or mtime of a known file: read and hash; a known hash still spares the parse.
  const toParse: number[] = []
  const changed: { i: number; code: string; hash: string; size: number; mtimeMs: number }[] = []
  for (const i of misses) {
    const file = files[i]!
    const s = stats[i]
    const candidates = [rememberedFile(file), disk?.files.get(file)].filter(
      (e): e is CachedFile => e !== undefined && e.digest === digest,
    )
    if (candidates.length === 0 || !s) {
      toParse.push(i)
      continue
    }
    let code: string
    try {
      code = readFileSync(file, 'utf8')
    } catch {
      toParse.push(i)
      continue
    }
    const hash = contentHash(code)
    const same = candidates.find((e) => e.hash === hash)
    if (same !== undefined) {
      cachedFiles[i] = { ...same, size: s.size, mtimeMs: s.mtimeMs }
      counts.cached++
      continue
    }
    changed.push({ i, code, hash, size: s.size, mtimeMs: s.mtimeMs })
  }
  const scanner = scannerOfRun(resolved, changed.length + toParse.length)
  for (const { i, code, hash, size, mtimeMs } of changed) {
    const { result, outcome } = extractUncached(files[i]!, code, resolved, hash, scanner)
    count(outcome)
    const remember = !dependsOnInstall(result)
    cachedFiles[i] = { digest, hash, size: remember ? size : -1, mtimeMs: remember ? mtimeMs : -1, result }
  }

  let helped = 0
  const threads = threadCount(resolved.workers, toParse.length)
  // A messages-only run on one thread merges each file as soon as it is read and keeps no per-file
  // result: the per-file objects die young instead of surviving until a merge at the end.
  const merger = resolved.messagesOnly ? new Merger(resolved.cwd, true) : null
  if (merger !== null && threads > 1) {
    const done = await extractMessagesInThreads(
      toParse.map((i) => files[i]!),
      resolved,
      threads,
      merger,
    )
    counts.parsed += done.parsed
    counts.skipped += done.skipped
    helped = done.workers
  } else if (merger !== null) {
    for (const i of toParse) {
      const r = extractFileFromDisk(files[i]!, resolved)
      count(r.outcome)
      merger.add(r.result)
    }
  }
  if (merger !== null) {
    // Every file is listed, with an empty result: its messages are in the merge only.
    for (const i of toParse) {
      const result: FileExtraction = { file: files[i]!, hash: '', messages: [], calls: [], diagnostics: [] }
      cachedFiles[i] = { digest, hash: '', size: -1, mtimeMs: -1, result }
    }
  } else if (toParse.length > 0) {
    // Read only when a file is parsed: under `auto` the options' scanner asks the parser (oxc.ts).
    const { results, workers } = await extractInThreads(
      toParse.map((i) => files[i]!),
      { ...resolved, scanner },
      threads,
    )
    helped = workers
    results.forEach((r, k) => {
      const i = toParse[k]!
      const s = stats[i]
      count(r.outcome)
      // An unreadable (or vanished) file is not remembered: the next run tries again.
      const remember =
        r.outcome !== 'unreadable' && s !== null && s !== undefined && !dependsOnInstall(r.result)
      cachedFiles[i] = {
        digest,
        hash: r.result.hash,
        size: remember ? s.size : -1,
        mtimeMs: remember ? s.mtimeMs : -1,
        result: r.result,
      }
      if (r.payload !== undefined) cachedFiles[i]!.payload = r.payload
    })
  }

  const fileMap = new Map<string, FileExtraction>()
  for (const e of cachedFiles) {
    if (e.size >= 0) rememberFile(e)
    fileMap.set(e.result.file, e.result)
  }

  // The merge is skipped when the same results were merged before, in this process or on disk.
  let made: Merged
  const run = lastMergedRun()
  const fromDisk = disk?.merged ?? null
  const merge = () =>
    mergeFiles(
      cachedFiles.map((e) => e.result),
      resolved.cwd,
    )
  if (merger !== null) made = summed(merger.finish())
  else if (sameFiles(run, digest, cachedFiles)) made = run!.merged
  else if (fromDisk !== null && fromDisk.from === filesDigest(cachedFiles)) {
    made = orMerged(fromDisk, () => merge().messages)
  } else {
    const results = cachedFiles.map((e) => e.result)
    const patched = disk !== null ? patchStoredMerge(disk, results, resolved.cwd) : undefined
    made = patched === undefined ? summed(merge()) : { ...summed(patched), line: patched.line }
  }
  if (!resolved.messagesOnly) rememberMergedRun({ digest, files: cachedFiles, merged: made })

  if (resolved.cacheDir !== null) {
    // The same list when every file is kept (a warm run): its digest is then made once.
    const kept = cachedFiles.every((e) => e.size >= 0) ? cachedFiles : cachedFiles.filter((e) => e.size >= 0)
    const state = `${resolved.cacheDir}\u0000${digest}\u0000${filesDigest(kept)}\u0000${statesDigest(kept)}`
    // Written unless it holds these cached files: as just read, or as this process last read or wrote it.
    const current = disk !== null ? diskMatches(disk, kept) : diskStateOf() === state
    if (!current) await saveCacheFile(resolved.cacheDir, digest, kept, made, disk?.payloads ?? new Map())
    setDiskState(state)
  }
  return {
    // Read when asked: a warm build whose memos answer reads none (see `Merged`).
    get messages() {
      return made.messages
    },
    count: made.count,
    styled: made.styled,
    digest: made.messagesDigest,
    files: fileMap,
    diagnostics: made.diagnostics,
    stats: { files: files.length, ...counts, workers: helped },
  }
}

/**
 * Below this many files to parse, a run reads them with the options' `oneFileScanner`. `lazy` (the
 * default on Node >= 22) pays once per process for raw transfer's buffer, some 50 ms of CPU and the
 * full collection its allocation sets off, and wins it back at about 0.13 ms a file (BENCHMARKS.md,
 * "Extraction scanners": 725 against `json`'s 1,302 ms over 5,000 files), so over some 400 files; a
 * build after an edit parses one or a few.
 */
export const FEW_FILES = 100

/** The scanner of a run that parses `parsing` files (see {@link FEW_FILES}). */
function scannerOfRun(options: ResolvedExtractOptions, parsing: number): ScannerName {
  return parsing < FEW_FILES ? options.oneFileScanner : options.scanner
}

/** A merge's messages with what a warm run knows of them without reading them. */
function summed(merged: { messages: Message[]; diagnostics: Diagnostic[] }): Merged {
  const { messages, diagnostics } = merged
  let styled = 0
  for (const m of messages) if (mayNameAStyle(m.text)) styled++
  return { messages, diagnostics, messagesDigest: messagesDigest(messages), count: messages.length, styled }
}

/**
 * The merge read from disk, whose messages are merged again from the files' results if their line does
 * not read back (a cache file edited by hand): the summary's digest and count are of the same messages.
 */
function orMerged(disk: Merged, merge: () => Message[]): Merged {
  const { messagesDigest, diagnostics, count, styled } = disk
  let messages: Message[] | undefined
  let line = disk.line
  return {
    messagesDigest,
    diagnostics,
    count,
    styled,
    get line() {
      return line
    },
    get messages() {
      if (messages === undefined) {
        try {
          messages = disk.messages
        } catch {
          line = undefined
          messages = merge()
        }
      }
      return messages
    },
  }
}

function statesDigest(cachedFiles: readonly CachedFile[]): string {
  let s = 0
  for (const e of cachedFiles) s = (Math.imul(s, 31) + e.size + Math.round(e.mtimeMs * 1000)) | 0
  return String(s)
}

function diskMatches(disk: CacheFileContents, cachedFiles: readonly CachedFile[]): boolean {
  if (disk.files.size !== cachedFiles.length) return false
  for (const e of cachedFiles) {
    const d = disk.files.get(e.result.file)
    if (d === undefined || d.hash !== e.hash || d.size !== e.size || d.mtimeMs !== e.mtimeMs) return false
  }
  return disk.merged !== null && disk.merged.from === filesDigest(cachedFiles)
}

/** A file path as `tms extract` prints it: relative to cwd, with forward slashes. */
export function displayPath(file: string, cwd: string): string {
  return relative(cwd, file).split('\\').join('/')
}
