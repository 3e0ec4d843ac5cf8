import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import * as nodeFs from 'node:fs/promises'
import { basename, join } from 'node:path'
import { VERSION } from '../../version'
import { isLocaleId } from '../model/options'
import { FileDigests } from './digests'

/**
 * The cache folder: this file is the disk cache; `project.ts` tells which project a cache directory
 * belongs to (an offline build without a project id reads it). The extraction cache is extract's own.
 *
 * The disk cache (`.tms-cache/` by default): what the service told us, so that a build without the
 * network still has hashcodes and translations.
 *
 *   manifest.json                       message key -> hashcode, parsed text, metadata digest
 *   locales/<locale>.<retrieval>.json   hashcode -> translation (in `{0}` form) for one locale
 *
 * Every file records the schema version, the tool version and the project. A file that cannot be
 * read, does not parse, or has another schema or project is a miss, never an error: the worst a bad
 * cache can do is cost requests. Writes go to a temp file that is renamed over the target, so a reader
 * never sees half a file, and every update merges under a lock file with what is there, so two
 * builds at once, or apps sharing the directory (a monorepo), keep each other's records.
 */

export const CACHE_SCHEMA = 1

/** A manifest record: what the cache knows of one message's string. */
export interface ManifestRecord {
  hashcode: string
  parsed: string
  variant: string | null
  /** Digest of the metadata sent with the string (instruction, maxLength, placeholder format). */
  meta: string
}

export interface Manifest {
  schema: number
  tool: string
  projectId: string | null
  /** The file's field name (kept: renaming it would orphan every cache); holds manifest records. */
  entries: Record<string, ManifestRecord>
}

export interface LocaleCache {
  schema: number
  tool: string
  projectId: string | null
  locale: string
  retrievalType: 'published' | 'pending'
  /** ISO date of the pull that wrote the file. */
  fetchedAt: string
  /** hashcode -> translation with placeholders as `{0}`, `{1}`, ... */
  translations: Record<string, string>
}

/** The file-system calls the cache makes; tests inject a failing or slow one. */
export type CacheFs = Pick<
  typeof nodeFs,
  'readFile' | 'writeFile' | 'rename' | 'mkdir' | 'rm' | 'open' | 'stat'
>

/** Why a read missed: shown in warnings such as "cache miss for fr-FR: no file". */
export type MissReason =
  | 'no file'
  | 'unreadable'
  | 'invalid JSON'
  | 'other schema'
  | 'other project'
  | 'malformed'

export type CacheRead<T> = { hit: true; value: T } | { hit: false; reason: MissReason }

const LOCK_STALE_MS = 10_000
const LOCK_WAIT_MS = 10_000

export class DiskCache {
  readonly dir: string
  readonly projectId: string | null
  private readonly fs: CacheFs
  /** The digests of the files the catalog memos are keyed by (see `digests.ts`). */
  readonly digests: FileDigests
  /** Manifest records waiting for the write under way (see recordManifest). */
  private queued: Record<string, ManifestRecord> | null = null
  private recording: Promise<void> | null = null

  /** `now`: the wall clock in nanoseconds the digests' records are judged by (tests move it). */
  constructor(dir: string, projectId: string | null | undefined, fs: CacheFs = nodeFs, now?: () => bigint) {
    this.dir = dir
    this.projectId = projectId ?? null
    this.fs = fs
    this.digests = new FileDigests(dir, fs, now)
  }

  get manifestFile(): string {
    return join(this.dir, 'manifest.json')
  }

  /** The file of one locale's translations; the id is checked so it can never leave the directory. */
  localeFile(locale: string, retrievalType: 'published' | 'pending'): string {
    if (!isLocaleId(locale))
      throw new Error(`[unplugin-tms] refusing locale id ${JSON.stringify(locale)} as a cache file name`)
    return join(this.dir, 'locales', `${locale}.${retrievalType}.json`)
  }

  async readManifest(): Promise<CacheRead<Manifest>> {
    return this.checkManifest(await this.readJson(this.manifestFile))
  }

  /**
   * The manifest's digest, and its bytes when they were read to make it (see `FileDigests`): a build
   * whose catalog memos answer neither reads nor parses the manifest ({@link parseManifest}).
   */
  async manifestDigest(): Promise<CacheRead<{ digest: string; bytes?: Buffer }>> {
    try {
      return { hit: true, value: await this.digests.of(this.manifestFile) }
    } catch (error) {
      return { hit: false, reason: missReason(error) }
    }
  }

  /**
   * A cache file's bytes read now, when they are those of `digest` (what a memo was keyed by at the
   * build's start). A file changed since cannot be read as the memo's: the build stops and says so.
   */
  bytesOf(file: string, digest: string): Buffer {
    const bytes = readFileSync(file)
    if (createHash('sha256').update(bytes).digest('hex') !== digest) {
      throw new Error(
        `[unplugin-tms] ${file} changed during the build (a \`tms pull\` or another build wrote it): build again`,
      )
    }
    return bytes
  }

  /** What {@link readManifest} gives for the manifest's bytes. */
  parseManifest(bytes: Buffer): CacheRead<Manifest> {
    return this.checkManifest(parseJson(bytes.toString('utf8')))
  }

  private checkManifest(read: CacheRead<unknown>): CacheRead<Manifest> {
    if (!read.hit) return read
    const m = read.value as Partial<Manifest>
    const check = this.checkHeader(m)
    if (check) return { hit: false, reason: check }
    if (!isRecord(m.entries) || !Object.values(m.entries).every(isManifestRecord))
      return { hit: false, reason: 'malformed' }
    return { hit: true, value: m as Manifest }
  }

  /**
   * Adds records as soon as they are known (a push records each batch as it is created): records
   * given while a write is under way go out together in the next one, so a push of 50 batches does
   * not rewrite the manifest 50 times in a row. Settles once these records are on disk.
   */
  recordManifest(records: Record<string, ManifestRecord>): Promise<void> {
    this.queued = Object.assign(this.queued ?? {}, records)
    this.recording ??= (async () => {
      try {
        while (this.queued) {
          const next = this.queued
          this.queued = null
          await this.updateManifest(next)
        }
      } finally {
        this.recording = null
      }
    })()
    return this.recording
  }

  /** Adds or replaces records, keeping what another process wrote meanwhile. */
  async updateManifest(records: Record<string, ManifestRecord>): Promise<void> {
    await this.withLock(async () => {
      const current = await this.readManifest()
      const merged: Manifest = {
        schema: CACHE_SCHEMA,
        tool: VERSION,
        projectId: this.projectId,
        entries: { ...(current.hit ? current.value.entries : {}), ...records },
      }
      await this.writeAtomic(this.manifestFile, `${JSON.stringify(merged)}\n`)
    })
  }

  async readLocale(locale: string, retrievalType: 'published' | 'pending'): Promise<CacheRead<LocaleCache>> {
    return this.checkLocale(
      await this.readJson(this.localeFile(locale, retrievalType)),
      locale,
      retrievalType,
    )
  }

  /**
   * One locale's file's digest, and its bytes when they were read to make it (see `FileDigests`);
   * undefined when it cannot be read: a build with a catalog memo decodes them only when the memo
   * does not answer (see {@link parseLocale}).
   */
  async localeDigest(
    locale: string,
    retrievalType: 'published' | 'pending',
  ): Promise<{ digest: string; bytes?: Buffer } | undefined> {
    try {
      return await this.digests.of(this.localeFile(locale, retrievalType))
    } catch {
      return undefined
    }
  }

  /** What {@link readLocale} gives for the file's bytes. */
  parseLocale(bytes: Buffer, locale: string, retrievalType: 'published' | 'pending'): CacheRead<LocaleCache> {
    return this.checkLocale(parseJson(bytes.toString('utf8')), locale, retrievalType)
  }

  /**
   * The catalog memo of one locale (`catalogs/<locale>.<retrieval>.<app>.memo`, see
   * `src/core/sync/catalog-memo.ts`): `app` tells apart the apps sharing the directory.
   */
  memoFile(locale: string, retrievalType: 'published' | 'pending', app: string): string {
    const name = basename(this.localeFile(locale, retrievalType), '.json')
    return join(this.dir, 'catalogs', `${name}.${app}.memo`)
  }

  /** {@link readMemoBytes} decoded. */
  async readMemo(file: string): Promise<string | undefined> {
    return (await this.readMemoBytes(file))?.toString('utf8')
  }

  /**
   * A sealed memo's body as bytes (see `unsealedBytes`), for a reader that decodes only the parts it
   * asks for: undefined when it cannot be read or a byte of it changed on the disk (a memo that does
   * not answer is only a miss).
   */
  async readMemoBytes(file: string): Promise<Buffer | undefined> {
    try {
      return unsealedBytes(await this.fs.readFile(file))
    } catch {
      return undefined
    }
  }

  /**
   * Writes a memo's body sealed (see `unsealedBytes`), atomically; no lock: two builds writing it at once
   * each write a whole, true memo.
   */
  writeMemo(file: string, body: string): Promise<void> {
    return this.writeAtomic(file, sealed(body))
  }

  private checkLocale(
    read: CacheRead<unknown>,
    locale: string,
    retrievalType: 'published' | 'pending',
  ): CacheRead<LocaleCache> {
    if (!read.hit) return read
    const l = read.value as Partial<LocaleCache>
    const check = this.checkHeader(l)
    if (check) return { hit: false, reason: check }
    if (l.locale !== locale || l.retrievalType !== retrievalType || !isRecord(l.translations)) {
      return { hit: false, reason: 'malformed' }
    }
    // A loop rather than Object.values().every(): no array of thousands of values per locale.
    const translations = l.translations
    for (const hashcode in translations) {
      if (typeof translations[hashcode] !== 'string') return { hit: false, reason: 'malformed' }
    }
    return { hit: true, value: l as LocaleCache }
  }

  /**
   * Brings one locale's file up to date with a pull, under the lock and keeping what other apps
   * sharing the directory pulled: each hashcode in `asked` is dropped (the service no longer has a
   * translation for it: not returned for this project, or returned without one), then `fetched` is
   * written over the rest. A pull that failed part-way asks nothing to be dropped. Returns the
   * locale's translations as written (every app's).
   */
  async mergeLocale(
    locale: string,
    retrievalType: 'published' | 'pending',
    fetched: Record<string, string>,
    asked: Iterable<string>,
  ): Promise<Record<string, string>> {
    return this.withLock(async () => {
      const current = await this.readLocale(locale, retrievalType)
      const translations: Record<string, string> = current.hit ? { ...current.value.translations } : {}
      for (const hashcode of asked) delete translations[hashcode]
      Object.assign(translations, fetched)
      await this.replaceLocale(locale, retrievalType, translations)
      return translations
    })
  }

  /** Replaces one locale's file, whatever it held (tests, tools); a pull merges with mergeLocale. */
  async writeLocale(
    locale: string,
    retrievalType: 'published' | 'pending',
    translations: Record<string, string>,
  ): Promise<void> {
    const file = this.localeFile(locale, retrievalType)
    await this.withLock(() => this.replaceLocale(locale, retrievalType, translations, file))
  }

  private async replaceLocale(
    locale: string,
    retrievalType: 'published' | 'pending',
    translations: Record<string, string>,
    file: string = this.localeFile(locale, retrievalType),
  ): Promise<void> {
    const value: LocaleCache = {
      schema: CACHE_SCHEMA,
      tool: VERSION,
      projectId: this.projectId,
      locale,
      retrievalType,
      fetchedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      translations,
    }
    await this.writeAtomic(file, `${JSON.stringify(value)}\n`)
  }

  private checkHeader(value: Partial<Manifest | LocaleCache>): MissReason | undefined {
    if (!isRecord(value)) return 'malformed'
    if (value.schema !== CACHE_SCHEMA) return 'other schema'
    // The tool version is recorded for diagnosis only: a patch release must not throw away the cache
    // that an offline build depends on; the schema number changes when the format does.
    if ((value.projectId ?? null) !== this.projectId) return 'other project'
    return undefined
  }

  private async readJson(file: string): Promise<CacheRead<unknown>> {
    let text: string
    try {
      text = await this.fs.readFile(file, 'utf8')
    } catch (error) {
      return { hit: false, reason: missReason(error) }
    }
    return parseJson(text)
  }

  private async writeAtomic(file: string, text: string): Promise<void> {
    const dir = file.slice(0, file.lastIndexOf('/'))
    await this.fs.mkdir(dir, { recursive: true })
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await this.fs.writeFile(temp, text, 'utf8')
      await this.fs.rename(temp, file)
    } catch (error) {
      await this.fs.rm(temp, { force: true }).catch(() => {})
      throw error
    }
  }

  /**
   * Runs `work` holding `<dir>/.lock` (created exclusively). A lock older than LOCK_STALE_MS belongs
   * to a process that died and is taken over; after LOCK_WAIT_MS the work runs anyway, since the
   * atomic rename alone already keeps the file whole.
   */
  private async withLock<T>(work: () => Promise<T>): Promise<T> {
    await this.fs.mkdir(this.dir, { recursive: true })
    const lock = join(this.dir, '.lock')
    const deadline = Date.now() + LOCK_WAIT_MS
    let held = false
    while (!held) {
      try {
        const handle = await this.fs.open(lock, 'wx')
        await handle.writeFile(`${process.pid}\n`)
        await handle.close()
        held = true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') break
        const age = await this.fs.stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        )
        if (age > LOCK_STALE_MS) await this.fs.rm(lock, { force: true }).catch(() => {})
        else if (Date.now() > deadline) break
        else await new Promise((r) => setTimeout(r, 10 + Math.random() * 30))
      }
    }
    try {
      return await work()
    } finally {
      if (held) await this.fs.rm(lock, { force: true }).catch(() => {})
    }
  }
}

function missReason(error: unknown): MissReason {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no file' : 'unreadable'
}

function parseJson(text: string): CacheRead<unknown> {
  try {
    return { hit: true, value: JSON.parse(text) as unknown }
  } catch {
    return { hit: false, reason: 'invalid JSON' }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isManifestRecord(value: unknown): value is ManifestRecord {
  return (
    isRecord(value) &&
    typeof value.hashcode === 'string' &&
    typeof value.parsed === 'string' &&
    (value.variant === null || typeof value.variant === 'string') &&
    typeof value.meta === 'string'
  )
}

/** The length of a sealed file's digest in hex: its first line. */
const SEAL_LENGTH = 40

/**
 * A sealed file's text: the SHA-1 of `body` in hex, a line break, `body`. The digest tells a changed
 * or missing byte of a file the cache itself wrote (no one forges it: the cache directory is trusted
 * input), and SHA-1 reads about four times as fast as SHA-256 here (26 MB of memos, 15 against 65 ms).
 */
export function sealed(body: string): string {
  return `${createHash('sha1').update(body).digest('hex')}\n${body}`
}

/**
 * The body of a sealed file (see {@link sealed}) as bytes, or undefined when the digest does not
 * match: checked on the bytes, so only a file that answers is decoded, and only the parts its reader needs.
 */
export function unsealedBytes(bytes: Buffer): Buffer | undefined {
  if (bytes.length <= SEAL_LENGTH || bytes[SEAL_LENGTH] !== 0x0a) return undefined
  const body = bytes.subarray(SEAL_LENGTH + 1)
  const digest = createHash('sha1').update(body).digest('hex')
  return bytes.toString('latin1', 0, SEAL_LENGTH) === digest ? body : undefined
}
