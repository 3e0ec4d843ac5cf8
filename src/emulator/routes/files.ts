import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { EmulatorContext } from '../context'
import { FilesStore } from '../store/files'
import { registerFileDownloadRoutes } from './files-download'
import { filesKit, MAX_FILE_BYTES } from './files-kit'
import { registerFileManagementRoutes, registerFileStatusRoutes } from './files-manage'
import { registerFileTranslationRoutes } from './files-translations'
import { registerFileUploadRoutes } from './files-upload'

export { MAX_LISTED_FILES } from './files-kit'

/** `files-api/v2`: upload, download, management and translations of resource files. */
export function registerFilesRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const files = ctx.store.register(new FilesStore(ctx.store.strings, () => ctx.persistence?.schedule()))
  const kit = filesKit(ctx, files)
  const { strings } = kit

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
    registerFileUploadRoutes(scope, kit)
    registerFileDownloadRoutes(scope, kit)
    registerFileManagementRoutes(scope, kit)
    registerFileStatusRoutes(scope, kit)
    registerFileTranslationRoutes(scope, kit)
  })
}
