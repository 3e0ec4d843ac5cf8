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
 * The disk format is built for the warm run, whose cost is reading this file: one header line, one
 * line for the merged messages, then one line per file `path \t hash \t size \t mtime \t payload`. A
 * file's payload (compact JSON of its messages and call sites) is decoded only when something reads
 * that file's result, and the merged line spares the merge when nothing changed.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { VERSION } from '../../version'
import { filesDigest } from './files-digest'
import { EXTRACTOR_REVISION } from './options'
import {
  type CachedFile,
  type CallSite,
  type Diagnostic,
  type FileExtraction,
  type JsxSite,
  type Markup,
  type Message,
  messageKey,
} from './types'

export type { CachedFile }

/** The merged outcome of one run, with the cached files it came from (compared by identity). */
export interface MergedRun {
  digest: string
  files: readonly CachedFile[]
  messages: Message[]
  diagnostics: Diagnostic[]
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
// Compact encoding

type EncodedMessage = [
  text: string,
  parsed: string | 0,
  variant: string | null,
  instruction: string | 0,
  maxLength: number | 0,
  placeholders: string[],
  /** per-file payload: line, column, ...; merged: fileIndex, line, column, ... */
  where: number[],
]

type EncodedCall = [
  /** call 0, tagged 1, attribute 2, jsx 3; plus 4 for a descriptor, 8 for a module-level call */
  kind: number,
  start: number,
  end: number,
  calleeStart: number,
  calleeEnd: number,
  line: number,
  column: number,
  message: number,
  plural: number,
  /** call: start, end of each argument; tagged: start, end of each expression */
  ranges: number[],
  /** tagged: the placeholder name of each expression */
  names: string[] | 0,
  /** 0 when equal to the message's placeholders */
  placeholders: string[] | 0,
  pluralPlaceholders: string[] | 0,
  /** absent, or the site's markup (Vue templates); 0 when a `<T>` element's data follows */
  markup?: Markup | 0,
  /** React's `<T>` elements: the opening element and the pieces, as found */
  jsx?: JsxSite,
]

interface EncodedFile {
  m: EncodedMessage[]
  c: EncodedCall[]
  d: Diagnostic[]
}

function encodeMessage(m: Message, where: number[]): EncodedMessage {
  return [
    m.text,
    m.parsed === m.text ? 0 : m.parsed,
    m.variant,
    m.instruction ?? 0,
    m.maxLength ?? 0,
    m.placeholders,
    where,
  ]
}

function decodeMessage(e: EncodedMessage, namespace: string | null): Omit<Message, 'locations'> {
  const parsed = e[1] === 0 ? e[0] : e[1]
  const m: Omit<Message, 'locations'> = {
    key: messageKey(parsed, e[2], namespace),
    text: e[0],
    parsed,
    placeholders: e[5],
    variant: e[2],
    namespace,
  }
  if (e[3] !== 0) m.instruction = e[3]
  if (e[4] !== 0) m.maxLength = e[4]
  return m
}

function sameList(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((x, i) => x === b[i])
}

export function encodeFile(result: FileExtraction): string {
  const index = new Map<string, number>()
  const m = result.messages.map((msg, i) => {
    index.set(msg.key, i)
    const where: number[] = []
    for (const l of msg.locations) where.push(l.line, l.column)
    return encodeMessage(msg, where)
  })
  const c = result.calls.map((call) => {
    const mi = index.get(call.messageKey) ?? -1
    const pi = call.pluralKey === undefined ? -1 : (index.get(call.pluralKey) ?? -1)
    const ranges: number[] = []
    for (const r of call.kind === 'tagged' ? (call.expressions ?? []) : call.args) ranges.push(r.start, r.end)
    const encoded: EncodedCall = [
      (call.kind === 'tagged' ? 1 : call.kind === 'attribute' ? 2 : call.kind === 'jsx' ? 3 : 0) +
        (call.descriptor ? 4 : 0) +
        (call.moduleLevel ? 8 : 0),
      call.start,
      call.end,
      call.callee.start,
      call.callee.end,
      call.line,
      call.column,
      mi,
      pi,
      ranges,
      call.kind === 'tagged' ? (call.expressions ?? []).map((e) => e.name) : 0,
      sameList(call.placeholders, result.messages[mi]?.placeholders) ? 0 : call.placeholders,
      call.pluralPlaceholders === undefined ? 0 : call.pluralPlaceholders,
    ]
    if (call.markup !== undefined || call.jsx) encoded.push(call.markup ?? 0)
    if (call.jsx) encoded.push(call.jsx)
    return encoded
  })
  return JSON.stringify({ m, c, d: result.diagnostics } satisfies EncodedFile)
}

function decodeFile(
  file: string,
  payload: string,
  namespace: string | null,
): Pick<FileExtraction, 'messages' | 'calls' | 'diagnostics'> {
  const data = JSON.parse(payload) as EncodedFile
  // Plain loops and objects made whole: a build decodes every module's record as it transforms it.
  const messages: Message[] = new Array(data.m.length)
  for (let k = 0; k < data.m.length; k++) {
    const e = data.m[k]!
    const where = e[6]
    const locations = new Array(where.length >> 1)
    for (let i = 0; i < where.length; i += 2)
      locations[i >> 1] = { file, line: where[i]!, column: where[i + 1]! }
    const m = decodeMessage(e, namespace) as Message
    m.locations = locations
    messages[k] = m
  }
  const calls: CallSite[] = new Array(data.c.length)
  for (let k = 0; k < data.c.length; k++) calls[k] = decodeCall(data.c[k]!, messages)
  return { messages, calls, diagnostics: data.d }
}

function decodeCall(e: EncodedCall, messages: readonly Message[]): CallSite {
  const message = messages[e[7]]!
  const kind = e[0] & 3
  const r = e[9]
  const ranges: { start: number; end: number }[] = new Array(r.length >> 1)
  for (let i = 0; i < r.length; i += 2) ranges[i >> 1] = { start: r[i]!, end: r[i + 1]! }
  const site: CallSite = {
    messageKey: message.key,
    kind: kind === 1 ? 'tagged' : kind === 2 ? 'attribute' : kind === 3 ? 'jsx' : 'call',
    start: e[1],
    end: e[2],
    callee: { start: e[3], end: e[4] },
    args: kind === 0 || kind === 2 ? ranges : [],
    placeholders: e[11] === 0 ? message.placeholders.slice() : e[11],
    line: e[5],
    column: e[6],
  }
  if (e[0] & 4) site.descriptor = true
  if (e[0] & 8) site.moduleLevel = true
  if (kind === 1) {
    const names = e[10] === 0 ? [] : e[10]
    site.expressions = ranges.map((range, i) => ({ start: range.start, end: range.end, name: names[i]! }))
  }
  if (e[8] >= 0) site.pluralKey = messages[e[8]]!.key
  if (e[12] !== 0) site.pluralPlaceholders = e[12]
  if (e[13] !== undefined && e[13] !== 0) site.markup = e[13]
  if (e[14] !== undefined) site.jsx = e[14]
  return site
}

/** The stored results whose payload no one has decoded yet. */
const undecoded = new WeakMap<FileExtraction, { payload: string; namespace: string | null }>()

/**
 * A file's result for one use that keeps nothing of it: a stored result not decoded yet is decoded into
 * a new object, and the stored one stays undecoded. A build's transform reads each module's sites once;
 * kept, its thousands of small objects would outlive the young generation and make every scavenge
 * copy them.
 */
export function transientExtraction(result: FileExtraction): FileExtraction {
  const stored = undecoded.get(result)
  if (stored === undefined) return result
  const { file, hash } = result
  return { file, hash, ...decodeFile(file, stored.payload, stored.namespace) }
}

/**
 * A file's result read from disk: `messages`, `calls` and `diagnostics` are decoded together on first
 * access, then are plain data properties.
 */
export function storedExtraction(
  file: string,
  hash: string,
  payload: string,
  namespace: string | null,
): FileExtraction {
  // Accessors of an object literal (enumerable, configurable, as defineProperty made them before):
  // thousands of stored results are made at each build start, and a literal is made from a template.
  const result: FileExtraction = {
    file,
    hash,
    get messages() {
      decode()
      return result.messages
    },
    get calls() {
      decode()
      return result.calls
    },
    get diagnostics() {
      decode()
      return result.diagnostics
    },
  }
  undecoded.set(result, { payload, namespace })
  const decode = (): void => {
    undecoded.delete(result)
    const decoded = decodeFile(file, payload, namespace)
    for (const key of ['messages', 'calls', 'diagnostics'] as const) {
      Object.defineProperty(result, key, {
        value: decoded[key],
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return result
}

// ---------------------------------------------------------------------------------------------------
// Disk file

const CACHE_FILE = 'extract.v1.cache'
export const EXTRACT_CACHE_SCHEMA = 1

interface Header {
  schema: number
  revision: number
  tool: string
  digest: string
}

interface EncodedMerged {
  /** digest of the file list and hashes the merge came from */
  from: string
  files: string[]
  m: EncodedMessage[]
  d: Diagnostic[]
}

/** What the cache file holds for an options digest: each cached file and the last merged result. */
export interface CacheFileContents {
  files: Map<string, CachedFile>
  /** Each file's encoded payload as read, reused when the file is written back unchanged. */
  payloads: Map<string, { hash: string; payload: string }>
  merged: { from: string; messages: () => Message[]; diagnostics: Diagnostic[] } | null
}

function empty(): CacheFileContents {
  return { files: new Map(), payloads: new Map(), merged: null }
}

/** Reads the disk cache for this options digest; an empty cache on any failure or mismatch. */
export async function loadCacheFile(
  cacheDir: string,
  digest: string,
  namespace: string | null,
): Promise<CacheFileContents> {
  let text: string
  try {
    text = await readFile(join(cacheDir, CACHE_FILE), 'utf8')
  } catch {
    return empty()
  }
  try {
    const lines = text.split('\n')
    const header = JSON.parse(lines[0]!) as Header
    if (
      header.schema !== EXTRACT_CACHE_SCHEMA ||
      header.revision !== EXTRACTOR_REVISION ||
      header.tool !== VERSION ||
      header.digest !== digest
    ) {
      return empty()
    }
    const cachedFiles = new Map<string, CachedFile>()
    const payloads = new Map<string, { hash: string; payload: string }>()
    for (let i = 2; i < lines.length; i++) {
      const line = lines[i]!
      if (line === '') continue
      const t1 = line.indexOf('\t')
      const t2 = line.indexOf('\t', t1 + 1)
      const t3 = line.indexOf('\t', t2 + 1)
      const t4 = line.indexOf('\t', t3 + 1)
      if (t4 < 0) return empty()
      const file = JSON.parse(line.slice(0, t1)) as string
      const hash = line.slice(t1 + 1, t2)
      const size = Number(line.slice(t2 + 1, t3))
      const mtimeMs = Number(line.slice(t3 + 1, t4))
      if (!Number.isFinite(size) || !Number.isFinite(mtimeMs)) return empty()
      const payload = line.slice(t4 + 1)
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
    if (lines[1] !== undefined && lines[1] !== '') {
      const m = JSON.parse(lines[1]) as EncodedMerged
      merged = {
        from: m.from,
        diagnostics: m.d,
        messages: () => decodeMerged(m, namespace),
      }
    }
    return { files: cachedFiles, payloads, merged }
  } catch {
    return empty()
  }
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

function encodeMerged(
  from: string,
  messages: readonly Message[],
  diagnostics: readonly Diagnostic[],
): string {
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
  return JSON.stringify({ from, files, m, d: [...diagnostics] } satisfies EncodedMerged)
}

/**
 * Writes the cache atomically. Files decoded from the previous cache file keep their payload text, so a
 * warm run that changed one file re-encodes only that one. A failure to write is returned, not thrown.
 */
export async function saveCacheFile(
  cacheDir: string,
  digest: string,
  cachedFiles: readonly CachedFile[],
  merged: { messages: readonly Message[]; diagnostics: readonly Diagnostic[] },
  payloads: CacheFileContents['payloads'],
): Promise<Error | null> {
  const header: Header = { schema: EXTRACT_CACHE_SCHEMA, revision: EXTRACTOR_REVISION, tool: VERSION, digest }
  const parts: string[] = [
    JSON.stringify(header),
    encodeMerged(filesDigest(cachedFiles), merged.messages, merged.diagnostics),
  ]
  for (const e of cachedFiles) {
    const stored = payloads.get(e.result.file)
    const payload =
      e.payload ?? (stored !== undefined && stored.hash === e.hash ? stored.payload : encodeFile(e.result))
    parts.push(`${JSON.stringify(e.result.file)}\t${e.hash}\t${e.size}\t${e.mtimeMs}\t${payload}`)
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
