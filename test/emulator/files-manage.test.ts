import { unzipSync } from 'fflate'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Receiver, startReceiver } from '../helpers/receiver'
import { filesApi, q } from './files-helpers'
import { errorOf, eventually, ISO_DATE, STRINGS, useEmulator } from './helpers'

const t = useEmulator({ callbackRetryBaseMs: 10 })
const f = filesApi(t)

const advance = (ms: number) => t.control('POST', '/clock', { advanceMs: ms })
const config = (body: Record<string, number>) => t.control('POST', '/config', body)
/** What a JSON file needs at upload for translations to be imported into it (the spec's import). */
const KEY_PATHS = { 'svc.source_key_paths': '/{*}' }

describe('list and file types', () => {
  beforeEach(async () => {
    await f.put('web/Home.json', 'json', '{"a": "Home"}')
    await advance(10_000)
    await f.put('android/app.properties', 'javaProperties', 'a=App\n')
    await advance(10_000)
    await f.put('web/help.po', 'gettext', 'msgid "Help"\nmsgstr ""\n')
  })

  const uris = async (query: string) => {
    const r = await f.get(`/files/list${query}`)
    expect(r.status).toBe(200)
    return {
      total: r.body.response.data.totalCount,
      uris: r.body.response.data.items.map((i: { fileUri: string }) => i.fileUri),
    }
  }

  it('lists every file with its fields', async () => {
    const r = await f.get('/files/list')
    const items = r.body.response.data.items
    expect(items).toHaveLength(3)
    expect(Object.keys(items[0]).sort()).toEqual([
      'created',
      'fileType',
      'fileUri',
      'hasInstructions',
      'lastUploaded',
    ])
    expect(items[0]).toMatchObject({ fileUri: 'web/Home.json', fileType: 'json', hasInstructions: false })
    expect(items[0].created).toMatch(ISO_DATE)
    expect(items[0].lastUploaded).toBe(items[0].created)
  })

  it('filters by uriMask (case-insensitive substring), fileTypes[] and upload dates', async () => {
    expect(await uris('?uriMask=WEB/')).toEqual({ total: 2, uris: ['web/Home.json', 'web/help.po'] })
    expect(await uris('?uriMask=home')).toEqual({ total: 1, uris: ['web/Home.json'] })
    expect(await uris('?fileTypes[]=gettext&fileTypes[]=javaProperties')).toEqual({
      total: 2,
      uris: ['android/app.properties', 'web/help.po'],
    })
    const all = (await f.get('/files/list')).body.response.data.items
    const middle = all.find((i: { fileUri: string }) => i.fileUri === 'android/app.properties').lastUploaded
    expect(await uris(`?lastUploadedAfter=${middle}`)).toEqual({ total: 1, uris: ['web/help.po'] })
    expect(await uris(`?lastUploadedBefore=${middle}`)).toEqual({ total: 1, uris: ['web/Home.json'] })
  })

  it('orders by a field and direction, and pages with limit and offset', async () => {
    expect((await uris('?orderBy=fileUri')).uris).toEqual([
      'android/app.properties',
      'web/Home.json',
      'web/help.po',
    ])
    expect((await uris('?orderBy=lastUploaded_desc')).uris).toEqual([
      'web/help.po',
      'android/app.properties',
      'web/Home.json',
    ])
    expect(await uris('?orderBy=fileUri_asc&limit=1&offset=1')).toEqual({ total: 3, uris: ['web/Home.json'] })
  })

  it('rejects bad parameters naming them', async () => {
    expect(errorOf(await f.get('/files/list?limit=501'))).toMatchObject({ status: 400, field: 'limit' })
    expect(errorOf(await f.get('/files/list?orderBy=size'))).toMatchObject({ status: 400, field: 'orderBy' })
    expect(errorOf(await f.get('/files/list?lastUploadedAfter=yesterday'))).toMatchObject({
      status: 400,
      field: 'lastUploadedAfter',
    })
    expect(errorOf(await f.get('/files/list?fileTypes[]=docx'))).toMatchObject({
      status: 400,
      field: 'fileTypes[0]',
    })
  })

  it('lists the file types present in the project', async () => {
    const r = await f.get('/file-types')
    expect(r.body.response.data).toEqual({ items: ['gettext', 'javaProperties', 'json'] })
  })
})

describe('status', () => {
  it('counts authorized, completed and excluded strings and words per locale', async () => {
    await f.put('s.json', 'json', '{"a": "One two", "b": "Three", "c": "Four five six"}', {
      'localeIdsToAuthorize[]': ['fr-FR', 'de-DE'],
    })
    await f.translate('s.json', 'fr-FR', { a: 'Un deux' })
    await f.translate('s.json', 'fr-FR', { b: 'Trois' }, false)
    const r = await f.get('/file/status?fileUri=s.json')
    expect(r.status).toBe(200)
    const data = r.body.response.data
    expect(data).toMatchObject({
      fileUri: 's.json',
      fileType: 'json',
      parserVersion: 4,
      hasInstructions: false,
      directives: null,
      namespace: { name: 's.json' },
      totalStringCount: 3,
      totalWordCount: 6,
      totalCount: 3,
    })
    const none = { excludedStringCount: 0, excludedWordCount: 0 }
    expect(data.items).toEqual([
      {
        localeId: 'fr-FR',
        authorizedStringCount: 2,
        authorizedWordCount: 4,
        completedStringCount: 1,
        completedWordCount: 2,
        ...none,
      },
      {
        localeId: 'de-DE',
        authorizedStringCount: 3,
        authorizedWordCount: 6,
        completedStringCount: 0,
        completedWordCount: 0,
        ...none,
      },
      {
        localeId: 'ja-JP',
        authorizedStringCount: 0,
        authorizedWordCount: 0,
        completedStringCount: 0,
        completedWordCount: 0,
        ...none,
      },
    ])
    const one = await f.get('/locales/fr-FR/file/status?fileUri=s.json')
    expect(one.body.response.data).toMatchObject({
      fileUri: 's.json',
      totalStringCount: 3,
      authorizedStringCount: 2,
      completedStringCount: 1,
      completedWordCount: 2,
    })
    expect(one.body.response.data.items).toBeUndefined()
    expect(errorOf(await f.get('/file/status?fileUri=nope.json'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND_ERROR',
    })
    expect(errorOf(await f.get('/file/status'))).toMatchObject({ status: 400, field: 'fileUri' })
  })
})

describe('rename and delete', () => {
  it('renames to a free URI; the strings follow with the same hashcodes', async () => {
    await f.put('old.json', 'json', '{"a": "Alpha"}')
    await f.put('taken.json', 'json', '{"b": "Beta"}')
    const [before] = await f.sourceStrings('old.json')
    expect(
      errorOf(await f.form('/file/rename', { fileUri: 'old.json', newFileUri: 'taken.json' })),
    ).toMatchObject({
      status: 400,
      field: 'newFileUri',
    })
    expect(
      errorOf(await f.form('/file/rename', { fileUri: 'nope.json', newFileUri: 'x.json' })),
    ).toMatchObject({
      status: 404,
    })
    expect(errorOf(await f.form('/file/rename', { fileUri: 'old.json' }))).toMatchObject({
      status: 400,
      field: 'newFileUri',
    })
    const r = await f.form('/file/rename', { fileUri: 'old.json', newFileUri: 'new/name.json' })
    expect(r.status).toBe(200)
    expect(r.body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect((await f.download('/file?fileUri=old.json')).status).toBe(404)
    expect((await f.download('/file?fileUri=new%2Fname.json')).text).toBe('{"a": "Alpha"}')
    expect(await f.sourceStrings('new/name.json')).toEqual([before])
    expect(await f.sourceStrings('old.json')).toEqual([])
  })

  it('also takes url-encoded forms', async () => {
    await f.put('a.json', 'json', '{"a": "Alpha"}')
    const r = await f.send(
      'POST',
      '/files-api/v2/projects/demo-project/file/rename',
      'fileUri=a.json&newFileUri=b.json',
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    )
    expect(r.status).toBe(200)
    expect(
      (await f.get('/files/list')).body.response.data.items.map((i: { fileUri: string }) => i.fileUri),
    ).toEqual(['b.json'])
  })

  it('deletes asynchronously: the URI cannot be uploaded again until the delete completes', async () => {
    await config({ fileDeleteMs: 120_000 })
    await f.put('d.json', 'json', '{"a": "Alpha"}', { authorize: 'true' })
    await f.translate('d.json', 'fr-FR', { a: 'Alpha FR' })
    const r = await f.form('/file/delete', { fileUri: 'd.json' })
    expect(r.status).toBe(200)
    expect(r.body.response.data).toBeNull()
    expect((await f.get('/files/list')).body.response.data.totalCount).toBe(0)
    expect((await f.download('/file?fileUri=d.json')).status).toBe(404)
    expect(errorOf(await f.form('/file/delete', { fileUri: 'd.json' }))).toMatchObject({ status: 404 })
    const again = await f.upload({ fileUri: 'd.json', fileType: 'json' }, { content: '{"a": "Alpha"}' })
    expect(errorOf(again)).toMatchObject({ status: 423, code: 'RESOURCE_LOCKED', key: 'file_being_deleted' })
    expect(errorOf(await f.form('/file/rename', { fileUri: 'x', newFileUri: 'd.json' }))).toMatchObject({
      status: 404,
    })
    // A minute short of the end: real time passing between the calls (a busy machine) must not end it.
    await advance(60_000)
    expect((await f.upload({ fileUri: 'd.json', fileType: 'json' }, { content: '{}' })).status).toBe(423)
    await advance(60_000)
    await f.put('d.json', 'json', '{"a": "Alpha"}')
    // Complete translations stay usable: the same text gets its translation back.
    expect(JSON.parse((await f.download('/locales/fr-FR/file?fileUri=d.json')).text)).toEqual({
      a: 'Alpha FR',
    })
  })
})

describe('last modified', () => {
  it('is the latest upload or translation change per locale, filtered by lastModifiedAfter', async () => {
    await f.put('m.json', 'json', '{"a": "Alpha", "b": "Beta"}')
    const uploaded = (await f.get('/files/list')).body.response.data.items[0].lastUploaded
    await advance(60_000)
    const now = async (): Promise<string> => (await t.control('GET', '/state')).body.response.data.now
    const justBefore = await now()
    await f.translate('m.json', 'de-DE', { b: 'Beta DE' }, false)
    const justAfter = await now()
    const all = await f.get('/file/last-modified?fileUri=m.json')
    // Dates have whole seconds, so the change's is read back, and checked to lie between the
    // emulator's time just before and just after it (a slow machine may cross a second).
    const changed = all.body.response.data.items[1].lastModified
    expect(changed >= justBefore && changed <= justAfter && changed > uploaded).toBe(true)
    expect(all.body.response.data).toEqual({
      totalCount: 3,
      items: [
        { localeId: 'fr-FR', lastModified: uploaded },
        { localeId: 'de-DE', lastModified: changed },
        { localeId: 'ja-JP', lastModified: uploaded },
      ],
    })
    const after = await f.get(`/file/last-modified?fileUri=m.json&lastModifiedAfter=${q(uploaded)}`)
    expect(after.body.response.data).toEqual({
      totalCount: 1,
      items: [{ localeId: 'de-DE', lastModified: changed }],
    })
    const none = await f.get(`/file/last-modified?fileUri=m.json&lastModifiedAfter=${q(changed)}`)
    expect(none.body.response.data).toEqual({ totalCount: 0, items: [] })
    const one = await f.get('/locales/de-DE/file/last-modified?fileUri=m.json')
    expect(one.body.response.data).toEqual({ localeId: 'de-DE', lastModified: changed })
    const unchanged = await f.get(
      `/locales/fr-FR/file/last-modified?fileUri=m.json&lastModifiedAfter=${q(uploaded)}`,
    )
    expect(unchanged.body.response.data).toEqual({ localeId: 'fr-FR', lastModified: null })
    expect(errorOf(await f.get('/locales/fr-FR/file/last-modified'))).toMatchObject({
      status: 400,
      field: 'fileUri',
    })
  })
})

describe('import translations', () => {
  const source = '{"a": "Hello {name}", "b": "Save", "c": "Cancel"}'

  it('imports PUBLISHED translations by key, with the source placeholders, and reports errors', async () => {
    await f.put('i.json', 'json', source, KEY_PATHS)
    const r = await f.form(
      '/locales/fr-FR/file/import',
      { fileUri: 'i.json', fileType: 'json', translationState: 'PUBLISHED' },
      { content: '{"a": "Bonjour {name}", "b": "Enregistrer", "c": "Cancel", "zz": "Inconnu", "x": "y"}' },
    )
    expect(r.status).toBe(200)
    expect(r.body.response.data).toEqual({
      // Placeholders are no words: "Hello {0}" has one.
      wordCount: 2,
      stringCount: 2,
      translationImportErrors: [
        {
          key: 'string_not_found',
          message: 'zz: no string with this key in i.json',
          details: { stringKey: 'zz' },
        },
        {
          key: 'string_not_found',
          message: 'x: no string with this key in i.json',
          details: { stringKey: 'x' },
        },
      ],
    })
    expect(JSON.parse((await f.download('/locales/fr-FR/file?fileUri=i.json')).text)).toEqual({
      a: 'Bonjour {name}',
      b: 'Enregistrer',
      c: 'Cancel',
    })
    // Imported strings are in the locale's workflow: the translations API returns them.
    const tr = await t.api('GET', `${STRINGS}/translations?targetLocaleId=fr-FR&fileUri=i.json`)
    expect(
      tr.body.response.data.items.map(
        (i: { translations: { translation: string }[] }) => i.translations[0]?.translation,
      ),
    ).toEqual(['Bonjour {0}', 'Enregistrer'])
  })

  it('imports POST_TRANSLATION as pending, keeps existing translations unless overwrite=true', async () => {
    await f.put('i.json', 'json', source, KEY_PATHS)
    await f.translate('i.json', 'de-DE', { b: 'Speichern' })
    const first = await f.form(
      '/locales/de-DE/file/import',
      { fileUri: 'i.json', fileType: 'json', translationState: 'POST_TRANSLATION' },
      { content: '{"b": "Sichern", "c": "Abbrechen"}' },
    )
    expect(first.body.response.data.stringCount).toBe(1)
    const published = JSON.parse((await f.download('/locales/de-DE/file?fileUri=i.json')).text)
    const pending = JSON.parse(
      (await f.download('/locales/de-DE/file?fileUri=i.json&retrievalType=pending')).text,
    )
    expect([published.b, published.c, pending.c]).toEqual(['Speichern', 'Cancel', 'Abbrechen'])
    const second = await f.form(
      '/locales/de-DE/file/import',
      { fileUri: 'i.json', fileType: 'json', translationState: 'PUBLISHED', overwrite: 'true' },
      { content: '{"b": "Sichern"}' },
    )
    expect(second.body.response.data.stringCount).toBe(1)
    expect(JSON.parse((await f.download('/locales/de-DE/file?fileUri=i.json')).text).b).toBe('Sichern')
  })

  it('rejects a translation without the source placeholders, and bad fields', async () => {
    await f.put('i.json', 'json', source, KEY_PATHS)
    const r = await f.form(
      '/locales/fr-FR/file/import',
      { fileUri: 'i.json', fileType: 'json', translationState: 'PUBLISHED' },
      { content: '{"a": "Bonjour"}' },
    )
    expect(r.body.response.data.translationImportErrors).toEqual([
      {
        key: 'placeholder_mismatch',
        message: 'a: the translation lacks the placeholders {name} of the source',
        details: { stringKey: 'a' },
      },
    ])
    const file = { content: '{}' }
    const base = { fileUri: 'i.json', fileType: 'json', translationState: 'PUBLISHED' }
    expect(
      errorOf(await f.form('/locales/fr-FR/file/import', { ...base, translationState: 'DONE' }, file)),
    ).toMatchObject({
      status: 400,
      field: 'translationState',
    })
    expect(
      errorOf(await f.form('/locales/fr-FR/file/import', { ...base, fileType: 'csv' }, file)),
    ).toMatchObject({
      status: 400,
      field: 'fileType',
    })
    expect(
      errorOf(await f.form('/locales/fr-FR/file/import', { ...base, fileUri: 'no.json' }, file)),
    ).toMatchObject({
      status: 404,
    })
    expect(errorOf(await f.form('/locales/xx-XX/file/import', base, file))).toMatchObject({
      status: 400,
      field: 'localeId',
    })
    expect(errorOf(await f.form('/locales/fr-FR/file/import', base))).toMatchObject({
      status: 400,
      field: 'file',
    })
  })

  it('refuses an import into a JSON file uploaded without source_key_paths, as the spec says', async () => {
    await f.put('n.json', 'json', source)
    const r = await f.form(
      '/locales/fr-FR/file/import',
      { fileUri: 'n.json', fileType: 'json', translationState: 'PUBLISHED' },
      { content: '{"b": "Enregistrer"}' },
    )
    expect(errorOf(r)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'fileType' })
    expect(r.body.response.errors[0].message).toBe(
      "fileType: n.json (json) was uploaded without source_key_paths: an import into a json file needs it defined at upload (the upload's svc.source_key_paths field, e.g. /{*})",
    )
    expect(JSON.parse((await f.download('/locales/fr-FR/file?fileUri=n.json')).text).b).toBe('Save')
  })

  it('reads a translated .po by its msgstr', async () => {
    await f.put(
      'm.pot',
      'gettext',
      'msgid "Open"\nmsgstr ""\n\nmsgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
    )
    const r = await f.form(
      '/locales/fr-FR/file/import',
      { fileUri: 'm.pot', fileType: 'gettext', translationState: 'PUBLISHED' },
      {
        content:
          'msgid "Open"\nmsgstr "Ouvrir"\n\nmsgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "Un fichier"\nmsgstr[1] "%d fichiers"\n',
      },
    )
    expect(r.body.response.data).toMatchObject({ stringCount: 3, translationImportErrors: [] })
    expect((await f.download('/locales/fr-FR/file?fileUri=m.pot')).text).toBe(
      'msgid "Open"\nmsgstr "Ouvrir"\n\nmsgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "Un fichier"\nmsgstr[1] "%d fichiers"\n',
    )
  })
})

describe('translations for a temporary file', () => {
  it('translates the uploaded file against the stored one without replacing it', async () => {
    await f.put('main.json', 'json', '{"a": "Save", "b": "Cancel"}')
    await f.translate('main.json', 'fr-FR', { a: 'Enregistrer', b: 'Annuler' })
    const d = await f.formRaw(
      '/locales/fr-FR/file/get-translations',
      { fileUri: 'main.json' },
      { content: '{\n  "b": "Cancel",\n  "new": "Brand new"\n}\n' },
    )
    expect(d.status).toBe(200)
    expect(d.headers.get('content-type')).toBe('application/json; charset=UTF-8')
    expect(d.headers.get('content-disposition')).toContain('filename="main.json"')
    expect(d.text).toBe('{\n  "b": "Annuler",\n  "new": "Brand new"\n}\n')
    const emptied = await f.formRaw(
      '/locales/fr-FR/file/get-translations',
      { fileUri: 'main.json', includeOriginalStrings: 'false', retrievalType: 'published' },
      { content: '{"b": "Cancel", "new": "Brand new"}' },
    )
    expect(emptied.text).toBe('{"b": "Annuler", "new": ""}')
    expect((await f.download('/file?fileUri=main.json')).text).toBe('{"a": "Save", "b": "Cancel"}')
    expect((await f.sourceStrings('main.json')).map((s) => s.parsedStringText)).toEqual(['Save', 'Cancel'])
    const bad = await f.form(
      '/locales/fr-FR/file/get-translations',
      { fileUri: 'main.json' },
      { content: '{"a": ' },
    )
    expect(errorOf(bad)).toMatchObject({ status: 400, key: 'file_parse_error' })
  })
})

describe('zip download', () => {
  beforeEach(async () => {
    await f.put('web/i18n/app.json', 'json', '{"a": "Save"}')
    await f.put('web/messages.pot', 'gettext', 'msgid "Save"\nmsgstr ""\n')
    await f.translate('web/i18n/app.json', 'fr-FR', { a: 'Enregistrer' })
  })

  const zip = async (query: string) => {
    const d = await f.download(
      `/files/zip?fileUris[]=web%2Fi18n%2Fapp.json&fileUris[]=web%2Fmessages.pot&localeIds[]=fr-FR&localeIds[]=de-DE${query}`,
    )
    expect(d.status).toBe(200)
    expect(d.headers.get('content-type')).toBe('application/zip')
    const entries = unzipSync(new Uint8Array(d.bytes))
    return { names: Object.keys(entries).sort(), entries, disposition: d.headers.get('content-disposition') }
  }

  it('lays out names per fileNameMode and localeMode', async () => {
    const cases: [string, string[]][] = [
      [
        '',
        [
          'de-DE/web/i18n/app.json',
          'de-DE/web/messages.po',
          'fr-FR/web/i18n/app.json',
          'fr-FR/web/messages.po',
        ],
      ],
      [
        '&fileNameMode=TRIM_LEADING',
        ['de-DE/app.json', 'de-DE/messages.po', 'fr-FR/app.json', 'fr-FR/messages.po'],
      ],
      [
        '&fileNameMode=LOCALE_LAST',
        [
          'web/de-DE/messages.po',
          'web/fr-FR/messages.po',
          'web/i18n/de-DE/app.json',
          'web/i18n/fr-FR/app.json',
        ],
      ],
      [
        '&localeMode=LOCALE_IN_NAME',
        [
          'web/i18n/app_de-DE.json',
          'web/i18n/app_fr-FR.json',
          'web/messages_de-DE.po',
          'web/messages_fr-FR.po',
        ],
      ],
      [
        '&localeMode=LOCALE_IN_NAME_AND_PATH&fileNameMode=TRIM_LEADING',
        [
          'de-DE/app_de-DE.json',
          'de-DE/messages_de-DE.po',
          'fr-FR/app_fr-FR.json',
          'fr-FR/messages_fr-FR.po',
        ],
      ],
      [
        '&localeMode=LOCALE_IN_PATH&fileNameMode=UNCHANGED',
        [
          'de-DE/web/i18n/app.json',
          'de-DE/web/messages.po',
          'fr-FR/web/i18n/app.json',
          'fr-FR/web/messages.po',
        ],
      ],
    ]
    for (const [query, names] of cases) expect((await zip(query)).names, query).toEqual(names)
  })

  it('holds the same bytes as the single downloads and is named by zipFileName', async () => {
    const { entries, disposition } = await zip('&zipFileName=out.zip&retrievalType=published')
    const single = await f.download('/locales/fr-FR/file?fileUri=web%2Fi18n%2Fapp.json')
    expect(Buffer.from(entries['fr-FR/web/i18n/app.json']!).equals(single.bytes)).toBe(true)
    expect(Buffer.from(entries['de-DE/web/i18n/app.json']!).toString()).toBe('{"a": "Save"}')
    expect(disposition).toContain('filename="out.zip"')
    expect((await zip('')).disposition).toContain('filename="translations.zip"')
  })

  it('validates its parameters and refuses entries that would collide', async () => {
    expect(errorOf(await f.get('/files/zip?localeIds[]=fr-FR'))).toMatchObject({
      status: 400,
      field: 'fileUris[]',
    })
    expect(errorOf(await f.get('/files/zip?fileUris[]=web%2Fmessages.pot'))).toMatchObject({
      status: 400,
      field: 'localeIds[]',
    })
    expect(errorOf(await f.get('/files/zip?fileUris[]=nope&localeIds[]=fr-FR'))).toMatchObject({
      status: 404,
    })
    expect(
      errorOf(
        await f.get('/files/zip?fileUris[]=web%2Fmessages.pot&localeIds[]=fr-FR&localeMode=LOCALE_SOMEWHERE'),
      ),
    ).toMatchObject({ status: 400, field: 'localeMode' })
    await f.put('other/app.json', 'json', '{"b": "Cancel"}')
    const clash = await f.get(
      '/files/zip?fileUris[]=web%2Fi18n%2Fapp.json&fileUris[]=other%2Fapp.json&localeIds[]=fr-FR&fileNameMode=TRIM_LEADING',
    )
    expect(errorOf(clash)).toMatchObject({ status: 400, field: 'fileNameMode' })
  })
})

describe('locks and the operation limit', () => {
  it('answers RESOURCE_LOCKED while an operation holds the file, until it completes', async () => {
    // A minute: the checks below must all fall inside it on a busy machine.
    await config({ fileOperationMs: 60_000 })
    await f.put('l.json', 'json', '{"a": "A"}', KEY_PATHS)
    const again = await f.upload({ fileUri: 'l.json', fileType: 'json' }, { content: '{"a": "B"}' })
    expect(errorOf(again)).toMatchObject({ status: 423, code: 'RESOURCE_LOCKED', key: 'resource_locked' })
    expect(errorOf(await f.form('/file/rename', { fileUri: 'l.json', newFileUri: 'm.json' }))).toMatchObject({
      status: 423,
    })
    expect(errorOf(await f.form('/file/delete', { fileUri: 'l.json' }))).toMatchObject({ status: 423 })
    const imp = await f.form(
      '/locales/fr-FR/file/import',
      { fileUri: 'l.json', fileType: 'json', translationState: 'PUBLISHED' },
      { content: '{"a": "Ah"}' },
    )
    expect(errorOf(imp)).toMatchObject({ status: 423 })
    // Reads are not locked.
    expect((await f.download('/file?fileUri=l.json')).text).toBe('{"a": "A"}')
    await advance(60_000)
    expect((await f.upload({ fileUri: 'l.json', fileType: 'json' }, { content: '{"a": "B"}' })).status).toBe(
      200,
    )
  })

  it('allows 10 simultaneous file operations per project and answers 429 beyond', async () => {
    await config({ fileOperationMs: 60_000, retryAfterSeconds: 5 })
    for (let i = 0; i < 10; i++) await f.put(`f${i}.json`, 'json', `{"a": "File ${i}"}`)
    const eleventh = await f.upload({ fileUri: 'f10.json', fileType: 'json' }, { content: '{"a": "x"}' })
    expect(errorOf(eleventh)).toMatchObject({ status: 429, code: 'MAX_OPERATIONS_LIMIT_EXCEEDED' })
    expect(eleventh.headers.get('retry-after')).toBe('5')
    await advance(60_000)
    expect(
      (await f.upload({ fileUri: 'f10.json', fileType: 'json' }, { content: '{"a": "x"}' })).status,
    ).toBe(200)
  })

  it('answers 202 with a message when the upload takes longer than the synchronous window', async () => {
    await config({ fileOperationMs: 90_000 })
    const r = await f.upload({ fileUri: 'slow.json', fileType: 'json' }, { content: '{"a": "A"}' })
    expect(r.status).toBe(202)
    expect(r.body.response.code).toBe('ACCEPTED')
    expect(Object.keys(r.body.response.data)).toEqual(['message'])
  })
})

describe('file published callback', () => {
  let receiver: Receiver
  let base: string
  const received: URL[] = []

  beforeAll(async () => {
    receiver = await startReceiver((req) => {
      received.push(new URL(req.url, base))
    })
    base = receiver.base
  })
  afterAll(() => receiver.close())
  beforeEach(() => {
    received.length = 0
  })

  it('sends one GET with locale and fileUri once every string of the file is published', async () => {
    await f.put('cb.json', 'json', '{"a": "One", "b": "Two"}', { callbackUrl: `${base}/hook?k=v` })
    await f.translate('cb.json', 'fr-FR', { a: 'Un' })
    await f.translate('cb.json', 'fr-FR', { b: 'Deux' }, false)
    await f.translate('cb.json', 'de-DE', { a: 'Eins', b: 'Zwei' }, false)
    expect((await t.control('GET', '/callbacks')).body.response.data.totalCount).toBe(0)
    await f.translate('cb.json', 'fr-FR', { b: 'Deux' })
    await eventually(async () => (received.length === 1 ? true : undefined))
    expect(received[0]!.pathname).toBe('/hook')
    expect(Object.fromEntries(received[0]!.searchParams)).toEqual({
      k: 'v',
      locale: 'fr-FR',
      fileUri: 'cb.json',
    })
    // A later publish in the same locale sends nothing more.
    await f.translate('cb.json', 'fr-FR', { a: 'Un !' })
    const deliveries = (await t.control('GET', '/callbacks')).body.response.data
    expect(deliveries.items.map((d: { event: string; method: string }) => `${d.event} ${d.method}`)).toEqual([
      'file.published GET',
    ])
  })

  it('a re-upload without callbackUrl removes the callback', async () => {
    await f.put('cb.json', 'json', '{"a": "One"}', { callbackUrl: `${base}/hook` })
    await f.put('cb.json', 'json', '{"a": "One"}')
    await f.translate('cb.json', 'fr-FR', { a: 'Un' })
    expect((await t.control('GET', '/callbacks')).body.response.data.totalCount).toBe(0)
  })
})
