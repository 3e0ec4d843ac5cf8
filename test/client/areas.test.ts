import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClient, TmsApiError, type TmsClient } from '../../src/client/index'
import { useEmulator } from '../helpers/emulator'
import { ACCOUNT, CREDENTIALS, control, PROJECT, requestLog } from './emu'

/** The jobs, issues and glossaries areas against the emulator. */
const emu = useEmulator()
let client: TmsClient

beforeEach(async () => {
  client = createClient({ baseUrl: emu.url, ...CREDENTIALS, pollIntervalMs: 10 })
})
afterEach(async () => {
  await client.close()
})

async function hashcodesOf(n: number, prefix: string): Promise<string[]> {
  const results = await client.strings.createInBatches(PROJECT, {
    strings: Array.from({ length: n }, (_, i) => ({ stringText: `${prefix} ${i}` })),
  })
  return results.flatMap((r) => r.items.map((i) => i.hashcode))
}

const JOB_ROUTE = 'POST /jobs-api/v3/projects/:projectId/jobs'
const ADD_ROUTE = 'POST /jobs-api/v3/projects/:projectId/jobs/:translationJobUid/strings/add'
const PROCESS_ROUTE = 'GET /jobs-api/v3/projects/:projectId/jobs/:translationJobUid/processes/:processUid'

describe('jobs', () => {
  it('find or create, add strings (sync and 202), authorize, progress, translations, close', async () => {
    await control(emu, 'POST', `projects/${PROJECT}/auto-translate`, { mode: 'pseudo', publishDelayMs: 0 })
    const hashcodes = await hashcodesOf(150, 'Job string')
    const spec = { jobName: 'Release 1', targetLocaleIds: ['fr-FR', 'de-DE'] }
    const job = await client.jobs.findOrCreate(PROJECT, spec)
    expect(job).toMatchObject({
      jobName: 'Release 1',
      targetLocaleIds: ['fr-FR', 'de-DE'],
      jobStatus: 'DRAFT',
    })
    expect(await client.jobs.findOrCreate(PROJECT, spec)).toMatchObject({
      translationJobUid: job.translationJobUid,
    })
    expect(await client.jobs.findByName(PROJECT, 'Release')).toBeUndefined()
    const uid = job.translationJobUid

    // Up to 100 hashcodes the emulator answers at once; past that, 202 and a job process.
    expect(await client.jobs.addStrings(PROJECT, uid, { hashcodes: hashcodes.slice(0, 50) })).toEqual({
      successCount: 50,
      failCount: 0,
      processes: [],
    })
    const big = await client.jobs.addStrings(PROJECT, uid, { hashcodes })
    expect(big.processes).toHaveLength(1)
    expect(big.processes[0]).toMatchObject({ translationJobUid: uid, processState: 'COMPLETED' })
    expect((await client.jobs.get(PROJECT, uid)).jobStatus).toBe('AWAITING_AUTHORIZATION')

    await client.jobs.authorize(PROJECT, uid)
    // The pseudo translator publishes at once: every string of both locales is done.
    expect((await client.jobs.get(PROJECT, uid)).jobStatus).toBe('COMPLETE')
    const progress = await client.jobs.progress(PROJECT, uid)
    expect(progress.progress).toEqual({ totalWordCount: 900, percentComplete: 100 })
    expect(progress.contentProgressReport.map((l) => l.targetLocaleId)).toEqual(['fr-FR', 'de-DE'])
    const fr = await client.jobs.progress(PROJECT, uid, { targetLocaleId: 'fr-FR' })
    expect(fr.contentProgressReport.map((l) => l.targetLocaleId)).toEqual(['fr-FR'])

    let translated = 0
    for await (const item of client.strings.translations(PROJECT, { targetLocaleId: 'de-DE', hashcodes })) {
      if (item.translations.length === 1) translated++
    }
    expect(translated).toBe(150)

    const found = await client.jobs.search(PROJECT, { hashcodes: [hashcodes[0]] })
    expect(found.items.map((j) => j.translationJobUid)).toEqual([uid])
    await client.jobs.close(PROJECT, uid)
    expect((await client.jobs.get(PROJECT, uid)).jobStatus).toBe('CLOSED')

    const log = await requestLog(emu)
    expect(log.byRoute[JOB_ROUTE]).toBe(1)
    expect(log.byRoute[ADD_ROUTE]).toBe(2)
    expect(log.byRoute[PROCESS_ROUTE]).toBeGreaterThanOrEqual(1)
  })

  it('splits 2500 hashcodes into add calls of 1000, 1000 and 500', async () => {
    await control(emu, 'POST', 'config', { jobSyncMaxHashcodes: 1000 })
    const hashcodes = await hashcodesOf(2500, 'Many')
    const job = await client.jobs.create(PROJECT, { jobName: 'Big', targetLocaleIds: ['ja-JP'] })
    const result = await client.jobs.addStrings(PROJECT, job.translationJobUid, { hashcodes })
    expect(result).toEqual({ successCount: 2500, failCount: 0, processes: [] })
    expect((await requestLog(emu)).byRoute[ADD_ROUTE]).toBe(3)
  })

  it('a duplicate job name is VALIDATION_ERROR naming jobName; an unknown job is NOT_FOUND_ERROR', async () => {
    await client.jobs.create(PROJECT, { jobName: 'Once' })
    const duplicate = await client.jobs.create(PROJECT, { jobName: 'Once' }).catch((e: unknown) => e)
    expect(duplicate).toBeInstanceOf(TmsApiError)
    expect(duplicate).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, attempts: 1 })
    expect(JSON.stringify((duplicate as TmsApiError).errors)).toContain('jobName')
    const missing = await client.jobs.progress(PROJECT, 'nope').catch((e: unknown) => e)
    expect(missing).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 })
  })

  it('the job path of a push survives 35% injected faults', async () => {
    const hashcodes = await hashcodesOf(300, 'Faulty')
    await control(emu, 'POST', 'faults', {
      rates: { '429': 0.1, '503': 0.1, '500': 0.1 },
      dropRate: 0.05,
      seed: 7,
    })
    const faulty = createClient({
      baseUrl: emu.url,
      ...CREDENTIALS,
      pollIntervalMs: 10,
      retry: { retries: 10, minDelayMs: 2, maxDelayMs: 40, maxTotalMs: 20_000 },
    })
    try {
      const job = await faulty.jobs.findOrCreate(PROJECT, { jobName: 'Nightly', targetLocaleIds: ['fr-FR'] })
      await faulty.jobs.addStrings(PROJECT, job.translationJobUid, { hashcodes })
      await faulty.jobs.authorize(PROJECT, job.translationJobUid)
      expect(faulty.stats.retries).toBeGreaterThan(0)
    } finally {
      await control(emu, 'POST', 'faults', {})
      await faulty.close()
    }
    const jobs = await client.jobs.listPage(PROJECT, { jobName: 'Nightly' })
    expect(jobs.items).toHaveLength(1)
    expect(jobs.items[0].jobStatus).toBe('IN_PROGRESS')
    let authorized = 0
    for await (const item of client.strings.translations(PROJECT, {
      targetLocaleId: 'fr-FR',
      hashcodes,
      retrievalType: 'pending',
    })) {
      if (item) authorized++
    }
    expect(authorized).toBe(300)
  })
})

describe('issues', () => {
  it('create, read, edit, resolve, answer, comment, find and count', async () => {
    const [hashcode] = await hashcodesOf(1, 'Issue string')
    const issue = await client.issues.create(PROJECT, {
      issueText: 'Is "Save" a verb here?',
      issueTypeCode: 'SOURCE',
      issueSubTypeCode: 'CLARIFICATION',
      string: { hashcode, localeId: null },
    })
    expect(issue).toMatchObject({
      projectId: PROJECT,
      string: { hashcode, localeId: null },
      issueTypeCode: 'SOURCE',
      issueSubTypeCode: 'CLARIFICATION',
      issueStateCode: 'OPENED',
      answered: false,
    })
    const uid = issue.issueUid
    expect((await client.issues.editText(PROJECT, uid, 'Is "Save" a verb?')).issueText).toBe(
      'Is "Save" a verb?',
    )
    expect(await client.issues.setAnswered(PROJECT, uid, true)).toEqual({ answered: true })
    const comment = await client.issues.createComment(PROJECT, uid, 'Yes, a verb.')
    expect((await client.issues.comments(PROJECT, uid)).items.map((c) => c.commentText)).toEqual([
      'Yes, a verb.',
    ])
    expect(
      (await client.issues.editComment(PROJECT, uid, comment.issueCommentUid, 'A verb.')).commentText,
    ).toBe('A verb.')
    expect((await client.issues.getComment(PROJECT, uid, comment.issueCommentUid)).commentText).toBe(
      'A verb.',
    )
    expect(await client.issues.count(PROJECT, { issueStateCodes: ['OPENED'] })).toBe(1)
    expect(await client.issues.setState(PROJECT, uid, 'RESOLVED')).toEqual({ issueStateCode: 'RESOLVED' })
    expect(await client.issues.count(PROJECT, { issueStateCodes: ['OPENED'] })).toBe(0)
    const found = []
    for await (const i of client.issues.find(PROJECT, { stringFilter: { hashcodes: [hashcode] } }))
      found.push(i.issueUid)
    expect(found).toEqual([uid])
    expect(await client.issues.get(PROJECT, uid)).toMatchObject({
      issueStateCode: 'RESOLVED',
      answered: true,
    })
  })

  it('reads the dictionaries', async () => {
    const types = await client.issues.issueTypes()
    expect(types.items.map((t) => t.issueTypeCode).sort()).toEqual(['SOURCE', 'TRANSLATION'])
    const states = await client.issues.issueStates()
    expect(states.items.map((s) => s.issueStateCode).sort()).toEqual(['OPENED', 'RESOLVED'])
    const forAccount = await client.issues.accountIssueTypes(ACCOUNT)
    expect(forAccount.totalCount).toBe(2)
  })
})

describe('glossaries', () => {
  it('create, list by name and uids, get, edit wholesale, delete', async () => {
    const created = await client.glossaries.create(ACCOUNT, {
      name: 'Web terms',
      description: 'Product words',
      sourceLocaleId: 'en-US',
    })
    expect(created).toMatchObject({
      name: 'Web terms',
      description: 'Product words',
      sourceLocaleId: 'en-US',
    })
    await client.glossaries.create(ACCOUNT, {
      name: 'Legal',
      description: 'Contracts',
      sourceLocaleId: 'en-US',
    })
    const byName = []
    for await (const g of client.glossaries.list(ACCOUNT, { name: 'web' })) byName.push(g.name)
    expect(byName).toEqual(['Web terms'])
    const byUid = await client.glossaries.listPage(ACCOUNT, { glossaryUids: [created.glossaryUid] })
    expect(byUid.items.map((g) => g.glossaryUid)).toEqual([created.glossaryUid])
    expect(await client.glossaries.get(ACCOUNT, created.glossaryUid)).toMatchObject({ name: 'Web terms' })
    const edited = await client.glossaries.edit(ACCOUNT, created.glossaryUid, {
      name: 'Web',
      sourceLocaleId: 'en-US',
    })
    expect(edited).toMatchObject({ name: 'Web', description: null, sourceLocaleId: 'en-US' })
    await client.glossaries.delete(ACCOUNT, created.glossaryUid)
    const gone = await client.glossaries.get(ACCOUNT, created.glossaryUid).catch((e: unknown) => e)
    expect(gone).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 })
  })
})
