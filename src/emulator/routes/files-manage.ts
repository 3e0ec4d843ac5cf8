import type { FastifyInstance } from 'fastify'
import { isoDate } from '../clock'
import { readForm } from '../files/form'
import { FILE_FORMATS } from '../files/formats'
import { requireProject } from '../http/auth'
import { sendData, validationError } from '../http/envelope'
import { type ProjectParams, type Query, queryArray, queryInt, queryString } from '../http/params'
import {
  type FilesKit,
  type LocaleParams,
  MAX_LISTED_FILES,
  readDate,
  readOrderBy,
  requiredQuery,
  seconds,
} from './files-kit'

/** Listing, file types, rename and delete of files. */
export function registerFileManagementRoutes(scope: FastifyInstance, kit: FilesKit): void {
  const { ctx, files, requireFile } = kit
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
}

/** A file's status and last modification, in every locale or in one. */
export function registerFileStatusRoutes(scope: FastifyInstance, kit: FilesKit): void {
  const { ctx, requireFile, projectLocale, counts, fileFields, lastModified } = kit
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
}
