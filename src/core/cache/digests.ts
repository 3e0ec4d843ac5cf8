import { createHash, randomBytes } from 'node:crypto'
import type * as nodeFs from 'node:fs/promises'
import { join, relative } from 'node:path'

/**
 * The SHA-256 of the cache files the catalog memos are keyed by (the manifest and each locale's
 * translations, megabytes each), known without reading them when their stat is the one recorded the
 * last time they were read: a warm build then reads and hashes none of them, and reads one only when
 * its memo does not answer or a catalog asks for its translations.
 *
 * A record (`<cacheDir>/catalogs/digests.json`, by path in the cache directory) holds the file's
 * device, inode, size and change time (ctime, in nanoseconds: any write or rename sets it, and no tool
 * sets it back, as `touch` or `tar` do the modification time), its digest, and when it was read. It
 * answers only when all four are the same, and only when the file had changed more than
 * {@link SETTLED_NS} before it was read: a file written again within the clock's granularity of that
 * read could have kept its change time, so a file read that soon after its change is read and hashed
 * again next time. Anything else (no record, another stat, a file that cannot be read) is a miss,
 * never an error.
 */
export class FileDigests {
  private readonly dir: string
  private readonly fs: DigestsFs
  /** The wall clock in nanoseconds, as the file system's times are. */
  private readonly now: () => bigint
  private records: Promise<Map<string, DigestRecord>> | undefined
  private changed = false
  /** See {@link readEvery}. */
  private reading = false

  constructor(dir: string, fs: DigestsFs, now: () => bigint = () => BigInt(Date.now()) * 1_000_000n) {
    this.dir = dir
    this.fs = fs
    this.now = now
  }

  private get file(): string {
    return join(this.dir, 'catalogs', 'digests.json')
  }

  /**
   * Has every file read and hashed, no record taken: a build that lasts (a dev server, a watch) compares
   * a catalog against the translations it was made of once a `tms pull` rewrote their file, so it
   * keeps the bytes it started from.
   */
  readEvery(): void {
    this.reading = true
  }

  /**
   * The digest of `file`, and its bytes when they were read to make it (no record answered); throws
   * what reading it throws.
   */
  async of(file: string): Promise<{ digest: string; bytes?: Buffer }> {
    const name = relative(this.dir, file)
    const [records, stat] = await Promise.all([this.load(), this.fs.stat(file, { bigint: true })])
    const seen: Omit<DigestRecord, 'digest' | 'readAt'> = {
      dev: String(stat.dev),
      ino: String(stat.ino),
      size: Number(stat.size),
      ctime: String(stat.ctimeNs),
    }
    const known = records.get(name)
    if (
      !this.reading &&
      known &&
      sameStat(known, seen) &&
      BigInt(known.ctime) + SETTLED_NS < BigInt(known.readAt)
    ) {
      return { digest: known.digest }
    }
    const readAt = this.now()
    const bytes = await this.fs.readFile(file)
    const digest = createHash('sha256').update(bytes).digest('hex')
    // Recorded with the stat taken before the read (a write during it changes the ctime, so the next
    // build reads again), and only when the record can answer.
    if (bytes.length === seen.size && BigInt(seen.ctime) + SETTLED_NS < readAt) {
      records.set(name, { ...seen, digest, readAt: String(readAt) })
      this.changed = true
    }
    return { digest, bytes }
  }

  /** Writes the records when a file was read since (atomically); a failed write costs the next build a read. */
  async save(): Promise<void> {
    if (!this.changed || !this.records) return
    this.changed = false
    const records = Object.fromEntries(await this.records)
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await this.fs.mkdir(join(this.dir, 'catalogs'), { recursive: true })
      await this.fs.writeFile(temp, JSON.stringify({ schema: DIGESTS_SCHEMA, records }))
      await this.fs.rename(temp, this.file)
    } catch {
      await this.fs.rm(temp, { force: true }).catch(() => {})
    }
  }

  private load(): Promise<Map<string, DigestRecord>> {
    this.records ??= this.read()
    return this.records
  }

  private async read(): Promise<Map<string, DigestRecord>> {
    const records = new Map<string, DigestRecord>()
    try {
      const read = JSON.parse(await this.fs.readFile(this.file, 'utf8')) as {
        schema?: unknown
        records?: unknown
      }
      if (read.schema !== DIGESTS_SCHEMA || typeof read.records !== 'object' || read.records === null)
        return records
      for (const [name, record] of Object.entries(read.records))
        if (isRecord(record)) records.set(name, record)
    } catch {
      // No records yet, or none that read: every file is read and hashed, as without them.
    }
    return records
  }
}

/** The file-system calls the digests make (the cache's, which tests may replace). */
export type DigestsFs = Pick<typeof nodeFs, 'readFile' | 'writeFile' | 'rename' | 'mkdir' | 'rm' | 'stat'>

const DIGESTS_SCHEMA = 1

/** How long before its read a file must have changed for its record to answer: far above any clock's granularity. */
const SETTLED_NS = 2_000_000_000n

interface DigestRecord {
  dev: string
  ino: string
  size: number
  /** nanoseconds, as a decimal string */
  ctime: string
  digest: string
  /** When the file was read, nanoseconds since the epoch, as a decimal string. */
  readAt: string
}

function sameStat(
  a: Omit<DigestRecord, 'digest' | 'readAt'>,
  b: Omit<DigestRecord, 'digest' | 'readAt'>,
): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.ctime === b.ctime
}

function isRecord(value: unknown): value is DigestRecord {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return (
    typeof r.dev === 'string' &&
    typeof r.ino === 'string' &&
    typeof r.size === 'number' &&
    typeof r.digest === 'string' &&
    /^\d+$/.test(String(r.ctime)) &&
    /^\d+$/.test(String(r.readAt))
  )
}
