import { ImportReadError } from './types'

/**
 * The locale of an imported catalog file: the caller's parameter first, else the file's header
 * (PO `Language:`), else its path (`lang/pl.json`, `locales/pl/messages.po`). A path segment counts
 * only when it is a language Intl can name (`app` or `dev` folders are not locales), and a header
 * that disagrees with the path is an error rather than a guess.
 */

const LOCALE_SHAPE = /^[a-z]{2,3}(?:[-_][A-Za-z]{4})?(?:[-_](?:[A-Za-z]{2}|\d{3}))?$/

let names: Intl.DisplayNames | undefined

/** The canonical locale (`pt_BR` -> `pt-BR`) when `word` is a language Intl knows, else undefined. */
export function localeFromWord(word: string): string | undefined {
  if (!LOCALE_SHAPE.test(word)) return undefined
  let canonical: string
  try {
    canonical = Intl.getCanonicalLocales(word.replace(/_/g, '-'))[0]!
  } catch {
    return undefined
  }
  names ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
  const language = canonical.split('-')[0]!
  return names.of(language) === undefined ? undefined : canonical
}

/** The locale a path names: the file's base name (`pl.json`), else its folder (`pl/common.json`). */
export function localeFromPath(file: string): { locale: string; inFolder: boolean } | undefined {
  const parts = file.split(/[\\/]/)
  const base = parts[parts.length - 1]!.replace(/\.[^.]*$/, '')
  const fromBase = localeFromWord(base)
  if (fromBase) return { locale: fromBase, inFolder: false }
  const folder = parts.length > 1 ? localeFromWord(parts[parts.length - 2]!) : undefined
  return folder ? { locale: folder, inFolder: true } : undefined
}

/** Decides a file's locale; an error names the file and how to name the locale. */
export function resolveLocale(file: string, given: string | undefined, header: string | undefined): string {
  if (given) return given
  const fromPath = localeFromPath(file)?.locale
  const fromHeader = header?.trim() ? localeFromWord(header.trim()) : undefined
  if (header?.trim() && !fromHeader)
    throw new ImportReadError(
      file,
      1,
      `its header names the language "${header.trim()}", which is not a locale; name the locale with the locale parameter`,
    )
  if (fromHeader && fromPath && fromHeader !== fromPath)
    throw new ImportReadError(
      file,
      1,
      `its header says ${fromHeader} but its path says ${fromPath}; name the locale with the locale parameter`,
    )
  const found = fromHeader ?? fromPath
  if (!found)
    throw new ImportReadError(
      file,
      1,
      'neither its header nor its path names a locale (lang/pl.json, locales/pl/messages.po); name the locale with the locale parameter',
    )
  return found
}
