import type { PlaceholderSpec } from '../../core/model/placeholders'

/** One translatable text of a resource file, as its parser found it. */
export interface SourceUnit {
  /** Where the text lives in the file: a key path, a property name, a msgid, a line number. */
  key: string
  /** The text as the file spells it (escapes decoded, placeholders as written). */
  text: string
  /** Part of the string's identity (gettext `msgctxt`, a csv `variant` column). */
  variant: string | null
  /** A note for translators (gettext `#.`, a csv `instruction` column). */
  instruction: string | null
}

/** What a parser knows about the project the file belongs to. */
export interface ParseContext {
  sourceLocaleId: string
}

/** What a writer knows about the download it is producing. */
export interface WriteTarget {
  /** The locale of the download; null for the source file itself. */
  localeId: string | null
  sourceLocaleId: string
  /** The charset the bytes will be encoded in (`UTF-8`, `UTF-16LE`...), for formats that declare it. */
  charset: string
}

/** The text to put in place of a unit, in the file's own placeholder spelling. */
export type RenderUnit = (unit: SourceUnit, index: number) => string

/**
 * One file type: a parser that lists the file's texts in order, and a writer that produces the same
 * file with each text replaced. `write` calls `render` for the units `parse` returns, in the same
 * order, and leaves everything else of the file as it was written.
 */
export interface FileFormat {
  readonly fileType: string
  /** Media type of downloads, before `; charset=`. */
  readonly mediaType: string
  /** Placeholders recognised unless the upload names others (`svc.placeholder_format[_custom]`). */
  readonly placeholders: PlaceholderSpec
  /** Whether `includeOriginalStrings=false` empties untranslated texts (the spec's list of types). */
  readonly honoursIncludeOriginalStrings: boolean
  parse(content: string, context: ParseContext): SourceUnit[]
  /**
   * A translated file's units keyed like the source's, each with its translation as `text`. Absent:
   * `parse` (the file holds translations where the source held texts). gettext reads msgstr.
   */
  parseTranslations?(content: string, context: ParseContext): SourceUnit[]
  write(content: string, render: RenderUnit, target: WriteTarget): string
}

/** A file the parser cannot read; `line` is 1-based. */
export class FileParseError extends Error {
  readonly line: number
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`)
    this.name = 'FileParseError'
    this.line = line
  }
}

/** The 1-based line of an offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/** The line break a file uses, so a writer adds lines in the same style. */
export function lineBreakOf(content: string): string {
  return /\r\n/.test(content) ? '\r\n' : '\n'
}
