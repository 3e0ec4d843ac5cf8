import { Blob } from 'node:buffer'
import { FormData } from 'undici'
import { type ClientContext, fetchList, type RawPage, toPage } from './context'
import { invalidRequest } from './errors'
import type { HttpMethod, HttpRequest } from './http'
import { type Page, paginate, splitByLength } from './paging'
import { buildQuery, type QueryParams, seg } from './query'
import type { PageRequest } from './strings-types'
import { mergeZips, ZipMergeError } from './zip-merge'

/** File content to send: bytes, text (sent as UTF-8) or a Blob. */
export type FileContent = Uint8Array | string | Blob

export type FileRetrievalType = 'pending' | 'published' | 'pseudo' | 'contextMatchingInstrumented'

export interface FileItem {
  fileUri: string
  fileType: string
  created: string
  lastUploaded: string
  hasInstructions: boolean
}

export interface FileLocaleCounts {
  authorizedStringCount: number
  authorizedWordCount: number
  completedStringCount: number
  completedWordCount: number
  excludedStringCount: number
  excludedWordCount: number
}

export interface FileStatusFields extends FileItem {
  parserVersion: number
  directives: Record<string, unknown> | null
  namespace: { name: string } | null
  totalStringCount: number
  totalWordCount: number
}

export interface FileStatus extends FileStatusFields {
  totalCount: number
  items: Array<FileLocaleCounts & { localeId: string }>
}

export type FileLocaleStatus = FileStatusFields & FileLocaleCounts

export interface UploadFileRequest {
  file: FileContent
  /** Name of the form part; the last segment of `fileUri` when absent. */
  fileName?: string
  fileUri: string
  fileType: string
  authorize?: boolean
  /** Not together with `authorize: true`. */
  localeIdsToAuthorize?: string[]
  /** `svc.namespace`. */
  namespace?: string
  /** `svc.file_charset`. */
  charset?: string
  /** Parser configuration, sent as `svc.<name>`. */
  directives?: Record<string, string>
  callbackUrl?: string
}

/** Counts, or `message` alone when the upload took longer than a minute. */
export interface UploadFileResult {
  overWritten?: boolean
  stringCount?: number
  wordCount?: number
  message?: string
}

export interface FileDownload {
  body: Uint8Array
  contentType: string | null
  fileName: string | null
}

export interface DownloadTranslatedQuery {
  fileUri: string
  retrievalType?: FileRetrievalType
  includeOriginalStrings?: boolean
}

export interface DownloadZipQuery {
  fileUris: string[]
  localeIds: string[]
  retrievalType?: FileRetrievalType
  includeOriginalStrings?: boolean
  fileNameMode?: 'UNCHANGED' | 'TRIM_LEADING' | 'LOCALE_LAST'
  localeMode?: 'LOCALE_IN_PATH' | 'LOCALE_IN_NAME' | 'LOCALE_IN_NAME_AND_PATH'
  zipFileName?: string
}

export interface ListFilesQuery {
  /** Case-insensitive substring of the URI. */
  uriMask?: string
  fileTypes?: string[]
  lastUploadedAfter?: string
  lastUploadedBefore?: string
  orderBy?: string
}

export interface ImportTranslationsRequest {
  file: FileContent
  fileName?: string
  fileUri: string
  fileType: string
  translationState: 'PUBLISHED' | 'POST_TRANSLATION'
  overwrite?: boolean
}

export interface ImportTranslationsResult {
  wordCount: number
  stringCount: number
  translationImportErrors: unknown[]
}

export interface TemporaryTranslationsRequest {
  file: FileContent
  fileName?: string
  fileUri: string
  retrievalType?: FileRetrievalType
  includeOriginalStrings?: boolean
}

export interface FilesApi {
  upload(projectId: string, request: UploadFileRequest): Promise<UploadFileResult>
  downloadOriginal(projectId: string, fileUri: string): Promise<FileDownload>
  downloadTranslated(
    projectId: string,
    localeId: string,
    query: DownloadTranslatedQuery,
  ): Promise<FileDownload>
  /**
   * One archive of every file in every locale. Lists too long for one request line are asked for in
   * several requests, and their archives joined into one, entries byte for byte.
   */
  downloadZip(projectId: string, query: DownloadZipQuery): Promise<FileDownload>
  listPage(projectId: string, query?: ListFilesQuery & PageRequest): Promise<Page<FileItem>>
  list(projectId: string, query?: ListFilesQuery): AsyncGenerator<FileItem, void, undefined>
  fileTypes(projectId: string): Promise<string[]>
  status(projectId: string, fileUri: string): Promise<FileStatus>
  localeStatus(projectId: string, localeId: string, fileUri: string): Promise<FileLocaleStatus>
  rename(projectId: string, fileUri: string, newFileUri: string): Promise<void>
  /** Deletion finishes asynchronously on the service (typically minutes). */
  delete(projectId: string, fileUri: string): Promise<void>
  lastModified(
    projectId: string,
    localeId: string,
    query: { fileUri: string; lastModifiedAfter?: string },
  ): Promise<{ localeId: string; lastModified: string }>
  lastModifiedAll(
    projectId: string,
    query: { fileUri: string; lastModifiedAfter?: string },
  ): Promise<Page<{ localeId: string; lastModified: string }>>
  importTranslations(
    projectId: string,
    localeId: string,
    request: ImportTranslationsRequest,
  ): Promise<ImportTranslationsResult>
  /** Translates a file without storing it over the main version. */
  translateTemporary(
    projectId: string,
    localeId: string,
    request: TemporaryTranslationsRequest,
  ): Promise<FileDownload>
}

const F = '/files-api/v2/projects/:projectId'
const PAGE_LIMIT = 500

function toBlob(content: FileContent): Blob {
  if (content instanceof Blob) return content
  return new Blob([content])
}

function lastSegment(uri: string): string {
  return uri.split('/').filter(Boolean).pop() ?? 'file'
}

/**
 * The files area of the client. Long because each method of the area closes over the one client
 * context; every method is short and stands alone, and a split would only pass the context around.
 */
export function createFilesApi(ctx: ClientContext): FilesApi {
  const { http } = ctx

  function need(method: HttpMethod, route: string, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.length === 0)
      throw invalidRequest(method, route, field, 'must be a non-empty string')
    return seg(value)
  }

  function base(method: HttpMethod, route: string, projectId: string): string {
    return `/files-api/v2/projects/${need(method, route, 'projectId', projectId)}`
  }

  function localeBase(method: HttpMethod, route: string, projectId: string, localeId: string): string {
    return `${base(method, route, projectId)}/locales/${need(method, route, 'localeId', localeId)}`
  }

  function q(params: QueryParams): string {
    return buildQuery(params, 'brackets')
  }

  function fileField(
    form: FormData,
    route: string,
    content: FileContent,
    fileName: string | undefined,
    uri: string,
  ) {
    if (!(content instanceof Blob) && typeof content !== 'string' && !(content instanceof Uint8Array)) {
      throw invalidRequest('POST', route, 'file', 'must be a Uint8Array, a string or a Blob')
    }
    form.append('file', toBlob(content), fileName ?? lastSegment(uri))
  }

  async function call<T>(req: HttpRequest): Promise<T> {
    return (await http.json<T>(req)).data
  }

  async function download(req: HttpRequest): Promise<FileDownload> {
    const { body, contentType, fileName } = await http.binary(req)
    return { body, contentType, fileName }
  }

  /**
   * Pairs of (files, locales) whose request lines fit: the locales cut first, counting the longest
   * file URI, then the files of each run of locales.
   */
  function zipRuns(
    route: string,
    fileUris: readonly string[],
    localeIds: readonly string[],
    pathFor: (fileUris: string[], localeIds: string[]) => string,
  ): Array<[string[], string[]]> {
    const cost = (name: string) => (value: string) => `&${name}[]=${encodeURIComponent(value)}`.length
    const split = (
      field: string,
      values: readonly string[],
      baseLength: number,
      costOf: (v: string) => number,
    ) => {
      try {
        return splitByLength(values, baseLength, costOf, ctx.maxRequestLineBytes)
      } catch (error) {
        throw invalidRequest('GET', route, field, (error as Error).message)
      }
    }
    const longestFile = fileUris.reduce((a, b) => (cost('fileUris')(b) > cost('fileUris')(a) ? b : a))
    const localeRuns = split(
      'localeIds',
      localeIds,
      http.requestLineLength('GET', pathFor([longestFile], [])),
      cost('localeIds'),
    )
    return localeRuns.flatMap((locales) =>
      split('fileUris', fileUris, http.requestLineLength('GET', pathFor([], locales)), cost('fileUris')).map(
        (files): [string[], string[]] => [files, locales],
      ),
    )
  }

  function listRaw(projectId: string, query: ListFilesQuery & PageRequest): Promise<RawPage<FileItem>> {
    const route = `${F}/files/list`
    const path = `${base('GET', route, projectId)}/files/list${q({ ...query })}`
    return fetchList(http, { method: 'GET', path, route, idempotent: true })
  }

  return {
    async upload(projectId, request) {
      const route = `${F}/file`
      need('POST', route, 'fileUri', request?.fileUri)
      need('POST', route, 'fileType', request.fileType)
      if (request.authorize === true && request.localeIdsToAuthorize?.length) {
        throw invalidRequest('POST', route, 'localeIdsToAuthorize', 'cannot be combined with authorize: true')
      }
      const form = new FormData()
      fileField(form, route, request.file, request.fileName, request.fileUri)
      form.append('fileUri', request.fileUri)
      form.append('fileType', request.fileType)
      if (request.authorize !== undefined) form.append('authorize', String(request.authorize))
      for (const locale of request.localeIdsToAuthorize ?? []) form.append('localeIdsToAuthorize[]', locale)
      if (request.namespace !== undefined) form.append('svc.namespace', request.namespace)
      if (request.charset !== undefined) form.append('svc.file_charset', request.charset)
      for (const [name, value] of Object.entries(request.directives ?? {})) form.append(`svc.${name}`, value)
      if (request.callbackUrl !== undefined) form.append('callbackUrl', request.callbackUrl)
      // Uploading the same content again overwrites the file: safe to repeat.
      return call<UploadFileResult>({
        method: 'POST',
        path: `${base('POST', route, projectId)}/file`,
        route,
        form,
        idempotent: true,
      })
    },
    async downloadOriginal(projectId, fileUri) {
      const route = `${F}/file`
      need('GET', route, 'fileUri', fileUri)
      return download({
        method: 'GET',
        path: `${base('GET', route, projectId)}/file${q({ fileUri })}`,
        route,
        idempotent: true,
      })
    },
    async downloadTranslated(projectId, localeId, query) {
      const route = `${F}/locales/:localeId/file`
      need('GET', route, 'fileUri', query?.fileUri)
      const path = `${localeBase('GET', route, projectId, localeId)}/file${q({ ...query })}`
      return download({ method: 'GET', path, route, idempotent: true })
    },
    async downloadZip(projectId, query) {
      const route = `${F}/files/zip`
      if (!Array.isArray(query?.fileUris) || query.fileUris.length === 0) {
        throw invalidRequest('GET', route, 'fileUris', 'must be a non-empty array')
      }
      if (!Array.isArray(query.localeIds) || query.localeIds.length === 0) {
        throw invalidRequest('GET', route, 'localeIds', 'must be a non-empty array')
      }
      const pathFor = (fileUris: string[], localeIds: string[]) =>
        `${base('GET', route, projectId)}/files/zip${q({ ...query, fileUris, localeIds })}`
      const requests = zipRuns(route, query.fileUris, query.localeIds, pathFor).map(
        ([fileUris, localeIds]): HttpRequest => ({
          method: 'GET',
          path: pathFor(fileUris, localeIds),
          route,
          idempotent: true,
        }),
      )
      // One after another: a zip holds whole files, and the files interface limits concurrent work.
      const parts: FileDownload[] = []
      for (const req of requests) parts.push(await download(req))
      try {
        return { ...parts[0]!, body: mergeZips(parts.map((p) => p.body)) }
      } catch (error) {
        if (!(error instanceof ZipMergeError)) throw error
        // The service refuses such a pair within one request (VALIDATION_ERROR); across requests it is ours to.
        throw error.duplicate
          ? http.error(
              requests[0]!,
              'VALIDATION_ERROR',
              200,
              `${error.message} (fileNameMode ${query.fileNameMode ?? 'UNCHANGED'}, localeMode ${query.localeMode ?? 'LOCALE_IN_PATH'}); choose another fileNameMode or localeMode`,
              requests.length,
            )
          : http.error(
              requests[0]!,
              'INVALID_RESPONSE',
              200,
              `the ${requests.length} zip answers cannot be joined: ${error.message}`,
              requests.length,
            )
      }
    },
    listPage: async (projectId, query = {}) => toPage(await listRaw(projectId, query)),
    list: async function* (projectId, query = {}) {
      yield* paginate((offset, limit) => listRaw(projectId, { ...query, offset, limit }), PAGE_LIMIT)
    },
    async fileTypes(projectId) {
      const route = `${F}/file-types`
      return (
        await fetchList<string>(http, {
          method: 'GET',
          path: `${base('GET', route, projectId)}/file-types`,
          route,
          idempotent: true,
        })
      ).items
    },
    async status(projectId, fileUri) {
      const route = `${F}/file/status`
      need('GET', route, 'fileUri', fileUri)
      return call<FileStatus>({
        method: 'GET',
        path: `${base('GET', route, projectId)}/file/status${q({ fileUri })}`,
        route,
        idempotent: true,
      })
    },
    async localeStatus(projectId, localeId, fileUri) {
      const route = `${F}/locales/:localeId/file/status`
      need('GET', route, 'fileUri', fileUri)
      const path = `${localeBase('GET', route, projectId, localeId)}/file/status${q({ fileUri })}`
      return call<FileLocaleStatus>({ method: 'GET', path, route, idempotent: true })
    },
    async rename(projectId, fileUri, newFileUri) {
      const route = `${F}/file/rename`
      need('POST', route, 'fileUri', fileUri)
      need('POST', route, 'newFileUri', newFileUri)
      const form = new FormData()
      form.append('fileUri', fileUri)
      form.append('newFileUri', newFileUri)
      await call({
        method: 'POST',
        path: `${base('POST', route, projectId)}/file/rename`,
        route,
        form,
        idempotent: false,
      })
    },
    async delete(projectId, fileUri) {
      const route = `${F}/file/delete`
      need('POST', route, 'fileUri', fileUri)
      const form = new FormData()
      form.append('fileUri', fileUri)
      await call({
        method: 'POST',
        path: `${base('POST', route, projectId)}/file/delete`,
        route,
        form,
        idempotent: false,
      })
    },
    async lastModified(projectId, localeId, query) {
      const route = `${F}/locales/:localeId/file/last-modified`
      need('GET', route, 'fileUri', query?.fileUri)
      const path = `${localeBase('GET', route, projectId, localeId)}/file/last-modified${q({ ...query })}`
      return call({ method: 'GET', path, route, idempotent: true })
    },
    async lastModifiedAll(projectId, query) {
      const route = `${F}/file/last-modified`
      need('GET', route, 'fileUri', query?.fileUri)
      const path = `${base('GET', route, projectId)}/file/last-modified${q({ ...query })}`
      return toPage(await fetchList(http, { method: 'GET', path, route, idempotent: true }))
    },
    async importTranslations(projectId, localeId, request) {
      const route = `${F}/locales/:localeId/file/import`
      need('POST', route, 'fileUri', request?.fileUri)
      need('POST', route, 'fileType', request.fileType)
      if (request.translationState !== 'PUBLISHED' && request.translationState !== 'POST_TRANSLATION') {
        throw invalidRequest('POST', route, 'translationState', 'must be PUBLISHED or POST_TRANSLATION')
      }
      const form = new FormData()
      fileField(form, route, request.file, request.fileName, request.fileUri)
      form.append('fileUri', request.fileUri)
      form.append('fileType', request.fileType)
      form.append('translationState', request.translationState)
      if (request.overwrite !== undefined) form.append('overwrite', String(request.overwrite))
      const path = `${localeBase('POST', route, projectId, localeId)}/file/import`
      // Importing the same translations again leaves the same state.
      return call<ImportTranslationsResult>({ method: 'POST', path, route, form, idempotent: true })
    },
    async translateTemporary(projectId, localeId, request) {
      const route = `${F}/locales/:localeId/file/get-translations`
      need('POST', route, 'fileUri', request?.fileUri)
      const form = new FormData()
      fileField(form, route, request.file, request.fileName, request.fileUri)
      form.append('fileUri', request.fileUri)
      if (request.retrievalType !== undefined) form.append('retrievalType', request.retrievalType)
      if (request.includeOriginalStrings !== undefined) {
        form.append('includeOriginalStrings', String(request.includeOriginalStrings))
      }
      const path = `${localeBase('POST', route, projectId, localeId)}/file/get-translations`
      return download({ method: 'POST', path, route, form, idempotent: true })
    },
  }
}
