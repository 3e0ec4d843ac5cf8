import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { startEmulator } from '../../src/emulator/index'
import { PROJECT, useEmulator } from './helpers'

const t = useEmulator()

function client(): TmsClient {
  return createClient({ baseUrl: t.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
}

describe('the typed client against the files interface', () => {
  it('uploads, lists, reads status, downloads, imports and deletes', async () => {
    const c = client()
    const up = await c.files.upload(PROJECT, {
      file: '{"a": "Save", "b": "Hello {name}"}',
      fileUri: 'web/app.json',
      fileType: 'json',
      localeIdsToAuthorize: ['fr-FR'],
      // source_key_paths: a JSON file takes imported translations only with it (the spec's import).
      directives: { placeholder_format_custom: String.raw`\{\w+\}`, source_key_paths: '/{*}' },
    })
    expect(up).toEqual({ overWritten: false, stringCount: 2, wordCount: 2 })
    expect(await c.files.fileTypes(PROJECT)).toEqual(['json'])
    const page = await c.files.listPage(PROJECT, { uriMask: 'APP' })
    expect(page.items.map((i) => i.fileUri)).toEqual(['web/app.json'])

    const imported = await c.files.importTranslations(PROJECT, 'fr-FR', {
      file: '{"a": "Enregistrer", "b": "Bonjour {name}"}',
      fileUri: 'web/app.json',
      fileType: 'json',
      translationState: 'PUBLISHED',
    })
    expect(imported).toEqual({ wordCount: 2, stringCount: 2, translationImportErrors: [] })
    const status = await c.files.localeStatus(PROJECT, 'fr-FR', 'web/app.json')
    expect(status).toMatchObject({ completedStringCount: 2, authorizedStringCount: 0, totalStringCount: 2 })

    const d = await c.files.downloadTranslated(PROJECT, 'fr-FR', { fileUri: 'web/app.json' })
    expect(Buffer.from(d.body).toString()).toBe('{"a": "Enregistrer", "b": "Bonjour {name}"}')
    expect(d.contentType).toBe('application/json; charset=UTF-8')
    // The client keeps only the file name of the header, never its folders.
    expect(d.fileName).toBe('app.json')

    const z = await c.files.downloadZip(PROJECT, {
      fileUris: ['web/app.json'],
      localeIds: ['fr-FR'],
      fileNameMode: 'TRIM_LEADING',
      localeMode: 'LOCALE_IN_NAME',
    })
    expect(Object.keys(unzipSync(z.body))).toEqual(['app_fr-FR.json'])

    const temp = await c.files.translateTemporary(PROJECT, 'fr-FR', {
      file: '{"x": "Save"}',
      fileUri: 'web/app.json',
    })
    expect(Buffer.from(temp.body).toString()).toBe('{"x": "Enregistrer"}')

    const modified = await c.files.lastModifiedAll(PROJECT, { fileUri: 'web/app.json' })
    expect(modified.items.map((i) => i.localeId)).toEqual(['fr-FR', 'de-DE', 'ja-JP'])

    await c.files.rename(PROJECT, 'web/app.json', 'web/main.json')
    await c.files.delete(PROJECT, 'web/main.json')
    expect((await c.files.listPage(PROJECT)).totalCount).toBe(0)
    const error = await c.files.status(PROJECT, 'web/main.json').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 })
  })
})

describe('persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tms-files-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps files, their strings and a running delete across a restart with a data file', async () => {
    const dataFile = join(dir, 'state.json')
    const first = await startEmulator({ dataFile })
    const c1 = createClient({ baseUrl: first.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
    const u16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a=Café\n', 'utf16le')])
    await c1.files.upload(PROJECT, { file: u16, fileUri: 'a.properties', fileType: 'javaProperties' })
    await c1.files.upload(PROJECT, { file: 'b=Gone\n', fileUri: 'b.properties', fileType: 'javaProperties' })
    await c1.files.delete(PROJECT, 'b.properties')
    await first.close()

    const second = await startEmulator({ dataFile })
    try {
      // No retries: the 423 below is the answer under test, not something to wait out.
      const c2 = createClient({
        baseUrl: second.url,
        userIdentifier: 'demo-user',
        userSecret: 'demo-secret',
        retry: { retries: 0 },
      })
      const original = await c2.files.downloadOriginal(PROJECT, 'a.properties')
      expect(Buffer.from(original.body).equals(u16)).toBe(true)
      expect((await c2.files.status(PROJECT, 'a.properties')).totalStringCount).toBe(1)
      const again = await c2.files
        .upload(PROJECT, { file: 'b=Back\n', fileUri: 'b.properties', fileType: 'javaProperties' })
        .catch((e: unknown) => e)
      expect(again).toMatchObject({ code: 'RESOURCE_LOCKED' })
    } finally {
      await second.close()
    }
  })
})
