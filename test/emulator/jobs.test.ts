import { describe, expect, it } from 'vitest'
import { errorOf, ISO_DATE, PROJECT, useEmulator } from './helpers'

const t = useEmulator()

const J = `/jobs-api/v3/projects/${PROJECT}/jobs`

async function createJob(jobName: string, extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', J, { jobName, targetLocaleIds: ['fr-FR', 'de-DE'], ...extra })
  if (r.status !== 200) throw new Error(JSON.stringify(r.body))
  return r.body.response.data
}

const names = (r: { body: { response: { data: { items: { jobName: string }[] } } } }) =>
  r.body.response.data.items.map((j) => j.jobName)

describe('create and get', () => {
  it('creates a DRAFT job with every field; get returns the same record', async () => {
    const r = await t.api('POST', J, {
      jobName: 'Release 1',
      targetLocaleIds: ['fr-FR', 'de-DE', 'fr-FR'],
      description: 'Spring release',
      dueDate: '2030-01-31T17:00:00Z',
      referenceNumber: 'REL-1',
      callbackUrl: 'http://127.0.0.1:9/hook',
      callbackMethod: 'post',
    })
    expect(r.status).toBe(200)
    const job = r.body.response.data
    expect(job).toEqual({
      translationJobUid: expect.stringMatching(/^[a-z0-9]{12}$/),
      jobName: 'Release 1',
      targetLocaleIds: ['fr-FR', 'de-DE'],
      description: 'Spring release',
      dueDate: '2030-01-31T17:00:00Z',
      referenceNumber: 'REL-1',
      createdDate: expect.stringMatching(ISO_DATE),
      jobStatus: 'DRAFT',
      callbackUrl: 'http://127.0.0.1:9/hook',
      callbackMethod: 'POST',
      modifiedDate: job.createdDate,
      createdByUserUid: expect.stringMatching(/^[0-9a-f]{12}$/),
      modifiedByUserUid: job.createdByUserUid,
      firstCompletedDate: null,
      lastCompletedDate: null,
      cancelReason: null,
    })
    expect((await t.api('GET', `${J}/${job.translationJobUid}`)).body.response.data).toEqual(job)
  })

  it('optional fields default to null and no locales', async () => {
    const job = (await t.api('POST', J, { jobName: 'Bare' })).body.response.data
    expect(job).toMatchObject({
      targetLocaleIds: [],
      description: null,
      dueDate: null,
      referenceNumber: null,
      callbackUrl: null,
      callbackMethod: null,
    })
  })

  it('a duplicate name is a VALIDATION_ERROR naming jobName', async () => {
    await createJob('Release 1')
    expect(errorOf(await t.api('POST', J, { jobName: 'Release 1' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'job_name_exists',
      field: 'jobName',
    })
    // Names differing in case are different names.
    expect((await t.api('POST', J, { jobName: 'release 1' })).status).toBe(200)
  })

  it('validates each field, naming it', async () => {
    const field = async (body: Record<string, unknown>) => errorOf(await t.api('POST', J, body)).field
    expect(await field({})).toBe('jobName')
    expect(await field({ jobName: '' })).toBe('jobName')
    expect(await field({ jobName: 'a', targetLocaleIds: ['fr-FR', 'xx-XX'] })).toBe('targetLocaleIds[1]')
    expect(await field({ jobName: 'a', targetLocaleIds: ['en-US'] })).toBe('targetLocaleIds[0]')
    expect(await field({ jobName: 'a', targetLocaleIds: 'fr-FR' })).toBe('targetLocaleIds')
    expect(await field({ jobName: 'a', description: 'd'.repeat(2001) })).toBe('description')
    expect(await field({ jobName: 'a', dueDate: 'tomorrow' })).toBe('dueDate')
    expect(await field({ jobName: 'a', callbackUrl: 'ftp://x/y' })).toBe('callbackUrl')
    expect(await field({ jobName: 'a', callbackMethod: 'PUT' })).toBe('callbackMethod')
    expect((await t.api('POST', J, { jobName: 'a', description: 'd'.repeat(2000) })).status).toBe(200)
  })

  it('an unknown job is NOT_FOUND_ERROR; no token is AUTHENTICATION_ERROR', async () => {
    expect(errorOf(await t.api('GET', `${J}/nope`))).toEqual({
      status: 404,
      code: 'NOT_FOUND_ERROR',
      key: 'job_not_found',
      field: undefined,
    })
    expect(errorOf(await t.api('GET', `${J}/nope/progress`)).status).toBe(404)
    expect(errorOf(await t.call('GET', J)).code).toBe('AUTHENTICATION_ERROR')
    expect(errorOf(await t.call('POST', `${J}/x/cancel`)).code).toBe('AUTHENTICATION_ERROR')
  })
})

describe('list', () => {
  it('summaries only, newest first by default, with totalCount and paging', async () => {
    await createJob('Alpha')
    await t.control('POST', '/clock', { advanceMs: 2000 })
    await createJob('beta')
    await t.control('POST', '/clock', { advanceMs: 2000 })
    await createJob('Gamma')
    const r = await t.api('GET', J)
    expect(r.body.response.data.totalCount).toBe(3)
    expect(names(r)).toEqual(['Gamma', 'beta', 'Alpha'])
    expect(Object.keys(r.body.response.data.items[0]).sort()).toEqual(
      [
        'createdDate',
        'description',
        'dueDate',
        'jobName',
        'jobStatus',
        'referenceNumber',
        'targetLocaleIds',
        'translationJobUid',
      ].sort(),
    )
    expect(names(await t.api('GET', `${J}?sortBy=jobName&sortDirection=ASC`))).toEqual([
      'Alpha',
      'beta',
      'Gamma',
    ])
    expect(names(await t.api('GET', `${J}?sortBy=createdDate&sortDirection=asc`))).toEqual([
      'Alpha',
      'beta',
      'Gamma',
    ])
    const page = await t.api('GET', `${J}?sortBy=jobName&sortDirection=ASC&limit=1&offset=1`)
    expect(page.body.response.data.totalCount).toBe(3)
    expect(names(page)).toEqual(['beta'])
    expect(errorOf(await t.api('GET', `${J}?sortBy=color`)).field).toBe('sortBy')
    expect(errorOf(await t.api('GET', `${J}?sortDirection=UP`)).field).toBe('sortDirection')
    expect(errorOf(await t.api('GET', `${J}?limit=0`)).field).toBe('limit')
  })

  it('jobName is a case-insensitive LIKE', async () => {
    await createJob('Release 1')
    await createJob('release 2')
    await createJob('Hotfix')
    const sorted = `sortBy=jobName&sortDirection=ASC`
    expect(names(await t.api('GET', `${J}?jobName=RELEASE&${sorted}`))).toEqual(['Release 1', 'release 2'])
    expect(names(await t.api('GET', `${J}?jobName=e%25e&${sorted}`))).toEqual(['Release 1', 'release 2'])
    expect(names(await t.api('GET', `${J}?jobName=Release%20_&${sorted}`))).toEqual([
      'Release 1',
      'release 2',
    ])
    expect(names(await t.api('GET', `${J}?jobName=fix`))).toEqual(['Hotfix'])
    expect(names(await t.api('GET', `${J}?jobName=(`))).toEqual([])
    // Regex syntax and hyphens in the pattern are plain characters.
    await createJob('hot-fix/2 [x]')
    expect(names(await t.api('GET', `${J}?jobName=t-fix%2F2%20%5B`))).toEqual(['hot-fix/2 [x]'])
  })

  it('filters by translationJobUids (at most 500) and translationJobStatus', async () => {
    const a = await createJob('A')
    const b = await createJob('B')
    await createJob('C')
    await t.api('POST', `${J}/${b.translationJobUid}/cancel`, {})
    const q = `sortBy=jobName&sortDirection=ASC`
    expect(
      names(
        await t.api(
          'GET',
          `${J}?translationJobUids=${a.translationJobUid}&translationJobUids[]=${b.translationJobUid}&${q}`,
        ),
      ),
    ).toEqual(['A', 'B'])
    expect(names(await t.api('GET', `${J}?translationJobStatus=CANCELLED`))).toEqual(['B'])
    expect(
      names(await t.api('GET', `${J}?translationJobStatus=DRAFT&translationJobStatus=CANCELLED&${q}`)),
    ).toEqual(['A', 'B', 'C'])
    expect(errorOf(await t.api('GET', `${J}?translationJobStatus=DONE`)).field).toBe(
      'translationJobStatus[0]',
    )
    const uids = Array.from({ length: 500 }, (_, i) => `u${i}`)
    expect((await t.api('GET', `${J}?translationJobUids=${uids.join('&translationJobUids=')}`)).status).toBe(
      200,
    )
    uids.push('one-more')
    expect(
      errorOf(await t.api('GET', `${J}?translationJobUids=${uids.join('&translationJobUids=')}`)),
    ).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'invalid_parameter',
      field: 'translationJobUids',
    })
  })
})

describe('search', () => {
  it('returns jobs holding any of the hashcodes, or named by uid; nothing without criteria', async () => {
    const [h1, h2, h3] = await t.createStrings([
      { stringText: 'One' },
      { stringText: 'Two' },
      { stringText: 'Three' },
    ])
    const a = await createJob('A')
    const b = await createJob('B')
    const c = await createJob('C')
    await t.api('POST', `${J}/${a.translationJobUid}/strings/add`, { hashcodes: [h1] })
    await t.api('POST', `${J}/${b.translationJobUid}/strings/add`, {
      hashcodes: [h2],
      targetLocaleIds: ['ja-JP'],
    })
    const search = async (body: unknown) => {
      const r = await t.api('POST', `${J}/search`, body)
      expect(r.status).toBe(200)
      expect(r.body.response.data.totalCount).toBe(r.body.response.data.items.length)
      return names(r)
    }
    expect(await search({ hashcodes: [h1] })).toEqual(['A'])
    expect(await search({ hashcodes: [h1, h2, h3] })).toEqual(['A', 'B'])
    expect(await search({ hashcodes: [h3], translationJobUids: [c.translationJobUid] })).toEqual(['C'])
    expect(await search({ fileUris: ['nothing.json'] })).toEqual([])
    expect(await search({})).toEqual([])
    expect((await t.api('POST', `${J}/search`, { hashcodes: [h1] })).body.response.data.items[0]).toEqual({
      translationJobUid: a.translationJobUid,
      jobName: 'A',
      targetLocaleIds: ['fr-FR', 'de-DE'],
      description: null,
      dueDate: null,
      referenceNumber: null,
      createdDate: a.createdDate,
      jobStatus: 'AWAITING_AUTHORIZATION',
    })
    expect(errorOf(await t.api('POST', `${J}/search`, { hashcodes: 'x' })).field).toBe('hashcodes')
  })
})
