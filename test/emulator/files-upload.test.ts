import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { filesApi } from './files-helpers'
import { errorOf, PROJECT, STRINGS, useEmulator } from './helpers'

const t = useEmulator()
const f = filesApi(t)

const md5 = (namespace: string, variant: string, parsed: string) =>
  createHash('md5').update(`${namespace}\u0000${variant}\u0000${parsed}`).digest('hex')

async function translations(localeId: string, fileUri: string) {
  const r = await t.api(
    'GET',
    `${STRINGS}/translations?targetLocaleId=${localeId}&fileUri=${encodeURIComponent(fileUri)}`,
  )
  expect(r.status).toBe(200)
  return r.body.response.data as {
    totalCount: number
    items: { hashcode: string; translations: { translation: string }[] }[]
  }
}

describe('upload validation', () => {
  it('names the missing or wrong field', async () => {
    const file = { content: '{"a": "A"}' }
    expect(errorOf(await f.upload({ fileType: 'json' }, file))).toMatchObject({
      status: 400,
      field: 'fileUri',
    })
    expect(errorOf(await f.upload({ fileUri: 'a.json' }, file))).toMatchObject({
      status: 400,
      field: 'fileType',
    })
    expect(errorOf(await f.upload({ fileUri: 'a.json', fileType: 'docx' }, file))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'fileType',
    })
    expect(errorOf(await f.upload({ fileUri: 'a.json', fileType: 'json' }))).toMatchObject({
      status: 400,
      field: 'file',
    })
    expect(
      errorOf(await f.upload({ fileUri: 'a.json', fileType: 'json', colour: 'red' }, file)),
    ).toMatchObject({
      status: 400,
      key: 'unknown_field',
      field: 'colour',
    })
    expect(
      errorOf(await f.upload({ fileUri: 'a.json', fileType: 'json', callbackUrl: 'ftp://x/y' }, file)),
    ).toMatchObject({ status: 400, field: 'callbackUrl' })
    expect(
      errorOf(await f.upload({ fileUri: 'a.json', fileType: 'json', authorize: 'yes' }, file)),
    ).toMatchObject({
      status: 400,
      field: 'authorize',
    })
    // Nothing was stored by the refused uploads.
    expect((await f.get('/files/list')).body.response.data.totalCount).toBe(0)
  })

  it('refuses authorize=true together with localeIdsToAuthorize[], and locales outside the project', async () => {
    const file = { content: '{"a": "A"}' }
    const both = await f.upload(
      { fileUri: 'a.json', fileType: 'json', authorize: 'true', 'localeIdsToAuthorize[]': ['fr-FR'] },
      file,
    )
    expect(errorOf(both)).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'localeIdsToAuthorize',
    })
    const unknown = await f.upload(
      { fileUri: 'a.json', fileType: 'json', 'localeIdsToAuthorize[]': ['fr-FR', 'xx-XX'] },
      file,
    )
    expect(errorOf(unknown)).toMatchObject({ status: 400, field: 'localeIdsToAuthorize[1]' })
  })

  it('names the file and the line of a file its parser cannot read', async () => {
    const r = await f.upload(
      { fileUri: 'i18n/bad.json', fileType: 'json' },
      { content: '{\n  "a": "A",\n  "b": }\n' },
    )
    expect(errorOf(r)).toMatchObject({ status: 400, key: 'file_parse_error', field: 'file' })
    expect(r.body.response.errors[0].message).toBe(
      'file: i18n/bad.json is not a valid json file: line 3: unexpected "}"',
    )
    const po = await f.upload(
      { fileUri: 'x.po', fileType: 'gettext' },
      { content: 'msgid "a"\nmsgstr "b"\nmsgfoo "c"\n' },
    )
    expect(po.body.response.errors[0].message).toContain('line 3: unknown keyword')
    const csv = await f.upload({ fileUri: 'x.csv', fileType: 'csv' }, { content: 'key,text\na,"open\n' })
    expect(csv.body.response.errors[0].message).toContain('line 2: unterminated quoted field')
    const yaml = await f.upload({ fileUri: 'x.yml', fileType: 'yaml' }, { content: 'a: b\n  c: d\n' })
    expect(errorOf(yaml)).toMatchObject({ status: 400, key: 'file_parse_error' })
  })
})

describe('upload results', () => {
  it('counts distinct strings and their words, placeholders left out', async () => {
    const r = await f.put('a.json', 'json', '{"a": "Hello {name}, welcome back", "b": "Save", "c": "Save"}')
    expect(r).toEqual({ overWritten: false, stringCount: 2, wordCount: 4 })
    const listed = await f.sourceStrings('a.json')
    expect(listed.map((s) => [s.parsedStringText, s.keys])).toEqual([
      ['Hello {0}, welcome back', ['a']],
      ['Save', ['b', 'c']],
    ])
  })

  it('derives hashcodes from the fileUri as namespace, or from svc.namespace', async () => {
    await f.put('one.json', 'json', '{"t": "Title"}')
    await f.put('two.json', 'json', '{"t": "Title"}')
    const [one] = await f.sourceStrings('one.json')
    const [two] = await f.sourceStrings('two.json')
    expect(one!.hashcode).toBe(md5('one.json', '', 'Title'))
    expect(two!.hashcode).toBe(md5('two.json', '', 'Title'))

    await f.put('a/shared.json', 'json', '{"x": "Shared"}', { 'svc.namespace': 'app' })
    await f.put('b/shared.json', 'json', '{"y": "Shared"}', { 'svc.namespace': 'app' })
    const [a] = await f.sourceStrings('a/shared.json')
    const [b] = await f.sourceStrings('b/shared.json')
    expect(a!.hashcode).toBe(md5('app', '', 'Shared'))
    expect(b).toEqual(a)
    expect(a!.keys).toEqual(['x', 'y'])
    const status = (await f.get('/file/status?fileUri=a%2Fshared.json')).body.response.data
    expect(status.namespace).toEqual({ name: 'app' })
  })

  it('gives gettext contexts as variants and extracted comments as instructions', async () => {
    await f.put(
      'm.po',
      'gettext',
      '#. On the toolbar\nmsgctxt "verb"\nmsgid "Open"\nmsgstr ""\n\nmsgctxt "adjective"\nmsgid "Open"\nmsgstr ""\n',
    )
    const listed = await f.sourceStrings('m.po')
    expect(listed.map((s) => [s.parsedStringText, s.stringVariant, s.hashcode])).toEqual([
      ['Open', 'verb', md5('m.po', 'verb', 'Open')],
      ['Open', 'adjective', md5('m.po', 'adjective', 'Open')],
    ])
    const list = (await f.get('/files/list')).body.response.data.items
    expect(list[0].hasInstructions).toBe(true)
  })

  it('authorizes nothing by default, every locale with authorize=true, or the listed locales', async () => {
    await f.put('none.json', 'json', '{"a": "One"}')
    await f.put('all.json', 'json', '{"a": "Two"}', { authorize: 'true' })
    await f.put('some.json', 'json', '{"a": "Three"}', {
      authorize: 'false',
      'localeIdsToAuthorize[]': ['fr-FR', 'ja-JP'],
    })
    const counts = async (uri: string) =>
      Promise.all(['fr-FR', 'de-DE', 'ja-JP'].map(async (l) => (await translations(l, uri)).totalCount))
    expect(await counts('none.json')).toEqual([0, 0, 0])
    expect(await counts('all.json')).toEqual([1, 1, 1])
    expect(await counts('some.json')).toEqual([1, 0, 1])
  })

  it('overwrites on re-upload: removed strings leave, and come back with their translations', async () => {
    await f.put('a.json', 'json', '{"a": "Keep", "b": "Drop"}', { authorize: 'true' })
    await f.translate('a.json', 'fr-FR', { b: 'Lâcher' })
    const second = await f.put('a.json', 'json', '{"a": "Keep"}')
    expect(second).toEqual({ overWritten: true, stringCount: 1, wordCount: 1 })
    expect((await f.sourceStrings('a.json')).map((s) => s.parsedStringText)).toEqual(['Keep'])
    expect((await translations('fr-FR', 'a.json')).items.map((i) => i.translations)).toEqual([[]])
    await f.put('a.json', 'json', '{"a": "Keep", "b": "Drop"}')
    const back = await translations('fr-FR', 'a.json')
    expect(back.items.map((i) => i.translations.map((x) => x.translation))).toEqual([[], ['Lâcher']])
  })

  it('shares a string with the strings API when namespace and text match, keeping its stringText', async () => {
    const [hashcode] = await t.createStrings([{ stringText: 'Hello {name}' }], {
      namespace: 'web',
      placeholderFormatCustom: String.raw`\{\w+\}`,
    })
    await f.put('web.json', 'json', '{"greet": "Hello {user}"}', { 'svc.namespace': 'web' })
    const [listed] = await f.sourceStrings('web.json')
    expect(listed).toMatchObject({
      hashcode,
      stringText: 'Hello {name}',
      parsedStringText: 'Hello {0}',
      keys: ['greet'],
    })
    // A file-only string is inactive once no file holds it; this one came from the API and stays.
    const del = await f.form('/file/delete', { fileUri: 'web.json' })
    expect(del.status).toBe(200)
    const state = (await t.control('GET', '/state')).body.response.data.projects[0].strings
    expect(state.find((s: { hashcode: string }) => s.hashcode === hashcode).active).toBe(true)
  })

  it('keeps svc.* parser directives and reads placeholders by svc.placeholder_format', async () => {
    await f.put('p.json', 'json', '{"a": "%s of %d and {x}"}', {
      'svc.placeholder_format': 'c',
      'svc.whitespace': 'keep',
    })
    const [s] = await f.sourceStrings('p.json')
    expect(s!.parsedStringText).toBe('{0} of {1} and {x}')
    const status = (await f.get('/file/status?fileUri=p.json')).body.response.data
    expect(status.directives).toEqual({ placeholder_format: 'c', whitespace: 'keep' })
    const bad = await f.upload(
      { fileUri: 'q.json', fileType: 'json', 'svc.placeholder_format': 'cobol' },
      { content: '{}' },
    )
    expect(errorOf(bad)).toMatchObject({ status: 400, field: 'svc.placeholder_format' })
  })

  it('answers 401 without a token and 404 for an unknown project', async () => {
    const form = new FormData()
    form.append('fileUri', 'a.json')
    const anonymous = await fetch(`${t.url}/files-api/v2/projects/${PROJECT}/file`, {
      method: 'POST',
      body: form,
    })
    expect(anonymous.status).toBe(401)
    const token = await t.login()
    const other = await fetch(`${t.url}/files-api/v2/projects/nope/file`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(other.status).toBe(404)
  })
})
