/**
 * Joins ZIP archives into one by copying each entry's bytes as they are (no decompression): a zip
 * download split into several requests comes back to its caller as the one archive it asked for.
 * Only the classic format: the archives of translated files stay far below ZIP64's 4 GiB and 65,535
 * entries, and one that does not is refused rather than misread.
 */

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL = 0x06054b50
const CENTRAL_FIXED = 46
const END_FIXED = 22

interface CentralRecord {
  /** The central directory record, as it was. */
  record: Uint8Array
  name: string
  localOffset: number
}

interface ParsedArchive {
  bytes: Uint8Array
  records: CentralRecord[]
  centralOffset: number
}

/** A problem with an archive or with joining them; the caller words it for its request. */
export class ZipMergeError extends Error {
  override readonly name = 'ZipMergeError'
  /** Two archives hold an entry of the same name (the archives themselves are fine). */
  readonly duplicate: boolean
  constructor(message: string, duplicate = false) {
    super(message)
    this.duplicate = duplicate
  }
}

/** One archive holding every entry of `archives`, in order. A single archive is returned untouched. */
export function mergeZips(archives: readonly Uint8Array[]): Uint8Array {
  if (archives.length === 1) return archives[0]!
  const parsed = archives.map((bytes, i) => parseArchive(bytes, i))
  const seen = new Set<string>()
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const archive of parsed) {
    const starts = archive.records.map((r) => r.localOffset).sort((a, b) => a - b)
    for (const entry of archive.records) {
      if (seen.has(entry.name)) {
        throw new ZipMergeError(`two files would both be stored as ${entry.name} in the archive`, true)
      }
      seen.add(entry.name)
      // An entry's bytes run from its local header to the next one (or the central directory):
      // header, data and any data descriptor, whatever flags it uses.
      const end = starts.find((s) => s > entry.localOffset) ?? archive.centralOffset
      locals.push(archive.bytes.subarray(entry.localOffset, end))
      const record = entry.record.slice()
      new DataView(record.buffer).setUint32(42, offset, true)
      centrals.push(record)
      offset += end - entry.localOffset
    }
  }
  if (seen.size > 0xfffe) throw new ZipMergeError(`${seen.size} entries is more than one archive can list`)
  const centralSize = centrals.reduce((n, c) => n + c.length, 0)
  if (offset + centralSize > 0xfffffffe) throw new ZipMergeError('the joined archive would pass 4 GiB')
  const end = new Uint8Array(END_FIXED)
  const view = new DataView(end.buffer)
  view.setUint32(0, END_OF_CENTRAL, true)
  view.setUint16(8, seen.size, true)
  view.setUint16(10, seen.size, true)
  view.setUint32(12, centralSize, true)
  view.setUint32(16, offset, true)
  return concat([...locals, ...centrals, end])
}

function parseArchive(bytes: Uint8Array, index: number): ParsedArchive {
  const fail = (problem: string) => new ZipMergeError(`archive ${index + 1} ${problem}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let eocd = -1
  for (let at = bytes.length - END_FIXED; at >= Math.max(0, bytes.length - END_FIXED - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL) {
      eocd = at
      break
    }
  }
  if (eocd < 0) throw fail('is not a ZIP archive (no end of central directory)')
  const count = view.getUint16(eocd + 10, true)
  const centralSize = view.getUint32(eocd + 12, true)
  const centralOffset = view.getUint32(eocd + 16, true)
  if (count === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff) {
    throw fail('is a ZIP64 archive, which is not joined')
  }
  if (centralOffset + centralSize > eocd) throw fail('has a central directory past its end')
  const records: CentralRecord[] = []
  let at = centralOffset
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_FIXED > eocd || view.getUint32(at, true) !== CENTRAL_HEADER) {
      throw fail(`has a damaged central directory (entry ${i + 1})`)
    }
    const nameLength = view.getUint16(at + 28, true)
    const length = CENTRAL_FIXED + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
    const localOffset = view.getUint32(at + 42, true)
    if (localOffset + 4 > centralOffset || view.getUint32(localOffset, true) !== LOCAL_HEADER) {
      throw fail(`has entry ${i + 1} pointing outside its data`)
    }
    const name = new TextDecoder().decode(bytes.subarray(at + CENTRAL_FIXED, at + CENTRAL_FIXED + nameLength))
    records.push({ record: bytes.subarray(at, at + length), name, localOffset })
    at += length
  }
  return { bytes, records, centralOffset }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
