import { zipSync } from 'fflate'

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

export function buildZip(entries: ReadonlyMap<string, Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(entries), { level: 6 })
}
