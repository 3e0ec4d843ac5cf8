import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { sealed, unsealedBytes } from '../core/cache/index'
import { readWhole } from '../core/read-whole'
import { VERSION } from '../version'
import { LONG_ID_LENGTH, longId, longsDigest } from './ids'
import { writeMemoFile } from './memo-file'

/**
 * The ids memo: the long id (`longId`, see `ids.ts`) of every message key of the last build start,
 * kept in `<cacheDir>/ids/<app>.v2.cache`, so that a build start whose messages did not change reads
 * its ids instead of hashing each key, and one that added or changed messages hashes only those.
 * A long id is a function of its key alone, and `assignIds` works out from the long ids which keys
 * share their first 6 characters, so a remembered long id is the one hashing makes: the memo can make
 * a build start faster, never different, and an added message still changes no other id.
 *
 * The file, sealed (`sealed` in src/core/cache): a header line (schema, tool version, the digest of
 * the messages in order, `messagesDigest`, which the extraction keeps, and their count), the long ids
 * one after the other (8 characters each, in key order), then the keys as a JSON array, decoded and
 * parsed only when this build's messages are not the memo's. A file that cannot be read, whose bytes do not match
 * its digest, or of another schema or version is a miss: the build hashes every key and writes the
 * memo again (atomically, `memo-file.ts`). It is parsed when the build first asks for the ids.
 */

/** Changes whenever the file's layout or the ids' making (`longId`) changes. */
const IDS_SCHEMA = 2

interface Header {
  schema: number
  tool: string
  /** The `messagesDigest` of the messages whose keys these are. */
  messages: string
  count: number
}

/** What a memo file holds, its keys decoded only when asked. */
interface Stored {
  header: Header
  /** The long ids, `LONG_ID_LENGTH` characters each, in key order. */
  longs: string
  /** The keys' JSON array, as bytes: decoded only when this build's messages are not the memo's. */
  keys: Buffer
}

export class IdsMemo {
  /** How many keys this build start hashed: the memo gave the others' long ids (the tests read it). */
  hashed = 0
  private readonly file: string
  /** The file's bytes, parsed when first asked. */
  private readonly bytes: Buffer | undefined
  private parsed: { stored: Stored | undefined } | undefined
  private written: Promise<void> | undefined

  private constructor(file: string, bytes: Buffer | undefined) {
    this.file = file
    this.bytes = bytes
  }

  private get stored(): Stored | undefined {
    this.parsed ??= { stored: this.bytes === undefined ? undefined : parseMemo(this.bytes) }
    return this.parsed.stored
  }

  /** The memo of the app at `root` in `cacheDir`; empty when its file is missing, unreadable or changed. */
  static async load(cacheDir: string, root: string): Promise<IdsMemo> {
    const app = createHash('sha256').update(root).digest('hex').slice(0, 12)
    const file = join(cacheDir, 'ids', `${app}.v${IDS_SCHEMA}.cache`)
    let bytes: Buffer
    try {
      bytes = await readWhole(file)
    } catch {
      return new IdsMemo(file, undefined)
    }
    return new IdsMemo(file, bytes)
  }

  /**
   * The digest of the long ids it holds (see `longsDigest`) when it holds those of these messages
   * (`digest`: their `messagesDigest`, `count` how many keys), read without hashing a key.
   */
  remembered(digest: string, count: number): string | undefined {
    const stored = this.stored
    if (stored?.header.messages !== digest || stored.header.count !== count) return undefined
    return longsDigest(stored.longs)
  }

  /**
   * Each key's long id, in the order of `keys`: the memo's when it holds these messages (`digest`:
   * their `messagesDigest`), else the memo's for the keys it has and a hash for the others. Writes the
   * memo again when it did not hold these messages (see {@link saved}).
   */
  longIds(keys: readonly string[], digest: string): string[] {
    const stored = this.stored
    if (stored?.header.messages === digest && stored.header.count === keys.length) {
      const longs = new Array<string>(keys.length)
      for (let i = 0; i < keys.length; i++)
        longs[i] = stored.longs.slice(i * LONG_ID_LENGTH, (i + 1) * LONG_ID_LENGTH)
      return longs
    }
    const known = stored ? knownLongIds(stored) : new Map<string, string>()
    const longs = keys.map((key) => {
      const long = known.get(key)
      if (long !== undefined) return long
      this.hashed++
      return longId(key)
    })
    this.written = this.write(
      { schema: IDS_SCHEMA, tool: VERSION, messages: digest, count: keys.length },
      keys,
      longs,
    )
    return longs
  }

  /** Resolves when the memo this build start wrote is on disk (a failed write is only a miss later). */
  saved(): Promise<void> {
    return this.written ?? Promise.resolve()
  }

  private async write(header: Header, keys: readonly string[], longs: readonly string[]): Promise<void> {
    const body = `${JSON.stringify(header)}\n${longs.join('')}\n${JSON.stringify(keys)}`
    await writeMemoFile(this.file, sealed(body))
  }
}

/** Key -> long id of a memo whose keys are not this build's. */
function knownLongIds(stored: Stored): Map<string, string> {
  const known = new Map<string, string>()
  let keys: unknown
  try {
    keys = JSON.parse(stored.keys.toString('utf8'))
  } catch {
    return known
  }
  if (!Array.isArray(keys) || keys.length !== stored.header.count) return known
  keys.forEach((key, i) => {
    if (typeof key === 'string')
      known.set(key, stored.longs.slice(i * LONG_ID_LENGTH, (i + 1) * LONG_ID_LENGTH))
  })
  return known
}

/** A memo file's parts, or undefined when its digest, header or lengths do not hold. */
function parseMemo(bytes: Buffer): Stored | undefined {
  const body = unsealedBytes(bytes)
  if (body === undefined) return undefined
  const first = body.indexOf(0x0a)
  const second = body.indexOf(0x0a, first + 1)
  if (first < 0 || second < 0) return undefined
  let header: Partial<Header>
  try {
    header = JSON.parse(body.toString('utf8', 0, first)) as Partial<Header>
  } catch {
    return undefined
  }
  const longs = body.toString('latin1', first + 1, second)
  if (
    header?.schema !== IDS_SCHEMA ||
    header.tool !== VERSION ||
    typeof header.messages !== 'string' ||
    !Number.isInteger(header.count) ||
    longs.length !== header.count! * LONG_ID_LENGTH ||
    !/^[\w-]*$/.test(longs)
  ) {
    return undefined
  }
  return { header: header as Header, longs, keys: body.subarray(second + 1) }
}
