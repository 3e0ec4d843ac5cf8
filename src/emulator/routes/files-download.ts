import type { FastifyInstance } from 'fastify'
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
import { validationError } from '../http/envelope'
import { type ProjectParams, type Query, queryArray, queryBoolean, queryString } from '../http/params'
import {
  type FilesKit,
  type LocaleParams,
  readEnum,
  readRetrievalType,
  requiredQuery,
  requireLocale,
  sendFile,
} from './files-kit'

/** Downloads: the original file, a locale's file, several in a zip. */
export function registerFileDownloadRoutes(scope: FastifyInstance, kit: FilesKit): void {
  const { ctx, requireFile, projectLocale, render } = kit
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
}
