import { crc32, deflateRawSync } from 'node:zlib'

export const FILE_NAME_MODES = ['UNCHANGED', 'TRIM_LEADING', 'LOCALE_LAST'] as const
export const LOCALE_MODES = ['LOCALE_IN_PATH', 'LOCALE_IN_NAME', 'LOCALE_IN_NAME_AND_PATH'] as const
export type FileNameMode = (typeof FILE_NAME_MODES)[number]
export type LocaleMode = (typeof LOCALE_MODES)[number]

/** A download's file name: the fileUri, except that a `.pot` template comes back as `.po`. */
export function downloadName(fileUri: string): string {
  return fileUri.replace(/\.pot$/i, '.po')
}

/**
 * Where one translated file goes in the archive.
 * - fileNameMode UNCHANGED keeps the URI's folders, TRIM_LEADING keeps only the file name,
 *   LOCALE_LAST puts a locale folder directly before the file name.
 * - localeMode LOCALE_IN_PATH starts the path with a locale folder (unless LOCALE_LAST placed it),
 *   LOCALE_IN_NAME appends `_<locale>` to the name before its extension, LOCALE_IN_NAME_AND_PATH
 *   does both.
 * Empty, `.` and `..` segments are dropped, so no entry escapes the archive's root.
 */
export function zipEntryName(
  fileUri: string,
  localeId: string,
  fileNameMode: FileNameMode,
  localeMode: LocaleMode,
): string {
  const segments = downloadName(fileUri)
    .split(/[/\\]/)
    .filter((s) => s !== '' && s !== '.' && s !== '..')
  let name = segments.pop() ?? 'file'
  const folders = fileNameMode === 'TRIM_LEADING' ? [] : segments
  if (localeMode !== 'LOCALE_IN_PATH') {
    const dot = name.lastIndexOf('.')
    name = dot > 0 ? `${name.slice(0, dot)}_${localeId}${name.slice(dot)}` : `${name}_${localeId}`
  }
  if (fileNameMode === 'LOCALE_LAST') return [...folders, localeId, name].join('/')
  if (localeMode !== 'LOCALE_IN_NAME') return [localeId, ...folders, name].join('/')
  return [...folders, name].join('/')
}

/** MS-DOS date and time fields, as zip headers store modification times. */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  }
}

/**
 * A zip archive (deflate, UTF-8 names) written with node:zlib, so the emulator needs no archive
 * library. Each entry is stored uncompressed when deflate would not make it smaller.
 */
export function buildZip(entries: ReadonlyMap<string, Uint8Array>, now: Date = new Date()): Uint8Array {
  const { time, date } = dosDateTime(now)
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [entryName, content] of entries) {
    const name = Buffer.from(entryName, 'utf8')
    const deflated = deflateRawSync(content, { level: 6 })
    const stored = deflated.length >= content.length
    const data = stored ? Buffer.from(content) : deflated
    // Fields shared by the local and the central header, from "version needed" to the name length.
    const common = Buffer.alloc(26)
    common.writeUInt16LE(20, 0) // version needed: 2.0 (deflate)
    common.writeUInt16LE(0x0800, 2) // general purpose flag bit 11: the name is UTF-8
    common.writeUInt16LE(stored ? 0 : 8, 4)
    common.writeUInt16LE(time, 6)
    common.writeUInt16LE(date, 8)
    common.writeUInt32LE(crc32(content), 10)
    common.writeUInt32LE(data.length, 14)
    common.writeUInt32LE(content.length, 18)
    common.writeUInt16LE(name.length, 22)
    common.writeUInt16LE(0, 24) // extra field length
    const local = Buffer.concat([u32(0x04034b50), common, name, data])
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    common.copy(central, 6)
    // comment length, disk number, internal and external attributes stay 0
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    locals.push(local)
    offset += local.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.size, 8)
  end.writeUInt16LE(entries.size, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(value, 0)
  return b
}
