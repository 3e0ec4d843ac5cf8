import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { envelope, type Hit, type RawServer, startRawServer } from './raw-server'

/**
 * The wire format of the areas whose emulator routes are not there yet (jobs, issues, files,
 * glossaries): exact request lines and bodies, against a bare server on 127.0.0.1.
 */
let server: RawServer | null = null
let client: TmsClient | null = null

afterEach(async () => {
  await client?.close()
  await server?.close()
  client = null
  server = null
})

type Handler = (hit: Hit, res: ServerResponse, index: number) => void

async function serve(handler: Handler): Promise<TmsClient> {
  server = await startRawServer(handler)
  client = createClient({
    baseUrl: server.url,
    userIdentifier: 'u1',
    userSecret: 'secret-1',
    pollIntervalMs: 5,
    retry: { retries: 3, minDelayMs: 1, maxDelayMs: 5, maxTotalMs: 5000 },
  })
  return client
}

const ok = (res: ServerResponse, data: unknown) => envelope(res, 200, { code: 'SUCCESS', data })
const calls = () =>
  server!.hits.filter((h) => !h.url.startsWith('/auth-api')).map((h) => `${h.method} ${h.url}`)

describe('files', () => {
  it('sends array parameters as name[] repeated, even for one value', async () => {
    const c = await serve((_hit, res) => {
      res.writeHead(200, {
        'content-type': 'application/zip',
        'content-disposition': 'attachment; filename="out.zip"',
      })
      res.end(Buffer.from([0x50, 0x4b, 3, 4]))
    })
    const zip = await c.files.downloadZip('p1', {
      fileUris: ['i18n/app.json'],
      localeIds: ['fr-FR', 'de-DE'],
      retrievalType: 'published',
      fileNameMode: 'LOCALE_LAST',
    })
    expect(zip).toEqual({
      body: new Uint8Array([0x50, 0x4b, 3, 4]),
      contentType: 'application/zip',
      fileName: 'out.zip',
    })
    expect(calls()).toEqual([
      'GET /files-api/v2/projects/p1/files/zip?fileUris[]=i18n%2Fapp.json&localeIds[]=fr-FR&localeIds[]=de-DE&retrievalType=published&fileNameMode=LOCALE_LAST',
    ])
  })

  it('a non-200 download is the envelope error, no file', async () => {
    const c = await serve((_hit, res) =>
      envelope(res, 404, {
        code: 'NOT_FOUND_ERROR',
        errors: [{ key: 'file.not.found', message: 'File not found: a.json' }],
      }),
    )
    const error = await c.files
      .downloadTranslated('p1', 'fr-FR', { fileUri: 'a.json' })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404, errors: [{ key: 'file.not.found' }] })
    expect(calls()).toEqual(['GET /files-api/v2/projects/p1/locales/fr-FR/file?fileUri=a.json'])
  })

  it('uploads multipart with the spec field names', async () => {
    const c = await serve((_hit, res) => ok(res, { overWritten: false, stringCount: 2, wordCount: 3 }))
    const result = await c.files.upload('p1', {
      file: '{"a":"Hello"}',
      fileUri: 'i18n/en.json',
      fileType: 'json',
      localeIdsToAuthorize: ['fr-FR', 'de-DE'],
      namespace: 'web',
      directives: { placeholder_format_custom: '\\{\\w+\\}' },
    })
    expect(result).toEqual({ overWritten: false, stringCount: 2, wordCount: 3 })
    const hit = server!.hits.find((h) => h.url === '/files-api/v2/projects/p1/file')!
    expect(hit.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    const names = [...hit.body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1])
    expect(names).toEqual([
      'file',
      'fileUri',
      'fileType',
      'localeIdsToAuthorize[]',
      'localeIdsToAuthorize[]',
      'svc.namespace',
      'svc.placeholder_format_custom',
    ])
    expect(hit.body).toContain('filename="en.json"')
    expect(hit.body).toContain('{"a":"Hello"}')
  })

  it('refuses authorize together with localeIdsToAuthorize before sending', async () => {
    const c = await serve((_hit, res) => ok(res, {}))
    const error = await c.files
      .upload('p1', {
        file: 'x',
        fileUri: 'a.json',
        fileType: 'json',
        authorize: true,
        localeIdsToAuthorize: ['fr-FR'],
      })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'INVALID_REQUEST',
      errors: [{ details: { field: 'localeIdsToAuthorize' } }],
    })
    expect(server!.hits).toHaveLength(0)
  })
})

describe('glossaries', () => {
  it('sends glossaryUids comma separated, 100 per request', async () => {
    const c = await serve((hit, res) => {
      const uids = new URL(hit.url, 'http://x').searchParams.get('glossaryUids')!.split(',')
      ok(res, {
        totalCount: uids.length,
        items: uids.map((glossaryUid) => ({ glossaryUid, name: glossaryUid })),
      })
    })
    const uids = Array.from({ length: 150 }, (_, i) => `g${i}`)
    const got = []
    for await (const g of c.glossaries.list('acc', { name: 'Web', glossaryUids: uids }))
      got.push(g.glossaryUid)
    expect(got).toEqual(uids)
    expect(calls()).toEqual([
      `GET /glossary-api/v2/accounts/acc/glossaries?name=Web&glossaryUids=${uids.slice(0, 100).join(',')}`,
      `GET /glossary-api/v2/accounts/acc/glossaries?name=Web&glossaryUids=${uids.slice(100).join(',')}`,
    ])
  })
})

describe('issues', () => {
  it('pages find issues through the body', async () => {
    const c = await serve((hit, res) => {
      const { offset, limit } = JSON.parse(hit.body) as { offset: number; limit: number }
      const items = Array.from({ length: Math.max(0, Math.min(limit, 250 - offset)) }, (_, i) => ({
        issueUid: `i${offset + i}`,
      }))
      ok(res, { totalCount: 250, items })
    })
    const got = []
    for await (const issue of c.issues.find('p1', { issueStateCodes: ['OPENED'] })) got.push(issue.issueUid)
    expect(got).toHaveLength(250)
    expect(got[249]).toBe('i249')
    const bodies = server!.hits.filter((h) => h.url.endsWith('/issues/list')).map((h) => JSON.parse(h.body))
    expect(bodies).toEqual([
      { issueStateCodes: ['OPENED'], offset: 0, limit: 100 },
      { issueStateCodes: ['OPENED'], offset: 100, limit: 100 },
      { issueStateCodes: ['OPENED'], offset: 200, limit: 100 },
    ])
  })

  it('refuses issue text over 4000 characters before sending', async () => {
    const c = await serve((_hit, res) => ok(res, {}))
    const error = await c.issues.editText('p1', 'i1', 'x'.repeat(4001)).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('issueText has 4001 characters'),
    })
    expect(server!.hits).toHaveLength(0)
  })
})

describe('jobs', () => {
  const process = (state: string) => ({
    processUid: 'proc-1',
    translationJobUid: 'job-1',
    processState: state,
    createdDate: '2026-01-01T00:00:00Z',
    modifiedDate: '2026-01-01T00:00:00Z',
  })

  it('list jobs repeats array names', async () => {
    const c = await serve((_hit, res) => ok(res, { totalCount: 0, items: [] }))
    await c.jobs.listPage('p1', { jobName: 'Release 1', translationJobStatus: ['DRAFT', 'IN_PROGRESS'] })
    expect(calls()).toEqual([
      'GET /jobs-api/v3/projects/p1/jobs?jobName=Release%201&translationJobStatus=DRAFT&translationJobStatus=IN_PROGRESS',
    ])
  })

  it('adds strings 1000 at a time and follows a 202 job process to completion', async () => {
    let polls = 0
    const c = await serve((hit, res) => {
      if (hit.url.endsWith('/strings/add')) {
        const { hashcodes } = JSON.parse(hit.body) as { hashcodes: string[] }
        if (hashcodes.length === 500) {
          return envelope(res, 202, {
            code: 'ACCEPTED',
            data: {
              message: 'Adding strings is in progress',
              url: `${server!.url}/jobs-api/v3/projects/p1/jobs/job-1/processes/proc-1`,
            },
          })
        }
        return ok(res, { successCount: hashcodes.length, failCount: 0 })
      }
      polls++
      ok(res, process(polls < 3 ? 'IN_PROGRESS' : 'COMPLETED'))
    })
    const hashcodes = Array.from({ length: 2500 }, (_, i) => i.toString(16).padStart(32, '0'))
    const result = await c.jobs.addStrings('p1', 'job-1', { hashcodes, targetLocaleIds: ['fr-FR'] })
    expect(result).toEqual({ successCount: 2000, failCount: 0, processes: [process('COMPLETED')] })
    const adds = server!.hits.filter((h) => h.url.endsWith('/strings/add')).map((h) => JSON.parse(h.body))
    expect(adds.map((b) => b.hashcodes.length)).toEqual([1000, 1000, 500])
    expect(adds.flatMap((b) => b.hashcodes)).toEqual(hashcodes)
    expect(adds.every((b) => b.targetLocaleIds[0] === 'fr-FR')).toBe(true)
    expect(polls).toBe(3)
  })

  it('a job process that fails is an error', async () => {
    const c = await serve((hit, res) => {
      if (hit.url.endsWith('/cancel')) {
        return envelope(res, 202, {
          code: 'ACCEPTED',
          data: { message: 'm', url: '/jobs-api/v3/projects/p1/jobs/job-1/processes/proc-1' },
        })
      }
      ok(res, process('FAILED'))
    })
    const error = await c.jobs.cancel('p1', 'job-1', { reason: 'obsolete' }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'PROCESS_FAILED',
      message: expect.stringContaining('job process proc-1 ended FAILED'),
    })
    expect(JSON.parse(server!.hits.find((h) => h.url.endsWith('/cancel'))!.body)).toEqual({
      reason: 'obsolete',
    })
  })

  it('never sends the token to a process URL on another origin', async () => {
    const c = await serve((hit, res) => {
      if (hit.url.endsWith('/authorize')) {
        return envelope(res, 202, {
          code: 'ACCEPTED',
          data: {
            message: 'm',
            url: 'https://elsewhere.example/jobs-api/v3/projects/p1/jobs/job-1/processes/proc-9',
          },
        })
      }
      ok(res, process('COMPLETED'))
    })
    await c.jobs.authorize('p1', 'job-1')
    expect(calls()).toEqual([
      'POST /jobs-api/v3/projects/p1/jobs/job-1/authorize',
      'GET /jobs-api/v3/projects/p1/jobs/job-1/processes/proc-9',
    ])
  })

  it('authorize retried after a 500 that had in fact worked counts as done', async () => {
    const c = await serve((hit, res, index) => {
      if (hit.url.endsWith('/authorize')) {
        if (index === 0)
          return envelope(res, 500, { code: 'GENERAL_ERROR', errors: [{ key: 'e', message: 'oops' }] })
        return envelope(res, 400, {
          code: 'VALIDATION_ERROR',
          errors: [{ key: 'job.state', message: 'Job is not awaiting authorization' }],
        })
      }
      ok(res, { translationJobUid: 'job-1', jobName: 'J', jobStatus: 'IN_PROGRESS' })
    })
    await c.jobs.authorize('p1', 'job-1')
    expect(calls()).toEqual([
      'POST /jobs-api/v3/projects/p1/jobs/job-1/authorize',
      'POST /jobs-api/v3/projects/p1/jobs/job-1/authorize',
      'GET /jobs-api/v3/projects/p1/jobs/job-1',
    ])
  })

  it('create job retried after a dropped answer finds the job it made', async () => {
    const c = await serve((hit, res, index) => {
      if (hit.method === 'POST') {
        if (index === 0) return res.socket?.destroy()
        return envelope(res, 400, {
          code: 'VALIDATION_ERROR',
          errors: [{ key: 'duplicate', message: 'Job name is already taken', details: { field: 'jobName' } }],
        })
      }
      ok(res, {
        totalCount: 2,
        items: [
          { translationJobUid: 'job-0', jobName: 'Release 10' },
          { translationJobUid: 'job-1', jobName: 'Release 1' },
        ],
      })
    })
    const job = await c.jobs.create('p1', { jobName: 'Release 1', targetLocaleIds: ['fr-FR'] })
    expect(job).toEqual({ translationJobUid: 'job-1', jobName: 'Release 1' })
    expect(calls()).toEqual([
      'POST /jobs-api/v3/projects/p1/jobs',
      'POST /jobs-api/v3/projects/p1/jobs',
      'GET /jobs-api/v3/projects/p1/jobs?jobName=Release%201&limit=500&offset=0',
    ])
  })

  it('a duplicate name on the first try is the service error', async () => {
    const c = await serve((_hit, res) =>
      envelope(res, 400, {
        code: 'VALIDATION_ERROR',
        errors: [{ key: 'duplicate', message: 'Job name is already taken', details: { field: 'jobName' } }],
      }),
    )
    const error = await c.jobs.create('p1', { jobName: 'Release 1' }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      attempts: 1,
      errors: [{ details: { field: 'jobName' } }],
    })
    expect(calls()).toEqual(['POST /jobs-api/v3/projects/p1/jobs'])
  })
})
