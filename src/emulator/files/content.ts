import { restorePlaceholders } from '../../core/model/placeholders'
import { pseudoLocalize } from '../../core/model/pseudo'
import { validationError } from '../http/envelope'
import type { PlaceholderParser } from '../placeholder-sandbox'
import { computeHashcode, type StoredString } from '../store/strings'
import { type FileFormat, FileParseError, type SourceUnit } from './format'
import { instrumentText } from './instrument'

export const RETRIEVAL_TYPES = ['pending', 'published', 'pseudo', 'contextMatchingInstrumented'] as const
export type FileRetrievalType = (typeof RETRIEVAL_TYPES)[number]

/**
 * What turns a file's texts into strings: the project's source locale, the namespace, the
 * placeholders (prepared for the file's texts, see PlaceholderSandbox).
 */
export interface FileContext {
  sourceLocaleId: string
  namespace: string | null
  placeholders: PlaceholderParser
}

/** A text of a file with the identity it has as a string. */
export interface ParsedUnit extends SourceUnit {
  parsed: string
  placeholders: string[]
  hashcode: string
}

function toParsedUnit(unit: SourceUnit, ctx: FileContext): ParsedUnit {
  const { parsed, placeholders } = ctx.placeholders.parse(unit.text)
  return { ...unit, parsed, placeholders, hashcode: computeHashcode(ctx.namespace, unit.variant, parsed) }
}

/**
 * The file's texts (`translations`: the texts of a translated file, keyed like the source's); a
 * file the parser cannot read is a VALIDATION_ERROR naming it and the line.
 */
export function readUnits(
  format: FileFormat,
  content: string,
  sourceLocaleId: string,
  fileUri: string,
  translations: boolean = false,
): SourceUnit[] {
  try {
    const parse = translations && format.parseTranslations ? format.parseTranslations : format.parse
    // An empty text is nothing to translate.
    return parse.call(format, content, { sourceLocaleId }).filter((u) => u.text.trim() !== '')
  } catch (error) {
    if (error instanceof FileParseError) {
      throw validationError(
        'file',
        `${fileUri} is not a valid ${format.fileType} file: ${error.message}`,
        'file_parse_error',
      )
    }
    throw error
  }
}

/** The texts of {@link readUnits} as strings, their placeholders found with the context's parser. */
export function parseUnits(units: readonly SourceUnit[], ctx: FileContext): ParsedUnit[] {
  return units.map((u) => toParsedUnit(u, ctx))
}

export interface RenderOptions {
  /** null: the original file. */
  localeId: string | null
  retrievalType: FileRetrievalType
  includeOriginalStrings: boolean
  /** The charset the download is encoded in, for formats that declare it (gettext headers). */
  charset: string
}

/**
 * The file with each text replaced per `retrievalType`: the translation (placeholders spelled as in
 * this file), a pseudo-translation, or the original wrapped in context markers. Without a
 * translation, the original text, or an empty one for `includeOriginalStrings=false` where the
 * file type honours it.
 */
export function renderFile(
  format: FileFormat,
  content: string,
  ctx: FileContext,
  lookup: (hashcode: string) => StoredString | undefined,
  options: RenderOptions,
): string {
  const { localeId } = options
  return format.write(
    content,
    (unit) => {
      if (localeId === null || unit.text.trim() === '') return unit.text
      const u = toParsedUnit(unit, ctx)
      if (options.retrievalType === 'pseudo') {
        return restorePlaceholders(pseudoLocalize(u.parsed, 'en-XA'), u.placeholders)
      }
      if (options.retrievalType === 'contextMatchingInstrumented')
        return instrumentText(u.hashcode, unit.text)
      const state = lookup(u.hashcode)?.translations[localeId]
      const version =
        options.retrievalType === 'published' ? state?.published : (state?.pending ?? state?.published)
      if (version) return restorePlaceholders(version.text, u.placeholders)
      return options.includeOriginalStrings || !format.honoursIncludeOriginalStrings ? unit.text : ''
    },
    { localeId, sourceLocaleId: ctx.sourceLocaleId, charset: options.charset },
  )
}
