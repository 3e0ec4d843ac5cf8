import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type PlaceholderFormat, type PlaceholderSpec, PlaceholderSpecError } from '../../core/placeholders'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { charsetLabel, decodeUpload, encodeDownload, type FileCharset } from '../files/charset'
import {
  type FileContext,
  type FileRetrievalType,
  parseUnits,
  RETRIEVAL_TYPES,
  readUnits,
  renderFile,
} from '../files/content'
import { type Form, readForm } from '../files/form'
import type { FileFormat, SourceUnit } from '../files/format'
import { FILE_FORMATS, formatOf } from '../files/formats'
import {
  buildZip,
  downloadName,
  FILE_NAME_MODES,
  type FileNameMode,
  LOCALE_MODES,
  type LocaleMode,
  zipEntryName,
} from '../files/zip'
import { requireProject } from '../http/auth'
import { ApiError, notFoundError, sendData, validationError } from '../http/envelope'
import {
  type ProjectParams,
  type Query,
  queryArray,
  queryBoolean,
  queryInt,
  queryString,
} from '../http/params'
import type { ProjectRecord } from '../store'
import { type FileRecord, FilesStore } from '../store/files'
import { parseTranslation } from '../store/strings'
import { countWords } from './strings'

export const MAX_LISTED_FILES = 500
const PARSER_VERSION = 4
const MAX_FILE_BYTES = 32 * 1024 * 1024

interface LocaleParams extends ProjectParams {
  localeId: string
}

const UPLOAD_FIELDS = [
  'file',
  'fileUri',
  'fileType',
  'authorize',
  'localeIdsToAuthorize',
  'callbackUrl',
] as const

function requireLocale(project: ProjectRecord, localeId: string, field = 'localeId'): string {
  if (!project.targetLocaleIds.includes(localeId)) {
    throw validationError(field, `${localeId} is not a target locale of project ${project.projectId}`)
  }
  return localeId
}

function readFileType(value: string): FileFormat {
  const format = formatOf(value)
  if (!format) {
    throw validationError(
      'fileType',
      `${JSON.stringify(value)} is not a supported file type; supported: ${[...FILE_FORMATS.keys()].join(', ')}`,
    )
  }
  return format
}

function readCallbackUrl(value: string | null): string | null {
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
function directiveError(error: unknown): unknown {
  if (!(error instanceof PlaceholderSpecError)) return error
  const field =
    error.field === 'placeholderFormat' ? 'svc.placeholder_format' : 'svc.placeholder_format_custom'
  return validationError(field, error.message.replace(/^placeholderFormat(Custom)?/, 'the value'))
}

/** `svc.placeholder_format` / `svc.placeholder_format_custom` over the file type's own placeholders. */
function readPlaceholderSpec(
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

function readRetrievalType(value: string | null | undefined): FileRetrievalType {
  if (value === null || value === undefined || value === '') return 'published'
  if (!(RETRIEVAL_TYPES as readonly string[]).includes(value)) {
    throw validationError(
      'retrievalType',
      `must be one of ${RETRIEVAL_TYPES.join(', ')}; got ${JSON.stringify(value)}`,
    )
  }
  return value as FileRetrievalType
}

function readEnum<T extends string>(query: Query, name: string, values: readonly T[], fallback: T): T {
  const value = queryString(query, name)
  if (value === undefined || value === '') return fallback
  if (!(values as readonly string[]).includes(value)) {
    throw validationError(name, `must be one of ${values.join(', ')}; got ${JSON.stringify(value)}`)
  }
  return value as T
}

const DATE_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/

function readDate(query: Query, name: string): number | null {
  const value = queryString(query, name)
  if (value === undefined || value === '') return null
  const ms = DATE_FORM.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms))
    throw validationError(name, `must be a date like 2026-01-31T12:00:00Z; got ${JSON.stringify(value)}`)
  return ms
}

/** The service shows whole seconds: a date a client read back must compare equal to the record's. */
const seconds = (ms: number): number => Math.floor(ms / 1000) * 1000

/**
 * Only the last segment of a file URI names the download: a browser or a client that saves under
 * the given name must not be led into folders (`../../.bashrc` is saved as `.bashrc`, if at all).
 */
function contentDisposition(fileUri: string): string {
  const name =
    fileUri
      .split(/[/\\]/)
      .filter((s) => s !== '' && s !== '.' && s !== '..')
      .pop() ?? 'file'
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

function sendFile(reply: FastifyReply, name: string, mediaType: string, body: Uint8Array): FastifyReply {
  return reply
    .code(200)
    .header('content-type', mediaType)
    .header('content-disposition', contentDisposition(name))
    .send(Buffer.from(body.buffer, body.byteOffset, body.byteLength))
}

/** `files-api/v2`: upload, downloads (one file, zip, temporary file), list, status, rename, delete, import. */
export function registerFilesRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const files = ctx.store.register(new FilesStore(ctx.store.strings, () => ctx.persistence?.schedule()))
  const strings = ctx.store.strings

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

  const counts = (record: FileRecord, localeId: string) => {
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

  const fileFields = (record: FileRecord) => ({
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

  // The file-published callback: once per locale, when every string of the file is published in it.
  ctx.store.events.on('translationPublished', ({ projectId, hashcode, localeId }) => {
    for (const record of files.filesHolding(projectId, hashcode)) {
      if (!record.callbackUrl || record.notifiedLocaleIds.includes(localeId)) continue
      const complete = record.hashcodes.every(
        (h) => strings.get(projectId, h)?.translations[localeId]?.published,
      )
      if (!complete) continue
      files.markNotified(record, localeId)
      const url = new URL(record.callbackUrl)
      url.searchParams.append('locale', localeId)
      url.searchParams.append('fileUri', record.fileUri)
      ctx.callbacks.send('file.published', 'GET', url.href, null)
    }
  })

  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: 10, fields: 1000, fieldSize: 1024 * 1024 },
    })
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, body),
    )

    scope.post<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file',
      async (request, reply) => {
        const { projectId } = request.params
        const { project } = requireProject(ctx, request, projectId)
        const form = await readForm(request)
        form.allowOnly(UPLOAD_FIELDS, true)
        const fileUri = form.required('fileUri')
        const format = readFileType(form.required('fileType'))
        const authorize = form.boolean('authorize')
        const localeIds = form.list('localeIdsToAuthorize')
        if (authorize === true && localeIds.length > 0) {
          throw validationError(
            'localeIdsToAuthorize',
            'cannot be combined with authorize=true; send one or the other',
          )
        }
        localeIds.forEach((l, i) => {
          requireLocale(project, l, `localeIdsToAuthorize[${i}]`)
        })
        const callbackUrl = readCallbackUrl(form.string('callbackUrl'))
        const upload = form.requireFile()
        const directives: Record<string, string> = {}
        for (const name of form.names) {
          if (name.startsWith('svc.') && name !== 'svc.namespace' && name !== 'svc.file_charset') {
            directives[name.slice(4)] = form.string(name)!
          }
        }
        const previous = files.getFile(projectId, fileUri)
        const charset = readCharset(form, previous)
        const { text, charset: decoded } = decodeUpload(
          upload.bytes,
          charset,
          request.headers['content-type'] ?? null,
        )
        const namespace = form.string('svc.namespace') || fileUri
        const placeholderSpec = readPlaceholderSpec(ctx, format, directives)
        const read = readUnits(format, text, project.sourceLocaleId, fileUri)
        const units = parseUnits(read, await contextFor(project, namespace, placeholderSpec, read))

        const now = ctx.now()
        const deleting = files.deletionUntil(projectId, fileUri, now)
        if (deleting !== null) {
          throw new ApiError('RESOURCE_LOCKED', [
            {
              key: 'file_being_deleted',
              message: `File ${fileUri} is being deleted until ${isoDate(deleting)}; upload it again after that`,
              details: { fileUri },
            },
          ])
        }
        files.beginOperation(projectId, [fileUri], now, ctx.config.fileOperationMs)
        const { record, overWritten } = files.upload(
          projectId,
          {
            fileUri,
            fileType: format.fileType,
            namespace,
            content: text,
            charset: decoded,
            directives,
            placeholderSpec,
            units,
            callbackUrl,
          },
          now,
        )
        if (authorize === true) strings.authorize(projectId, record.hashcodes, null)
        else if (localeIds.length > 0) strings.authorize(projectId, record.hashcodes, localeIds)
        if (ctx.config.fileOperationMs > ctx.config.syncWindowMs) {
          return sendData(
            reply,
            { message: `File ${fileUri} was received; its strings and words are still being counted` },
            'ACCEPTED',
          )
        }
        return sendData(reply, {
          overWritten,
          stringCount: record.hashcodes.length,
          wordCount: record.hashcodes.reduce(
            (n, h) => n + countWords(strings.get(projectId, h)!.parsedStringText),
            0,
          ),
        })
      },
    )

    scope.get<{ Params: ProjectParams }>('/files-api/v2/projects/:projectId/file', async (request, reply) => {
      const { projectId } = request.params
      const { project } = requireProject(ctx, request, projectId)
      const fileUri = requiredQuery(request.query as Query, 'fileUri')
      const record = requireFile(projectId, fileUri)
      const { body, mediaType } = await render(project, record, record.content, record.charset, {
        localeId: null,
        retrievalType: 'published',
        includeOriginalStrings: true,
      })
      return sendFile(reply, downloadName(record.fileUri), mediaType, body)
    })

    scope.get<{ Params: LocaleParams }>(
      '/files-api/v2/projects/:projectId/locales/:localeId/file',
      async (request, reply) => {
        const { projectId, localeId, project } = projectLocale(request)
        const query = request.query as Query
        const record = requireFile(projectId, requiredQuery(query, 'fileUri'))
        const { body, mediaType } = await render(project, record, record.content, record.charset, {
          localeId,
          retrievalType: readRetrievalType(queryString(query, 'retrievalType')),
          includeOriginalStrings: queryBoolean(query, 'includeOriginalStrings', true),
        })
        return sendFile(reply, downloadName(record.fileUri), mediaType, body)
      },
    )

    scope.get<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/files/zip',
      async (request, reply) => {
        const { projectId } = request.params
        const { project } = requireProject(ctx, request, projectId)
        const query = request.query as Query
        const fileUris = queryArray(query, 'fileUris')
        const localeIds = queryArray(query, 'localeIds')
        if (fileUris.length === 0) throw validationError('fileUris[]', 'is required (one or more file URIs)')
        if (localeIds.length === 0) throw validationError('localeIds[]', 'is required (one or more locales)')
        localeIds.forEach((l, i) => {
          requireLocale(project, l, `localeIds[${i}]`)
        })
        const options = {
          retrievalType: readRetrievalType(queryString(query, 'retrievalType')),
          includeOriginalStrings: queryBoolean(query, 'includeOriginalStrings', true),
        }
        const fileNameMode = readEnum<FileNameMode>(query, 'fileNameMode', FILE_NAME_MODES, 'UNCHANGED')
        const localeMode = readEnum<LocaleMode>(query, 'localeMode', LOCALE_MODES, 'LOCALE_IN_PATH')
        const zipFileName = queryString(query, 'zipFileName') || 'translations.zip'
        if (/[/\\]/.test(zipFileName))
          throw validationError('zipFileName', 'must be a file name without folders')
        const records = fileUris.map((uri) => requireFile(projectId, uri))
        const entries = new Map<string, Uint8Array>()
        for (const record of records) {
          for (const localeId of localeIds) {
            const name = zipEntryName(record.fileUri, localeId, fileNameMode, localeMode)
            if (entries.has(name)) {
              throw validationError(
                'fileNameMode',
                `two files would both be stored as ${name} in the archive; choose another fileNameMode or localeMode`,
              )
            }
            entries.set(
              name,
              (await render(project, record, record.content, record.charset, { localeId, ...options })).body,
            )
          }
        }
        return sendFile(reply, zipFileName, 'application/zip', buildZip(entries))
      },
    )

    scope.get<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/files/list',
      async (request, reply) => {
        const { projectId } = request.params
        requireProject(ctx, request, projectId)
        const query = request.query as Query
        const uriMask = (queryString(query, 'uriMask') ?? '').toLowerCase()
        const fileTypes = queryArray(query, 'fileTypes')
        fileTypes.forEach((t, i) => {
          if (!FILE_FORMATS.has(t)) {
            throw validationError(
              `fileTypes[${i}]`,
              `${JSON.stringify(t)} is not a file type; known: ${[...FILE_FORMATS.keys()].join(', ')}`,
            )
          }
        })
        const after = readDate(query, 'lastUploadedAfter')
        const before = readDate(query, 'lastUploadedBefore')
        const order = readOrderBy(queryString(query, 'orderBy'))
        const limit = queryInt(query, 'limit', { min: 1, max: MAX_LISTED_FILES, fallback: MAX_LISTED_FILES })
        const offset = queryInt(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
        const selected = files
          .listFiles(projectId)
          .filter(
            (f) =>
              f.fileUri.toLowerCase().includes(uriMask) &&
              (fileTypes.length === 0 || fileTypes.includes(f.fileType)) &&
              (after === null || seconds(f.lastUploaded) > after) &&
              (before === null || seconds(f.lastUploaded) < before),
          )
        if (order) {
          selected.sort((a, b) => {
            const x = a[order.field]
            const y = b[order.field]
            const c = x < y ? -1 : x > y ? 1 : a.fileUri < b.fileUri ? -1 : a.fileUri > b.fileUri ? 1 : 0
            return order.descending ? -c : c
          })
        }
        const items = selected.slice(offset, offset + limit).map((f) => ({
          fileUri: f.fileUri,
          created: isoDate(f.created),
          lastUploaded: isoDate(f.lastUploaded),
          fileType: f.fileType,
          hasInstructions: f.hasInstructions,
        }))
        return sendData(reply, { totalCount: selected.length, items })
      },
    )

    scope.get<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file-types',
      async (request, reply) => {
        const { projectId } = request.params
        requireProject(ctx, request, projectId)
        const types = [...new Set(files.listFiles(projectId).map((f) => f.fileType))].sort()
        return sendData(reply, { items: types })
      },
    )

    scope.get<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file/status',
      async (request, reply) => {
        const { projectId } = request.params
        const { project } = requireProject(ctx, request, projectId)
        const record = requireFile(projectId, requiredQuery(request.query as Query, 'fileUri'))
        const items = project.targetLocaleIds.map((localeId) => ({ localeId, ...counts(record, localeId) }))
        return sendData(reply, { ...fileFields(record), totalCount: items.length, items })
      },
    )

    scope.get<{ Params: LocaleParams }>(
      '/files-api/v2/projects/:projectId/locales/:localeId/file/status',
      async (request, reply) => {
        const { projectId, localeId } = projectLocale(request)
        const record = requireFile(projectId, requiredQuery(request.query as Query, 'fileUri'))
        return sendData(reply, { ...fileFields(record), ...counts(record, localeId) })
      },
    )

    scope.post<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file/rename',
      async (request, reply) => {
        const { projectId } = request.params
        requireProject(ctx, request, projectId)
        const form = await readForm(request)
        form.allowOnly(['fileUri', 'newFileUri'])
        const fileUri = form.required('fileUri')
        const newFileUri = form.required('newFileUri')
        requireFile(projectId, fileUri)
        const now = ctx.now()
        if (
          newFileUri !== fileUri &&
          (files.getFile(projectId, newFileUri) || files.deletionUntil(projectId, newFileUri, now) !== null)
        ) {
          throw validationError(
            'newFileUri',
            `a file ${newFileUri} already exists in project ${projectId}`,
            'file_exists',
          )
        }
        files.beginOperation(projectId, [fileUri, newFileUri], now, ctx.config.fileOperationMs)
        files.rename(projectId, fileUri, newFileUri)
        return sendData(reply, null)
      },
    )

    scope.post<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file/delete',
      async (request, reply) => {
        const { projectId } = request.params
        requireProject(ctx, request, projectId)
        const form = await readForm(request)
        form.allowOnly(['fileUri'])
        const fileUri = form.required('fileUri')
        requireFile(projectId, fileUri)
        const now = ctx.now()
        files.beginOperation(projectId, [fileUri], now, ctx.config.fileOperationMs)
        files.delete(projectId, fileUri, now + ctx.config.fileDeleteMs)
        return sendData(reply, null)
      },
    )

    scope.get<{ Params: LocaleParams }>(
      '/files-api/v2/projects/:projectId/locales/:localeId/file/last-modified',
      async (request, reply) => {
        const { projectId, localeId } = projectLocale(request)
        const query = request.query as Query
        const record = requireFile(projectId, requiredQuery(query, 'fileUri'))
        const after = readDate(query, 'lastModifiedAfter')
        const modified = seconds(lastModified(record, localeId))
        // Not changed since lastModifiedAfter: no date, as the all-locales form gives no item.
        return sendData(reply, {
          localeId,
          lastModified: after === null || modified > after ? isoDate(modified) : null,
        })
      },
    )

    scope.get<{ Params: ProjectParams }>(
      '/files-api/v2/projects/:projectId/file/last-modified',
      async (request, reply) => {
        const { projectId } = request.params
        const { project } = requireProject(ctx, request, projectId)
        const query = request.query as Query
        const record = requireFile(projectId, requiredQuery(query, 'fileUri'))
        const after = readDate(query, 'lastModifiedAfter')
        const items = project.targetLocaleIds
          .map((localeId) => ({ localeId, modified: seconds(lastModified(record, localeId)) }))
          .filter((i) => after === null || i.modified > after)
          .map((i) => ({ localeId: i.localeId, lastModified: isoDate(i.modified) }))
        return sendData(reply, { totalCount: items.length, items })
      },
    )

    scope.post<{ Params: LocaleParams }>(
      '/files-api/v2/projects/:projectId/locales/:localeId/file/import',
      async (request, reply) => {
        const { projectId, localeId, project } = projectLocale(request)
        const form = await readForm(request)
        form.allowOnly(['file', 'fileUri', 'fileType', 'translationState', 'overwrite'])
        const fileUri = form.required('fileUri')
        const format = readFileType(form.required('fileType'))
        const state = form.required('translationState')
        if (state !== 'PUBLISHED' && state !== 'POST_TRANSLATION') {
          throw validationError(
            'translationState',
            `must be PUBLISHED or POST_TRANSLATION; got ${JSON.stringify(state)}`,
          )
        }
        const overwrite = form.boolean('overwrite') ?? false
        const upload = form.requireFile()
        const record = requireFile(projectId, fileUri)
        if (format.fileType !== record.fileType) {
          throw validationError(
            'fileType',
            `${fileUri} was uploaded as ${record.fileType}, not ${format.fileType}`,
          )
        }
        const { text } = decodeUpload(
          upload.bytes,
          record.charset.declared,
          request.headers['content-type'] ?? null,
        )
        const sourceRead = readUnits(format, record.content, project.sourceLocaleId, fileUri)
        const translatedRead = readUnits(format, text, project.sourceLocaleId, fileUri, true)
        const fctx = await contextFor(project, record.namespace, record.placeholderSpec, [
          ...sourceRead,
          ...translatedRead,
        ])
        const source = parseUnits(sourceRead, fctx)
        const translated = parseUnits(translatedRead, fctx)
        const now = ctx.now()
        files.beginOperation(projectId, [fileUri], now, ctx.config.fileOperationMs)

        const byKey = new Map(source.map((u) => [`${u.variant ?? ''}\u0000${u.key}`, u]))
        const errors: { key: string; message: string; details: Record<string, unknown> }[] = []
        const imported: string[] = []
        for (const unit of translated) {
          const src = byKey.get(`${unit.variant ?? ''}\u0000${unit.key}`)
          if (!src) {
            errors.push({
              key: 'string_not_found',
              message: `${unit.key}: no string with this key in ${fileUri}`,
              details: { stringKey: unit.key },
            })
            continue
          }
          // An untranslated text copied from the source is no translation.
          if (unit.text === src.text || imported.includes(src.hashcode)) continue
          const string = strings.get(projectId, src.hashcode)
          if (!string) continue
          const parsed = parseTranslation(
            { ...string, placeholders: src.placeholders, placeholderSpec: record.placeholderSpec },
            unit.text,
            fctx.placeholders,
          )
          const missing = src.placeholders.filter((_p, i) => !parsed.includes(`{${i}}`))
          if (missing.length > 0) {
            errors.push({
              key: 'placeholder_mismatch',
              message: `${unit.key}: the translation lacks the placeholders ${missing.join(', ')} of the source`,
              details: { stringKey: unit.key },
            })
            continue
          }
          const current = string.translations[localeId]
          if (!overwrite && (current?.pending || current?.published)) continue
          strings.setTranslation(projectId, src.hashcode, localeId, parsed, state === 'PUBLISHED', now)
          imported.push(src.hashcode)
        }
        // Imported strings enter the locale's workflow.
        if (imported.length > 0) strings.authorize(projectId, imported, [localeId])
        return sendData(reply, {
          wordCount: imported.reduce(
            (n, h) => n + countWords(strings.get(projectId, h)!.parsedStringText),
            0,
          ),
          stringCount: imported.length,
          translationImportErrors: errors,
        })
      },
    )

    scope.post<{ Params: LocaleParams }>(
      '/files-api/v2/projects/:projectId/locales/:localeId/file/get-translations',
      async (request, reply) => {
        const { projectId, localeId, project } = projectLocale(request)
        const form = await readForm(request)
        form.allowOnly(['file', 'fileUri', 'retrievalType', 'includeOriginalStrings'])
        const fileUri = form.required('fileUri')
        const retrievalType = readRetrievalType(form.string('retrievalType'))
        const includeOriginalStrings = form.boolean('includeOriginalStrings') ?? true
        const upload = form.requireFile()
        const record = requireFile(projectId, fileUri)
        const { text, charset } = decodeUpload(
          upload.bytes,
          record.charset.declared,
          request.headers['content-type'] ?? null,
        )
        const format = formatOf(record.fileType)!
        // Parsed first so a broken temporary file is a VALIDATION_ERROR naming it, not a 500.
        readUnits(format, text, project.sourceLocaleId, fileUri)
        const { body, mediaType } = await render(project, record, text, charset, {
          localeId,
          retrievalType,
          includeOriginalStrings,
        })
        return sendFile(reply, downloadName(fileUri), mediaType, body)
      },
    )
  })
}

function requiredQuery(query: Query, name: string): string {
  const value = queryString(query, name)
  if (value === undefined || value === '') throw validationError(name, 'is required')
  return value
}

/** `svc.file_charset` of this upload, or the one a previous upload set (it cannot change). */
function readCharset(form: Form, previous: FileRecord | undefined): string | null {
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

function normaliseLabel(label: string): string {
  try {
    return new TextDecoder(label.trim()).encoding
  } catch {
    return label.trim().toLowerCase()
  }
}

const ORDER_FIELDS = ['fileUri', 'created', 'lastUploaded', 'fileType'] as const

/** `orderBy`: a field name, optionally followed by `_asc`/`_desc` (or a blank and asc/desc); ascending by default. */
function readOrderBy(
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
