import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  type PlaceholderFormat,
  type PlaceholderSpec,
  PlaceholderSpecError,
} from '../../core/model/placeholders'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { charsetLabel, encodeDownload, type FileCharset } from '../files/charset'
import {
  type FileContext,
  type FileRetrievalType,
  RETRIEVAL_TYPES,
  readUnits,
  renderFile,
} from '../files/content'
import type { Form } from '../files/form'
import type { FileFormat, SourceUnit } from '../files/format'
import { FILE_FORMATS, formatOf } from '../files/formats'
import { requireProject } from '../http/auth'
import { notFoundError, validationError } from '../http/envelope'
import { type ProjectParams, type Query, queryString } from '../http/params'
import type { ProjectRecord } from '../store'
import type { FileRecord, FilesStore } from '../store/files'
import type { StringStore } from '../store/strings'
import { countWords } from './strings'

/**
 * What the routes of the files API share: their store part, the strings, the request readers and the
 * helpers over a file record. `src/emulator/routes/files.ts` makes one kit and hands it to each group
 * of routes (upload, downloads, management, translations).
 */

export const MAX_LISTED_FILES = 500
export const PARSER_VERSION = 4
export const MAX_FILE_BYTES: number = 32 * 1024 * 1024

export interface LocaleParams extends ProjectParams {
  localeId: string
}

export const UPLOAD_FIELDS = [
  'file',
  'fileUri',
  'fileType',
  'authorize',
  'localeIdsToAuthorize',
  'callbackUrl',
] as const

export function requireLocale(project: ProjectRecord, localeId: string, field = 'localeId'): string {
  if (!project.targetLocaleIds.includes(localeId)) {
    throw validationError(field, `${localeId} is not a target locale of project ${project.projectId}`)
  }
  return localeId
}

export function readFileType(value: string): FileFormat {
  const format = formatOf(value)
  if (!format) {
    throw validationError(
      'fileType',
      `${JSON.stringify(value)} is not a supported file type; supported: ${[...FILE_FORMATS.keys()].join(', ')}`,
    )
  }
  return format
}

export function readCallbackUrl(value: string | null): string | null {
  if (value === null || value === '') return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw validationError('callbackUrl', 'must be an absolute http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError('callbackUrl', 'must be an absolute http or https URL')
  }
  return url.href
}

/** A problem with a file's placeholder spec, named after the upload's directive. */
export function directiveError(error: unknown): unknown {
  if (!(error instanceof PlaceholderSpecError)) return error
  const field =
    error.field === 'placeholderFormat' ? 'svc.placeholder_format' : 'svc.placeholder_format_custom'
  return validationError(field, error.message.replace(/^placeholderFormat(Custom)?/, 'the value'))
}

/** `svc.placeholder_format` / `svc.placeholder_format_custom` over the file type's own placeholders. */
export function readPlaceholderSpec(
  ctx: EmulatorContext,
  format: FileFormat,
  directives: Record<string, string>,
): PlaceholderSpec {
  const named = directives.placeholder_format
  const custom = directives.placeholder_format_custom
  if (named === undefined && custom === undefined) return format.placeholders
  const spec: PlaceholderSpec = {
    format: (named ?? format.placeholders.format ?? 'none') as PlaceholderFormat,
    custom: custom ?? (named === undefined ? format.placeholders.custom : null) ?? null,
  }
  try {
    ctx.placeholders.check(spec)
  } catch (error) {
    throw directiveError(error)
  }
  return spec
}

export function readRetrievalType(value: string | null | undefined): FileRetrievalType {
  if (value === null || value === undefined || value === '') return 'published'
  if (!(RETRIEVAL_TYPES as readonly string[]).includes(value)) {
    throw validationError(
      'retrievalType',
      `must be one of ${RETRIEVAL_TYPES.join(', ')}; got ${JSON.stringify(value)}`,
    )
  }
  return value as FileRetrievalType
}

export function readEnum<T extends string>(query: Query, name: string, values: readonly T[], fallback: T): T {
  const value = queryString(query, name)
  if (value === undefined || value === '') return fallback
  if (!(values as readonly string[]).includes(value)) {
    throw validationError(name, `must be one of ${values.join(', ')}; got ${JSON.stringify(value)}`)
  }
  return value as T
}

export const DATE_FORM: RegExp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/

export function readDate(query: Query, name: string): number | null {
  const value = queryString(query, name)
  if (value === undefined || value === '') return null
  const ms = DATE_FORM.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms))
    throw validationError(name, `must be a date like 2026-01-31T12:00:00Z; got ${JSON.stringify(value)}`)
  return ms
}

/** The service shows whole seconds: a date a client read back must compare equal to the record's. */
export const seconds = (ms: number): number => Math.floor(ms / 1000) * 1000

/**
 * Only the last segment of a file URI names the download: a browser or a client that saves under
 * the given name must not be led into folders (`../../.bashrc` is saved as `.bashrc`, if at all).
 */
export function contentDisposition(fileUri: string): string {
  const name =
    fileUri
      .split(/[/\\]/)
      .filter((s) => s !== '' && s !== '.' && s !== '..')
      .pop() ?? 'file'
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

export function sendFile(
  reply: FastifyReply,
  name: string,
  mediaType: string,
  body: Uint8Array,
): FastifyReply {
  return reply
    .code(200)
    .header('content-type', mediaType)
    .header('content-disposition', contentDisposition(name))
    .send(Buffer.from(body.buffer, body.byteOffset, body.byteLength))
}

/** `files-api/v2`: upload, downloads (one file, zip, temporary file), list, status, rename, delete, import. */

export function requiredQuery(query: Query, name: string): string {
  const value = queryString(query, name)
  if (value === undefined || value === '') throw validationError(name, 'is required')
  return value
}

/** `svc.file_charset` of this upload, or the one a previous upload set (it cannot change). */
export function readCharset(form: Form, previous: FileRecord | undefined): string | null {
  const given = form.string('svc.file_charset')
  const before = previous?.charset.declared ?? null
  if (given === null || given === '') return before
  if (before !== null && normaliseLabel(before) !== normaliseLabel(given)) {
    throw validationError(
      'svc.file_charset',
      `was ${before} at the first upload of this file and cannot change to ${given}`,
    )
  }
  return given
}

export function normaliseLabel(label: string): string {
  try {
    return new TextDecoder(label.trim()).encoding
  } catch {
    return label.trim().toLowerCase()
  }
}

export const ORDER_FIELDS = ['fileUri', 'created', 'lastUploaded', 'fileType'] as const

/** `orderBy`: a field name, optionally followed by `_asc`/`_desc` (or a blank and asc/desc); ascending by default. */
export function readOrderBy(
  value: string | undefined,
): { field: (typeof ORDER_FIELDS)[number]; descending: boolean } | null {
  if (value === undefined || value === '') return null
  const m = /^([A-Za-z]+)(?:[_ ](asc|desc))?$/i.exec(value.trim())
  const field = ORDER_FIELDS.find((f) => f.toLowerCase() === m?.[1]?.toLowerCase())
  if (!m || !field) {
    throw validationError(
      'orderBy',
      `must be one of ${ORDER_FIELDS.join(', ')}, optionally with _asc or _desc; got ${JSON.stringify(value)}`,
    )
  }
  return { field, descending: m[2]?.toLowerCase() === 'desc' }
}

/** A file record's helpers, over the store part and the strings. */
export function filesKit(ctx: EmulatorContext, files: FilesStore): FilesKit {
  const strings: StringStore = ctx.store.strings

  /** The context for a file's units, placeholders found first (off the main thread for a caller's regex). */
  const contextFor = async (
    project: ProjectRecord,
    namespace: string | null,
    spec: PlaceholderSpec,
    units: readonly SourceUnit[],
  ): Promise<FileContext> => {
    try {
      const placeholders = await ctx.placeholders.parser(
        spec,
        units.map((u) => u.text),
      )
      return { sourceLocaleId: project.sourceLocaleId, namespace, placeholders }
    } catch (error) {
      throw directiveError(error)
    }
  }

  const requireFile = (projectId: string, fileUri: string): FileRecord => {
    const record = files.getFile(projectId, fileUri)
    if (!record) throw notFoundError(`File ${fileUri} not found in project ${projectId}`, 'file_not_found')
    return record
  }

  /** The project and the target locale of a `/locales/:localeId/` route, checked in that order. */
  const projectLocale = (
    request: FastifyRequest<{ Params: LocaleParams }>,
  ): { projectId: string; localeId: string; project: ProjectRecord } => {
    const { projectId, localeId } = request.params
    const { project } = requireProject(ctx, request, projectId)
    return { projectId, localeId: requireLocale(project, localeId), project }
  }

  const render = async (
    project: ProjectRecord,
    record: FileRecord,
    content: string,
    charset: FileCharset,
    options: { localeId: string | null; retrievalType: FileRetrievalType; includeOriginalStrings: boolean },
  ): Promise<{ body: Buffer; mediaType: string }> => {
    const format = formatOf(record.fileType)!
    const label = charsetLabel(charset)
    // The writer renders the units the parser lists (format.ts), so these are the texts it asks for.
    const units = readUnits(format, content, project.sourceLocaleId, record.fileUri)
    const text = renderFile(
      format,
      content,
      await contextFor(project, record.namespace, record.placeholderSpec, units),
      (h) => strings.get(project.projectId, h),
      {
        ...options,
        charset: label,
      },
    )
    return { body: encodeDownload(text, charset), mediaType: `${format.mediaType}; charset=${label}` }
  }

  const counts = (record: FileRecord, localeId: string): LocaleCounts => {
    let authorizedStringCount = 0
    let authorizedWordCount = 0
    let completedStringCount = 0
    let completedWordCount = 0
    for (const hashcode of record.hashcodes) {
      const s = strings.get(record.projectId, hashcode)
      if (!s) continue
      const words = countWords(s.parsedStringText)
      if (s.translations[localeId]?.published) {
        completedStringCount++
        completedWordCount += words
      } else if (s.authorizedLocaleIds.includes(localeId)) {
        authorizedStringCount++
        authorizedWordCount += words
      }
    }
    // The emulator has no per-locale exclusion of strings.
    return {
      authorizedStringCount,
      authorizedWordCount,
      completedStringCount,
      completedWordCount,
      excludedStringCount: 0,
      excludedWordCount: 0,
    }
  }

  const fileFields = (record: FileRecord): FileFields => ({
    fileUri: record.fileUri,
    lastUploaded: isoDate(record.lastUploaded),
    created: isoDate(record.created),
    fileType: record.fileType,
    parserVersion: PARSER_VERSION,
    hasInstructions: record.hasInstructions,
    directives: Object.keys(record.directives).length > 0 ? record.directives : null,
    namespace: record.namespace === null ? null : { name: record.namespace },
    totalStringCount: record.hashcodes.length,
    totalWordCount: record.hashcodes.reduce(
      (n, h) => n + countWords(strings.get(record.projectId, h)?.parsedStringText ?? ''),
      0,
    ),
  })

  /** The latest upload or translation change of the file in a locale. */
  const lastModified = (record: FileRecord, localeId: string): number => {
    let latest = record.lastUploaded
    for (const hashcode of record.hashcodes) {
      const state = strings.get(record.projectId, hashcode)?.translations[localeId]
      latest = Math.max(latest, state?.pending?.modifiedDate ?? 0, state?.published?.modifiedDate ?? 0)
    }
    return latest
  }

  return {
    ctx,
    files,
    strings,
    contextFor,
    requireFile,
    projectLocale,
    render,
    counts,
    fileFields,
    lastModified,
  }
}

/** A file's string and word counts in one locale (the spec's file status per locale). */
export interface LocaleCounts {
  authorizedStringCount: number
  authorizedWordCount: number
  completedStringCount: number
  completedWordCount: number
  excludedStringCount: number
  excludedWordCount: number
}

/** The fields of a file every files answer repeats. */
export interface FileFields {
  fileUri: string
  lastUploaded: string
  created: string
  fileType: FileRecord['fileType']
  parserVersion: number
  hasInstructions: boolean
  directives: FileRecord['directives'] | null
  namespace: { name: string } | null
  totalStringCount: number
  totalWordCount: number
}

/** What the groups of files routes share (see filesKit). */
export interface FilesKit {
  ctx: EmulatorContext
  files: FilesStore
  strings: StringStore
  contextFor: (
    project: ProjectRecord,
    namespace: string | null,
    spec: PlaceholderSpec,
    units: readonly SourceUnit[],
  ) => Promise<FileContext>
  requireFile: (projectId: string, fileUri: string) => FileRecord
  projectLocale: (request: FastifyRequest<{ Params: LocaleParams }>) => {
    projectId: string
    localeId: string
    project: ProjectRecord
  }
  render: (
    project: ProjectRecord,
    record: FileRecord,
    content: string,
    charset: FileCharset,
    options: { localeId: string | null; retrievalType: FileRetrievalType; includeOriginalStrings: boolean },
  ) => Promise<{ body: Buffer; mediaType: string }>
  counts: (record: FileRecord, localeId: string) => LocaleCounts
  fileFields: (record: FileRecord) => FileFields
  lastModified: (record: FileRecord, localeId: string) => number
}
