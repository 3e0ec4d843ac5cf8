import { unzipSync, zipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { mergeZips, ZipMergeError } from '../../src/client/zip-merge'
import { useEmulator } from '../helpers/emulator'
import { failure } from '../helpers/failure'
import { CREDENTIALS, control, LOCALES, PROJECT, requestLog } from './emu'

// The emulator answers 414 to a request line over 16 KiB, as real front ends do: long id lists must
// be split by the client, and the pieces put back together.
const emu = useEmulator()
let client: TmsClient

afterEach(async () => {
  await client?.close()
})

function connect(): TmsClient {
  // The request-line limit these runs are counted against (the default is 6 KiB).
  client = createClient({ baseUrl: emu.url, ...CREDENTIALS, maxRequestLineBytes: 16 * 1024 })
  return client
}

const LIST_JOBS = 'GET /jobs-api/v3/projects/:projectId/jobs'
const ZIP = 'GET /files-api/v2/projects/:projectId/files/zip'
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('list jobs with many translationJobUids', () => {
  it('asks for 1,020 uids in runs below 16 KiB and returns each matching job once', async () => {
    const c = connect()
    const jobs = []
    for (let i = 0; i < 20; i++) jobs.push(await c.jobs.create(PROJECT, { jobName: `Release ${i}` }))
    // 1,000 uids of no job (36 characters, a UUID's length) with the 20 real ones spread among them,
    // and one repeated: 56 bytes each in the query, 57 KB in all.
    const uids = Array.from(
      { length: 1000 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    )
    for (const [i, job] of jobs.entries()) uids.splice(i * 50, 0, job.translationJobUid)
    uids.push(jobs[0]!.translationJobUid)
    await control(emu, 'DELETE', 'requests')

    const found = []
    for await (const job of c.jobs.list(PROJECT, { translationJobUids: uids })) found.push(job.jobName)
    expect(found.sort()).toEqual(jobs.map((j) => j.jobName).sort())
    // 1,020 distinct uids at 56 bytes: 4 runs of at most 290 (16,384 bytes less the rest of the line).
    expect((await requestLog(emu)).byRoute).toEqual({ [LIST_JOBS]: 4 })
  })

  it("one page request takes at most the spec's 500 uids, refused before sending", async () => {
    const c = connect()
    const uids = Array.from({ length: 501 }, (_, i) => `job-${i}`)
    const error = await failure(c.jobs.listPage(PROJECT, { translationJobUids: uids }))
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', attempts: 0 })
    expect(error.message).toBe(
      'GET /jobs-api/v3/projects/:projectId/jobs not sent: translationJobUids has 501 items; at most 500 per page request (list() takes any number)',
    )
    expect((await requestLog(emu)).total).toBe(0)
  })
})

describe('page functions with a request line too long to send', () => {
  it('jobs.listPage, sourceStringsPage and translationsPage refuse it before sending, naming list()', async () => {
    const c = connect()
    // 400 uids and 400 hashcodes of 36 characters: about 22 KB and 18 KB of query, over 16 KiB.
    const ids = Array.from(
      { length: 400 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    )
    const jobs = await failure(c.jobs.listPage(PROJECT, { translationJobUids: ids }))
    const source = await failure(c.strings.sourceStringsPage(PROJECT, { hashcodes: ids }))
    const translations = await failure(
      c.strings.translationsPage(PROJECT, { hashcodes: ids, targetLocaleId: LOCALES[0]! }),
    )
    expect([jobs, source, translations].map((e) => [e.code, e.attempts, e.message])).toEqual([
      [
        'INVALID_REQUEST',
        0,
        `GET /jobs-api/v3/projects/:projectId/jobs not sent: translationJobUids has 400 items: a request line of ${lineOf('/jobs-api/v3/projects/' + PROJECT + '/jobs', 'translationJobUids', ids)} bytes, over maxRequestLineBytes (16384); list() splits them into requests that fit`,
      ],
      [
        'INVALID_REQUEST',
        0,
        `GET /strings-api/v2/projects/:projectId/source-strings not sent: hashcodes has 400 items: a request line of ${lineOf('/strings-api/v2/projects/' + PROJECT + '/source-strings', 'hashcodes', ids)} bytes, over maxRequestLineBytes (16384); sourceStrings() splits them into requests that fit`,
      ],
      [
        'INVALID_REQUEST',
        0,
        `GET /strings-api/v2/projects/:projectId/translations not sent: hashcodes has 400 items: a request line of ${lineOf('/strings-api/v2/projects/' + PROJECT + '/translations', 'hashcodes', ids, `&targetLocaleId=${LOCALES[0]}`)} bytes, over maxRequestLineBytes (16384); translations() splits them into requests that fit`,
      ],
    ])
    expect((await requestLog(emu)).total).toBe(0)
    // Within the line, a page is sent as before.
    expect((await c.jobs.listPage(PROJECT, { translationJobUids: ids.slice(0, 10) })).items).toEqual([])
  })
})

/** The request line of GET `path?name=v1&name=v2...` plus `rest`, in bytes. */
function lineOf(path: string, name: string, values: string[], rest = ''): number {
  return Buffer.byteLength(`GET ${path}?${values.map((v) => `${name}=${v}`).join('&')}${rest} HTTP/1.1\r\n`)
}

describe('zip download of many files', () => {
  // 40 files whose URIs are about 430 bytes each: 17 KB of fileUris[] in one request line.
  const folder = `${'translations/'.repeat(32)}app`
  const uriOf = (i: number) => `${folder}/screen-${String(i).padStart(2, '0')}.json`

  async function uploadFiles(c: TmsClient, uris: string[]): Promise<void> {
    for (const [i, fileUri] of uris.entries()) {
      await c.files.upload(PROJECT, { fileUri, fileType: 'json', file: `{"title": "Screen ${i}"}` })
    }
  }

  it('asks in two requests and returns one archive with every file in every locale', async () => {
    const c = connect()
    const uris = Array.from({ length: 40 }, (_, i) => uriOf(i))
    await uploadFiles(c, uris)
    await control(emu, 'DELETE', 'requests')

    const zip = await c.files.downloadZip(PROJECT, { fileUris: uris, localeIds: [...LOCALES] })
    expect((await requestLog(emu)).byRoute).toEqual({ [ZIP]: 2 })
    expect(zip.fileName).toBe('translations.zip')
    expect(zip.contentType).toBe('application/zip')
    const entries = unzipSync(zip.body)
    // In the order asked: file by file, each in every locale.
    expect(Object.keys(entries)).toEqual(uris.flatMap((u) => LOCALES.map((l) => `${l}/${u}`)))
    // Nothing is translated: the source comes back (includeOriginalStrings defaults to true).
    expect(text(entries[`ja-JP/${uris[39]}`]!)).toBe('{"title": "Screen 39"}')
    expect(text(entries[`fr-FR/${uris[0]}`]!)).toBe('{"title": "Screen 0"}')
  })

  it('two files stored under one name in different requests are refused as the service refuses them in one', async () => {
    const c = connect()
    // The first and the last file share their file name, and land in different requests.
    const uris = Array.from({ length: 40 }, (_, i) => uriOf(i))
    uris[0] = `a/${uriOf(99)}`
    uris[39] = `b/${uriOf(99)}`
    await uploadFiles(c, uris)
    const error = await failure(
      c.files.downloadZip(PROJECT, { fileUris: uris, localeIds: ['fr-FR'], fileNameMode: 'TRIM_LEADING' }),
    )
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.message).toBe(
      'GET /files-api/v2/projects/demo-project/files/zip failed: two files would both be stored as fr-FR/screen-99.json in the archive (fileNameMode TRIM_LEADING, localeMode LOCALE_IN_PATH); choose another fileNameMode or localeMode',
    )
  })
})

describe('mergeZips', () => {
  const archive = (files: Record<string, string>, level: 0 | 6) =>
    zipSync(
      Object.fromEntries(Object.entries(files).map(([name, body]) => [name, new TextEncoder().encode(body)])),
      { level },
    )

  it('joins stored and deflated archives entry for entry; one archive is returned as it is', () => {
    const a = archive({ 'fr-FR/a.json': 'A'.repeat(500), 'fr-FR/b.json': 'b' }, 6)
    const b = archive({ 'de-DE/a.json': 'Ä', 'de-DE/c/d.json': '' }, 0)
    const joined = unzipSync(mergeZips([a, b]))
    expect(Object.fromEntries(Object.entries(joined).map(([name, bytes]) => [name, text(bytes)]))).toEqual({
      'fr-FR/a.json': 'A'.repeat(500),
      'fr-FR/b.json': 'b',
      'de-DE/a.json': 'Ä',
      'de-DE/c/d.json': '',
    })
    expect(mergeZips([a])).toBe(a)
  })

  it('refuses what is not a ZIP archive and duplicate names', () => {
    const a = archive({ 'x.json': '1' }, 0)
    expect(() => mergeZips([a, new TextEncoder().encode('<html>502</html>')])).toThrow(
      new ZipMergeError('archive 2 is not a ZIP archive (no end of central directory)'),
    )
    expect(() => mergeZips([a, a])).toThrow('two files would both be stored as x.json in the archive')
  })
})
