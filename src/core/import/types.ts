/**
 * The neutral model every catalog reader of another library produces (Lingui, FormatJS, i18next),
 * and what the conversions into our message form return. Readers keep the other library's own
 * syntax in `translation`; only the conversions turn it into ICU with our tags and placeholders.
 */

/** One message of another library's catalog file, as that file holds it. */
export interface ImportedEntry {
  /** The message's id or key path, when the file names one apart from the source text. */
  key?: string
  /** The source-language text, when this file holds it (a Lingui msgid, a FormatJS defaultMessage). */
  source?: string
  /** The text of the file's locale, in the library's syntax; empty when not translated yet. */
  translation: string
  /** 1-based line of the entry in its file. */
  line: number
  /** Lingui's msgctxt or `context`: part of the message's identity. */
  context?: string
  /** The description or extracted comment for translators. */
  comment?: string
  /** A Lingui/gettext entry marked `#, fuzzy`: not a reviewed translation. */
  fuzzy?: boolean
}

/** One catalog file read: the locale it holds and its entries in file order. */
export interface ImportedCatalog {
  /** BCP 47 locale (`pl`, `pt-BR`), from the parameter, the file's header or its path. */
  locale: string
  file: string
  /** i18next's namespace (the file name under a locale folder: `locales/pl/common.json`). */
  namespace?: string
  entries: ImportedEntry[]
}

/** Something of a file that is not imported, with where and why; nothing refused is guessed. */
export interface ImportRefusal {
  file: string
  line: number
  /** The entry's key or source text, when it has one. */
  key?: string
  reason: string
}

/** A reader's answer: the catalog and the entries it could not read as messages. */
export interface ReadResult {
  catalog: ImportedCatalog
  refusals: ImportRefusal[]
}

/** One message converted into our form: ICU text, named tags, our `{name}` placeholders. */
export interface ConvertedMessage {
  key?: string
  /** The source text in our form, when known (the file held it, or the source catalog gave it). */
  source?: string
  /** The file locale's text in our form. */
  text: string
  line: number
  context?: string
  comment?: string
  fuzzy?: boolean
  /**
   * i18next: the context family (`friend` for `friend`, `friend_male` and their select) this message
   * is one reading of; the import reports a family unmatched only when none of its readings matched.
   */
  reading?: string
}

/** A catalog converted: messages in our form, what was refused, and entries with no translation. */
export interface ConvertedCatalog {
  locale: string
  file: string
  namespace?: string
  messages: ConvertedMessage[]
  refusals: ImportRefusal[]
  /** Entries whose translation is empty: not an error, nothing to import. */
  untranslated: { key?: string; source?: string; line: number }[]
}

/**
 * Which name of our message each numbered tag or positional placeholder of an imported message
 * becomes (`{ '0': 'link' }` turns `<0>` into `<link>`). The matching against our extraction
 * supplies it; without one every name is kept, which our form accepts (`<0>`, `{0}` are valid).
 */
export interface NameMapping {
  tags?: Readonly<Record<string, string>>
  arguments?: Readonly<Record<string, string>>
}

/** A file that cannot be read at all (not JSON, a broken PO string): names the file and line. */
export class ImportReadError extends Error {
  readonly file: string
  readonly line: number
  constructor(file: string, line: number, reason: string) {
    super(`${file}:${line}: ${reason}`)
    this.name = 'ImportReadError'
    this.file = file
    this.line = line
  }
}
