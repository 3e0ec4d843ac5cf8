import type { FastifyInstance } from 'fastify'
import { decodeUpload } from '../files/charset'
import { parseUnits, readUnits } from '../files/content'
import { readForm } from '../files/form'
import { formatOf } from '../files/formats'
import { downloadName } from '../files/zip'
import { sendData, validationError } from '../http/envelope'
import { parseTranslation } from '../store/strings'
import { type FilesKit, type LocaleParams, readFileType, readRetrievalType, sendFile } from './files-kit'
import { countWords } from './strings'

/** File types whose translations import only when the upload defined `source_key_paths`. */
const KEYED_BY_PATHS: ReadonlySet<string> = new Set(['json', 'xml'])

/** Translations from a file: imported into a locale, or rendered without being stored. */
export function registerFileTranslationRoutes(scope: FastifyInstance, kit: FilesKit): void {
  const { ctx, files, strings, contextFor, requireFile, projectLocale, render } = kit
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
      // The spec: "XML and JSON files need source_key_paths defined at upload" to import into them.
      // The emulator keys every string by its path whatever the directive says; it asks for it so that
      // a workflow passing here does not fail against the service.
      if (KEYED_BY_PATHS.has(record.fileType) && !record.directives.source_key_paths) {
        throw validationError(
          'fileType',
          `${fileUri} (${record.fileType}) was uploaded without source_key_paths: an import into a ${record.fileType} file needs it defined at upload (the upload's svc.source_key_paths field, e.g. /{*})`,
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
        wordCount: imported.reduce((n, h) => n + countWords(strings.get(projectId, h)!.parsedStringText), 0),
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
}
