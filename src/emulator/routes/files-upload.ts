import type { FastifyInstance } from 'fastify'
import { isoDate } from '../clock'
import { decodeUpload } from '../files/charset'
import { parseUnits, readUnits } from '../files/content'
import { readForm } from '../files/form'
import { requireProject } from '../http/auth'
import { ApiError, sendData, validationError } from '../http/envelope'
import type { ProjectParams } from '../http/params'
import {
  type FilesKit,
  readCallbackUrl,
  readCharset,
  readFileType,
  readPlaceholderSpec,
  requireLocale,
  UPLOAD_FIELDS,
} from './files-kit'
import { countWords } from './strings'

/** The upload of a file: parsed, its strings created or updated, authorized if asked. */
export function registerFileUploadRoutes(scope: FastifyInstance, kit: FilesKit): void {
  const { ctx, files, strings, contextFor } = kit
  scope.post<{ Params: ProjectParams }>('/files-api/v2/projects/:projectId/file', async (request, reply) => {
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
  })
}
