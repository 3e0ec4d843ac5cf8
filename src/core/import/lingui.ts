import { readJson } from './json-lines'
import { resolveLocale } from './locale'
import { parsePo } from './po'
import type { ImportedEntry, ImportRefusal, ReadResult } from './types'

/**
 * Lingui's catalogs: the gettext .po format (msgid is the source text, or an explicit id marked
 * `#. js-lingui-explicit-id` whose source text is in the source locale's catalog; msgctxt is the
 * context), the `lingui` JSON format (id -> { message, translation, context, comments }) and the
 * minimal JSON format (id -> translation). Texts stay in Lingui's syntax; see convert-lingui.ts.
 */

const EXPLICIT_ID = 'js-lingui-explicit-id'

/** Reads a Lingui .po catalog. `locale` overrides the `Language:` header and the path. */
export function readLinguiPo(text: string, file: string, locale?: string): ReadResult {
  const po = parsePo(text, file)
  const refusals: ImportRefusal[] = []
  const entries: ImportedEntry[] = []
  for (const e of po.entries) {
    if (e.msgidPlural !== undefined) {
      refusals.push({
        file,
        line: e.line,
        key: e.msgid,
        reason:
          "it is a gettext plural (msgid_plural, Lingui's po-gettext format); only ICU plurals inside msgstr are read",
      })
      continue
    }
    const explicit = e.extracted.includes(EXPLICIT_ID)
    const comments = e.extracted.filter((c) => c !== EXPLICIT_ID && !c.startsWith('js-lingui-id:'))
    const entry: ImportedEntry = { translation: e.msgstr[0] ?? '', line: e.line }
    if (explicit) entry.key = e.msgid
    else entry.source = e.msgid
    if (e.msgctxt !== undefined) entry.context = e.msgctxt
    if (comments.length > 0) entry.comment = comments.join('\n')
    if (e.flags.includes('fuzzy')) entry.fuzzy = true
    entries.push(entry)
  }
  return { catalog: { locale: resolveLocale(file, locale, po.headers.Language), file, entries }, refusals }
}

/** Reads Lingui's `lingui` JSON format or its minimal format (id -> translation string). */
export function readLinguiJson(text: string, file: string, locale?: string): ReadResult {
  const json = readJson(text, file)
  const refusals: ImportRefusal[] = []
  const entries: ImportedEntry[] = []
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    return {
      catalog: { locale: resolveLocale(file, locale, undefined), file, entries },
      refusals: [{ file, line: 1, reason: 'a Lingui JSON catalog is an object of message ids' }],
    }
  for (const [id, value] of Object.entries(json.value)) {
    const line = json.lineOf([id])
    if (typeof value === 'string') {
      entries.push({ key: id, translation: value, line })
      continue
    }
    const v = value as Record<string, unknown> | null
    if (
      typeof v !== 'object' ||
      v === null ||
      Array.isArray(v) ||
      (v.translation !== undefined && typeof v.translation !== 'string')
    ) {
      refusals.push({
        file,
        line,
        key: id,
        reason: 'a Lingui JSON message is a string or an object with a string translation',
      })
      continue
    }
    if (v.obsolete === true) continue
    const entry: ImportedEntry = {
      key: id,
      translation: typeof v.translation === 'string' ? v.translation : '',
      line,
    }
    if (typeof v.message === 'string') entry.source = v.message
    if (typeof v.context === 'string') entry.context = v.context
    const comments = Array.isArray(v.comments)
      ? v.comments.filter((c): c is string => typeof c === 'string' && c !== EXPLICIT_ID)
      : []
    if (comments.length > 0) entry.comment = comments.join('\n')
    entries.push(entry)
  }
  return { catalog: { locale: resolveLocale(file, locale, undefined), file, entries }, refusals }
}
