import { describe, expect, it } from 'vitest'
import { workflowStepUid } from '../../src/emulator/store'
import { workflowUid } from '../../src/emulator/store/job-progress'
import { errorOf, eventually, ISO_DATE, PROJECT, STRINGS, sleep, useEmulator } from './helpers'

const t = useEmulator()

const J = `/jobs-api/v3/projects/${PROJECT}/jobs`

async function createJob(jobName: string, targetLocaleIds: string[] = ['fr-FR', 'de-DE']): Promise<string> {
  const r = await t.api('POST', J, { jobName, targetLocaleIds })
  if (r.status !== 200) throw new Error(JSON.stringify(r.body))
  return r.body.response.data.translationJobUid
}

async function job(uid: string) {
  return (await t.api('GET', `${J}/${uid}`)).body.response.data
}

async function status(uid: string): Promise<string> {
  return (await job(uid)).jobStatus
}

const add = (uid: string, body: Record<string, unknown>) => t.api('POST', `${J}/${uid}/strings/add`, body)
const remove = (uid: string, body: Record<string, unknown>) =>
  t.api('POST', `${J}/${uid}/strings/remove`, body)

/** Authorized locales per hashcode, from the control API's view of the project. */
async function authorized(): Promise<Record<string, string[]>> {
  const state = (await t.control('GET', '/state')).body.response.data
  const project = state.projects.find((p: { projectId: string }) => p.projectId === PROJECT)
  return Object.fromEntries(
    project.strings.map((s: { hashcode: string; authorizedLocaleIds: string[] }) => [
      s.hashcode,
      [...s.authorizedLocaleIds].sort(),
    ]),
  )
}

async function publish(hashcode: string, localeId: string, translation = 'T', published = true) {
  const r = await t.control('POST', `/projects/${PROJECT}/translations`, {
    hashcode,
    localeId,
    translation,
    published,
  })
  if (r.status !== 200) throw new Error(JSON.stringify(r.body))
}

async function manyStrings(n: number): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, (_, k) => ({ stringText: `String ${i + k}` }))
    out.push(...(await t.createStrings(batch)))
  }
  return out
}

describe('add strings', () => {
  it('adds strings for the job locales and moves a DRAFT job to AWAITING_AUTHORIZATION', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const uid = await createJob('J')
    expect(await status(uid)).toBe('DRAFT')
    const r = await add(uid, { hashcodes: [h1, h2, h1] })
    expect(r.status).toBe(200)
    expect(r.body.response).toMatchObject({ code: 'SUCCESS', data: { successCount: 2, failCount: 0 } })
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    // Adding again changes nothing and still succeeds.
    expect((await add(uid, { hashcodes: [h1] })).body.response.data).toEqual({
      successCount: 1,
      failCount: 0,
    })
    const report = (await t.api('GET', `${J}/${uid}/progress`)).body.response.data
    expect(
      report.contentProgressReport.map(
        (l: { unauthorizedProgressReport: unknown }) => l.unauthorizedProgressReport,
      ),
    ).toEqual([
      { stringCount: 2, wordCount: 2 },
      { stringCount: 2, wordCount: 2 },
    ])
  })

  it('unlisted targetLocaleIds extend the job; a job with no locales needs them', async () => {
    const [h] = await t.createStrings([{ stringText: 'One' }])
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h], targetLocaleIds: ['ja-JP'] })
    expect((await job(uid)).targetLocaleIds).toEqual(['fr-FR', 'ja-JP'])
    const empty = await createJob('Empty', [])
    expect(errorOf(await add(empty, { hashcodes: [h] }))).toMatchObject({
      status: 400,
      field: 'targetLocaleIds',
    })
    expect(errorOf(await add(uid, { hashcodes: [h], targetLocaleIds: ['xx-XX'] }))).toMatchObject({
      field: 'targetLocaleIds[0]',
    })
  })

  it('validates the hashcodes: required, known, at most 1000', async () => {
    const [h] = await t.createStrings([{ stringText: 'One' }])
    const uid = await createJob('J')
    expect(errorOf(await add(uid, {})).field).toBe('hashcodes')
    expect(errorOf(await add(uid, { hashcodes: [] })).field).toBe('hashcodes')
    expect(errorOf(await add(uid, { hashcodes: [h, 'f'.repeat(32)] }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'invalid_parameter',
      field: 'hashcodes[1]',
    })
    const tooMany = Array.from({ length: 1001 }, () => h)
    const r = await add(uid, { hashcodes: tooMany })
    expect(errorOf(r).field).toBe('hashcodes')
    expect(r.body.response.errors[0].message).toBe('hashcodes: has 1001 items; at most 1000 per request')
    expect(errorOf(await add(uid, { hashcodes: [h], moveEnabled: 'yes' })).field).toBe('moveEnabled')
    expect(await status(uid)).toBe('DRAFT')
  })

  it('a string is in one job per locale: skipped unless moveEnabled, then moved', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const first = await createJob('First')
    const second = await createJob('Second', ['fr-FR', 'ja-JP'])
    await add(first, { hashcodes: [h1, h2] })
    const skipped = await add(second, { hashcodes: [h1] })
    expect(skipped.body.response.data).toEqual({ successCount: 0, failCount: 1 })
    // ja-JP was free, so it was added; fr-FR was held by the first job.
    const search = await t.api('POST', `${J}/search`, { hashcodes: [h1] })
    expect(search.body.response.data.items.map((j: { jobName: string }) => j.jobName)).toEqual([
      'First',
      'Second',
    ])
    const moved = await add(second, { hashcodes: [h1, h2], moveEnabled: true })
    expect(moved.body.response.data).toEqual({ successCount: 2, failCount: 0 })
    const firstReport = (await t.api('GET', `${J}/${first}/progress?targetLocaleId=fr-FR`)).body.response.data
    expect(firstReport.contentProgressReport[0].unauthorizedProgressReport).toEqual({
      stringCount: 0,
      wordCount: 0,
    })
    // The first job keeps its de-DE content, so it stays AWAITING_AUTHORIZATION.
    expect(await status(first)).toBe('AWAITING_AUTHORIZATION')
    await add(second, { hashcodes: [h1, h2], targetLocaleIds: ['de-DE'], moveEnabled: true })
    expect(await status(first)).toBe('DRAFT')
  })
})

describe('remove strings', () => {
  it('removes strings for locales; removed pairs become unauthorized; an empty job is a DRAFT', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const uid = await createJob('J')
    await add(uid, { hashcodes: [h1, h2] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    expect(await authorized()).toEqual({ [h1]: ['de-DE', 'fr-FR'], [h2]: ['de-DE', 'fr-FR'] })
    const r = await remove(uid, { hashcodes: [h1, 'f'.repeat(32)], localeIds: ['fr-FR'] })
    expect(r.body.response.data).toEqual({ successCount: 1, failCount: 1 })
    expect(await authorized()).toEqual({ [h1]: ['de-DE'], [h2]: ['de-DE', 'fr-FR'] })
    expect(await status(uid)).toBe('IN_PROGRESS')
    await remove(uid, { hashcodes: [h1, h2] })
    expect(await authorized()).toEqual({ [h1]: [], [h2]: [] })
    expect(await status(uid)).toBe('DRAFT')
    expect(errorOf(await remove(uid, { hashcodes: [h1], localeIds: ['ja-JP'] })).field).toBe('localeIds[0]')
    expect(errorOf(await remove(uid, {})).field).toBe('hashcodes')
  })

  it('removing the last unpublished string completes an IN_PROGRESS job', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h1, h2] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h1, 'fr-FR')
    expect(await status(uid)).toBe('IN_PROGRESS')
    await remove(uid, { hashcodes: [h2] })
    expect(await status(uid)).toBe('COMPLETE')
  })
})

describe('state machine', () => {
  it('DRAFT -> AWAITING_AUTHORIZATION -> IN_PROGRESS -> COMPLETE -> CLOSED', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const uid = await createJob('J')
    const authorize = () => t.api('POST', `${J}/${uid}/authorize`, {})
    const close = () => t.api('POST', `${J}/${uid}/close`)

    expect(errorOf(await authorize())).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'invalid_job_status',
      field: 'translationJobUid',
    })
    expect(errorOf(await close()).key).toBe('invalid_job_status')
    await add(uid, { hashcodes: [h1, h2] })
    expect(errorOf(await close()).key).toBe('invalid_job_status')

    const r = await authorize()
    expect(r.status).toBe(200)
    expect(r.body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect(await status(uid)).toBe('IN_PROGRESS')
    expect(await authorized()).toEqual({ [h1]: ['de-DE', 'fr-FR'], [h2]: ['de-DE', 'fr-FR'] })
    expect(errorOf(await authorize()).key).toBe('invalid_job_status')
    expect(errorOf(await close()).key).toBe('invalid_job_status')

    await publish(h1, 'fr-FR')
    await publish(h2, 'fr-FR')
    await publish(h1, 'de-DE')
    // A saved but unpublished translation does not finish the job.
    await publish(h2, 'de-DE', 'T', false)
    expect(await status(uid)).toBe('IN_PROGRESS')
    await t.control('POST', '/clock', { advanceMs: 5000 })
    await publish(h2, 'de-DE')
    const complete = await job(uid)
    expect(complete).toMatchObject({
      jobStatus: 'COMPLETE',
      firstCompletedDate: expect.stringMatching(ISO_DATE),
      lastCompletedDate: complete.firstCompletedDate,
    })
    expect(errorOf(await t.api('POST', `${J}/${uid}/cancel`, {})).key).toBe('invalid_job_status')

    expect((await close()).body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect(await status(uid)).toBe('CLOSED')
    expect(errorOf(await close()).key).toBe('invalid_job_status')
    expect(errorOf(await t.api('POST', `${J}/${uid}/cancel`, {})).key).toBe('invalid_job_status')
    expect(errorOf(await add(uid, { hashcodes: [h1] })).key).toBe('invalid_job_status')
    // Closing frees the strings but keeps them authorized: their translations stay available.
    expect(await authorized()).toEqual({ [h1]: ['de-DE', 'fr-FR'], [h2]: ['de-DE', 'fr-FR'] })
    const tr = await t.api('GET', `${STRINGS}/translations?hashcodes=${h1}&targetLocaleId=fr-FR`)
    expect(tr.body.response.data.items[0].translations[0].translation).toBe('T')
    const next = await createJob('Next')
    expect((await add(next, { hashcodes: [h1] })).body.response.data).toEqual({
      successCount: 1,
      failCount: 0,
    })
  })

  it('new content sends an IN_PROGRESS or COMPLETE job back to AWAITING_AUTHORIZATION', async () => {
    const [h1, h2, h3] = await t.createStrings([
      { stringText: 'One' },
      { stringText: 'Two' },
      { stringText: 'Three' },
    ])
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h1] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await add(uid, { hashcodes: [h2] })
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h1, 'fr-FR')
    await publish(h2, 'fr-FR')
    const first = await job(uid)
    expect(first.jobStatus).toBe('COMPLETE')
    await add(uid, { hashcodes: [h3] })
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await t.control('POST', '/clock', { advanceMs: 3000 })
    await publish(h3, 'fr-FR')
    const again = await job(uid)
    expect(again.jobStatus).toBe('COMPLETE')
    expect(again.firstCompletedDate).toBe(first.firstCompletedDate)
    expect(Date.parse(again.lastCompletedDate)).toBeGreaterThan(Date.parse(first.lastCompletedDate))
  })

  it('authorizing content that is already published completes the job at once', async () => {
    const [h] = await t.createStrings([{ stringText: 'One' }])
    await publish(h, 'fr-FR')
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    expect(await status(uid)).toBe('COMPLETE')
  })

  it('cancel from DRAFT, AWAITING_AUTHORIZATION and IN_PROGRESS; content leaves and is unauthorized', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const draft = await createJob('Draft')
    const awaiting = await createJob('Awaiting')
    const running = await createJob('Running', ['ja-JP'])
    await add(awaiting, { hashcodes: [h1] })
    await add(running, { hashcodes: [h1, h2] })
    await t.api('POST', `${J}/${running}/authorize`, {})
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, {
      hashcodes: [h2],
      localeIds: ['fr-FR'],
    })
    for (const uid of [draft, awaiting, running]) {
      const r = await t.api('POST', `${J}/${uid}/cancel`, { reason: 'Scope changed' })
      expect(r.body.response).toMatchObject({ code: 'SUCCESS', data: null })
      expect(await job(uid)).toMatchObject({ jobStatus: 'CANCELLED', cancelReason: 'Scope changed' })
    }
    // The job's pairs are unauthorized; h2's fr-FR authorization came from elsewhere and stays.
    expect(await authorized()).toEqual({ [h1]: [], [h2]: ['fr-FR'] })
    const report = (await t.api('GET', `${J}/${running}/progress`)).body.response.data
    expect(report.progress).toEqual({ totalWordCount: 0, percentComplete: 0 })
    expect((await t.api('POST', `${J}/search`, { hashcodes: [h1, h2] })).body.response.data.totalCount).toBe(
      0,
    )
    expect(errorOf(await t.api('POST', `${J}/${draft}/cancel`, {})).key).toBe('invalid_job_status')
    expect(errorOf(await t.api('POST', `${J}/${draft}/authorize`, {})).key).toBe('invalid_job_status')
    expect(errorOf(await t.api('POST', `${J}/${draft}/locales/ja-JP`)).key).toBe('invalid_job_status')
    expect(errorOf(await t.api('POST', `${J}/${awaiting}/cancel`, { reason: 5 })).field).toBe('reason')
  })

  it('authorize checks localeWorkflows against the job locales and the project workflow', async () => {
    const [h] = await t.createStrings([{ stringText: 'One' }])
    const uid = await createJob('J')
    await add(uid, { hashcodes: [h] })
    const workflow = workflowUid(PROJECT)
    const authorize = (localeWorkflows: unknown) =>
      t.api('POST', `${J}/${uid}/authorize`, { localeWorkflows })
    expect(errorOf(await authorize([{ targetLocaleId: 'ja-JP', workflowUid: workflow }])).field).toBe(
      'localeWorkflows[0].targetLocaleId',
    )
    expect(errorOf(await authorize([{ targetLocaleId: 'fr-FR', workflowUid: 'other' }])).field).toBe(
      'localeWorkflows[0].workflowUid',
    )
    expect(errorOf(await authorize({})).field).toBe('localeWorkflows')
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    const r = await authorize([
      { targetLocaleId: 'fr-FR', workflowUid: workflow },
      { targetLocaleId: 'de-DE', workflowUid: workflow },
    ])
    expect(r.status).toBe(200)
    expect(await status(uid)).toBe('IN_PROGRESS')
  })
})

describe('every transition from every state', () => {
  const STATES = [
    'DRAFT',
    'AWAITING_AUTHORIZATION',
    'IN_PROGRESS',
    'COMPLETE',
    'CLOSED',
    'CANCELLED',
  ] as const
  let n = 0

  /** A fresh job in the given state, each with strings of its own. */
  async function jobIn(state: (typeof STATES)[number]): Promise<string> {
    n++
    const uid = await createJob(`${state} ${n}`, ['fr-FR'])
    if (state === 'DRAFT') return uid
    if (state === 'CANCELLED') {
      await t.api('POST', `${J}/${uid}/cancel`, {})
      return uid
    }
    const [h] = await t.createStrings([{ stringText: `Text ${n}` }])
    if (state === 'COMPLETE' || state === 'CLOSED') await publish(h, 'fr-FR')
    await add(uid, { hashcodes: [h] })
    if (state === 'AWAITING_AUTHORIZATION') return uid
    await t.api('POST', `${J}/${uid}/authorize`, {})
    if (state === 'CLOSED') await t.api('POST', `${J}/${uid}/close`)
    expect(await status(uid)).toBe(state)
    return uid
  }

  const OPERATIONS: Record<
    string,
    { allowedFrom: string[]; reaches: string; run: (uid: string) => Promise<unknown> }
  > = {
    authorize: {
      allowedFrom: ['AWAITING_AUTHORIZATION'],
      reaches: 'IN_PROGRESS',
      run: (uid) => t.api('POST', `${J}/${uid}/authorize`, {}),
    },
    close: { allowedFrom: ['COMPLETE'], reaches: 'CLOSED', run: (uid) => t.api('POST', `${J}/${uid}/close`) },
    cancel: {
      allowedFrom: ['DRAFT', 'AWAITING_AUTHORIZATION', 'IN_PROGRESS'],
      reaches: 'CANCELLED',
      run: (uid) => t.api('POST', `${J}/${uid}/cancel`, {}),
    },
    'add strings': {
      allowedFrom: ['DRAFT', 'AWAITING_AUTHORIZATION', 'IN_PROGRESS', 'COMPLETE'],
      reaches: 'AWAITING_AUTHORIZATION',
      run: async (uid) => {
        n++
        const [h] = await t.createStrings([{ stringText: `Added ${n}` }])
        return add(uid, { hashcodes: [h] })
      },
    },
  }

  it('allows exactly the transitions of the state machine; every other one is a VALIDATION_ERROR', async () => {
    const outcomes: string[] = []
    for (const [name, op] of Object.entries(OPERATIONS)) {
      for (const state of STATES) {
        const uid = await jobIn(state)
        const r = (await op.run(uid)) as { status: number; body: unknown }
        const after = await status(uid)
        outcomes.push(
          `${name} from ${state}: ${r.status === 200 ? `-> ${after}` : `${errorOf(r as never).key}, stays ${after}`}`,
        )
      }
    }
    const expected = Object.entries(OPERATIONS).flatMap(([name, op]) =>
      STATES.map((state) =>
        op.allowedFrom.includes(state)
          ? `${name} from ${state}: -> ${op.reaches}`
          : `${name} from ${state}: invalid_job_status, stays ${state}`,
      ),
    )
    expect(outcomes).toEqual(expected)
  })
})

describe('locales', () => {
  it('adds a locale with its content (syncContent) or as a placeholder; removes one', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'One' }, { stringText: 'Two' }])
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h1, h2] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h1, 'fr-FR')

    const placeholder = await t.api('POST', `${J}/${uid}/locales/ja-JP?syncContent=false`)
    expect(placeholder.body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect((await job(uid)).targetLocaleIds).toEqual(['fr-FR', 'ja-JP'])
    expect(await status(uid)).toBe('IN_PROGRESS')

    await t.api('POST', `${J}/${uid}/locales/de-DE`)
    expect((await job(uid)).targetLocaleIds).toEqual(['fr-FR', 'ja-JP', 'de-DE'])
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    const de = (await t.api('GET', `${J}/${uid}/progress?targetLocaleId=de-DE`)).body.response.data
    expect(de.contentProgressReport[0].unauthorizedProgressReport).toEqual({ stringCount: 2, wordCount: 2 })
    // Adding a locale the job has changes nothing.
    expect((await t.api('POST', `${J}/${uid}/locales/de-DE`)).status).toBe(200)

    const removed = await t.api('DELETE', `${J}/${uid}/locales/de-DE`)
    expect(removed.body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect((await job(uid)).targetLocaleIds).toEqual(['fr-FR', 'ja-JP'])
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await t.api('DELETE', `${J}/${uid}/locales/fr-FR`)
    expect(await authorized()).toEqual({ [h1]: [], [h2]: [] })
    // Only the ja-JP placeholder is left: no content, so a DRAFT.
    expect(await status(uid)).toBe('DRAFT')

    expect(errorOf(await t.api('POST', `${J}/${uid}/locales/xx-XX`)).field).toBe('localeId')
    expect(errorOf(await t.api('DELETE', `${J}/${uid}/locales/de-DE`)).field).toBe('localeId')
    expect(errorOf(await t.api('POST', `${J}/${uid}/locales/de-DE?syncContent=maybe`)).field).toBe(
      'syncContent',
    )
  })

  it('removing the only unfinished locale completes the job', async () => {
    const [h] = await t.createStrings([{ stringText: 'One' }])
    const uid = await createJob('J')
    await add(uid, { hashcodes: [h] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h, 'fr-FR')
    expect(await status(uid)).toBe('IN_PROGRESS')
    await t.api('DELETE', `${J}/${uid}/locales/de-DE`)
    expect(await status(uid)).toBe('COMPLETE')
  })
})

describe('progress', () => {
  it('reports per locale the workflow steps, the unauthorized content and the share published', async () => {
    const [save, open] = await t.createStrings([{ stringText: 'Save' }, { stringText: 'Open the file' }])
    const uid = await createJob('J')
    await add(uid, { hashcodes: [save, open] })
    const locale = (
      targetLocaleId: string,
      targetLocaleDescription: string,
      steps: [number, number, number, number, number, number],
      unauthorized: [number, number],
      percentComplete: number,
    ) => ({
      targetLocaleId,
      targetLocaleDescription,
      workflowProgressReportList: [
        {
          workflowUid: workflowUid(PROJECT),
          workflowName: 'Translation and edit',
          workflowStepSummaryReportItemList: [
            ['TRANSLATION', 'Translation'],
            ['POST_TRANSLATION__EDIT', 'Edit'],
            ['PUBLISH', 'Published'],
          ].map(([type, name], i) => ({
            workflowStepUid: workflowStepUid(PROJECT, type as 'TRANSLATION'),
            workflowStepName: name,
            stringCount: steps[i * 2],
            wordCount: steps[i * 2 + 1],
            workflowStepType: type,
          })),
        },
      ],
      unauthorizedProgressReport: { stringCount: unauthorized[0], wordCount: unauthorized[1] },
      progress: { totalWordCount: 4, percentComplete },
    })
    const report = async (query = '') =>
      (await t.api('GET', `${J}/${uid}/progress${query}`)).body.response.data

    expect(await report()).toEqual({
      contentProgressReport: [
        locale('fr-FR', 'French (France)', [0, 0, 0, 0, 0, 0], [2, 4], 0),
        locale('de-DE', 'German (Germany)', [0, 0, 0, 0, 0, 0], [2, 4], 0),
      ],
      progress: { totalWordCount: 8, percentComplete: 0 },
    })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(save, 'fr-FR', 'Enregistrer', false)
    await publish(open, 'fr-FR', 'Ouvrir le fichier')
    expect(await report()).toEqual({
      contentProgressReport: [
        locale('fr-FR', 'French (France)', [0, 0, 1, 1, 1, 3], [0, 0], 75),
        locale('de-DE', 'German (Germany)', [2, 4, 0, 0, 0, 0], [0, 0], 0),
      ],
      progress: { totalWordCount: 8, percentComplete: 37 },
    })
    expect(await report('?targetLocaleId=de-DE')).toEqual({
      contentProgressReport: [locale('de-DE', 'German (Germany)', [2, 4, 0, 0, 0, 0], [0, 0], 0)],
      progress: { totalWordCount: 4, percentComplete: 0 },
    })
    expect(errorOf(await t.api('GET', `${J}/${uid}/progress?targetLocaleId=ja-JP`)).field).toBe(
      'targetLocaleId',
    )
  })

  it('content without words is weighed by strings', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: '{0}' }, { stringText: '{0} {1}' }], {
      placeholderFormat: 'java',
    })
    const uid = await createJob('J', ['fr-FR'])
    await add(uid, { hashcodes: [h1, h2] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    await publish(h1, 'fr-FR', '{0}')
    const report = (await t.api('GET', `${J}/${uid}/progress`)).body.response.data
    expect(report.progress).toEqual({ totalWordCount: 0, percentComplete: 50 })
  })
})

describe('asynchronous operations (202)', () => {
  it('a large add answers 202 with the process url; the process goes IN_PROGRESS -> COMPLETED', async () => {
    // A minute of the emulator's clock: the test moves it, so the process stays IN_PROGRESS until then.
    await t.control('POST', '/config', { jobSyncMaxHashcodes: 2, jobProcessMs: 60_000 })
    const hashcodes = await t.createStrings([{ stringText: 'A' }, { stringText: 'B' }, { stringText: 'C' }])
    const uid = await createJob('J')
    const small = await add(uid, { hashcodes: hashcodes.slice(0, 2) })
    expect(small.status).toBe(200)
    const r = await add(uid, { hashcodes })
    expect(r.status).toBe(202)
    expect(r.body.response.code).toBe('ACCEPTED')
    const { message, url } = r.body.response.data
    expect(message).toEqual(expect.stringContaining(url))
    const path = new URL(url).pathname
    expect(url).toBe(`${t.url}${path}`)
    expect(path).toMatch(new RegExp(`^${J}/${uid}/processes/[0-9a-f-]{36}$`))
    const first = (await t.api('GET', path)).body.response.data
    expect(first).toEqual({
      processUid: path.split('/').pop(),
      translationJobUid: uid,
      processState: 'IN_PROGRESS',
      createdDate: expect.stringMatching(ISO_DATE),
      modifiedDate: expect.stringMatching(ISO_DATE),
    })
    const report = async () =>
      (await t.api('GET', `${J}/${uid}/progress?targetLocaleId=fr-FR`)).body.response.data
        .contentProgressReport[0].unauthorizedProgressReport.stringCount
    expect(await report()).toBe(2)
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    expect((await t.api('GET', path)).body.response.data.processState).toBe('COMPLETED')
    expect(await report()).toBe(3)
  })

  it('exactly 1000 hashcodes are accepted (202 past the default window of 100)', async () => {
    const hashcodes = await manyStrings(1000)
    const uid = await createJob('J', ['fr-FR'])
    const r = await add(uid, { hashcodes })
    expect(r.status).toBe(202)
    const path = new URL(r.body.response.data.url).pathname
    await eventually(async () =>
      (await t.api('GET', path)).body.response.data.processState === 'COMPLETED' ? true : undefined,
    )
    const report = (await t.api('GET', `${J}/${uid}/progress`)).body.response.data
    expect(report.contentProgressReport[0].unauthorizedProgressReport.stringCount).toBe(1000)
  })

  it('a large cancel answers 202 and sends the job to CANCELLED when its process completes', async () => {
    await t.control('POST', '/config', { jobSyncMaxHashcodes: 1, jobProcessMs: 60_000 })
    const hashcodes = await t.createStrings([{ stringText: 'A' }])
    const hashcodes2 = await t.createStrings([{ stringText: 'B' }])
    const uid = await createJob('J')
    await add(uid, { hashcodes })
    await add(uid, { hashcodes: hashcodes2 })
    const r = await t.api('POST', `${J}/${uid}/cancel`, { reason: 'late' })
    expect(r.status).toBe(202)
    expect(await status(uid)).toBe('AWAITING_AUTHORIZATION')
    const path = new URL(r.body.response.data.url).pathname
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    expect((await t.api('GET', path)).body.response.data.processState).toBe('COMPLETED')
    expect(await job(uid)).toMatchObject({ jobStatus: 'CANCELLED', cancelReason: 'late' })
  })

  it('large removes, locale changes and file-less operations take the same path', async () => {
    await t.control('POST', '/config', { jobSyncMaxHashcodes: 1 })
    const hashcodes = await t.createStrings([{ stringText: 'A' }, { stringText: 'B' }])
    const uid = await createJob('J', ['fr-FR'])
    expect((await add(uid, { hashcodes })).status).toBe(202)
    await sleep(20)
    expect((await t.api('POST', `${J}/${uid}/locales/de-DE`)).status).toBe(202)
    await sleep(20)
    expect((await job(uid)).targetLocaleIds).toEqual(['fr-FR', 'de-DE'])
    expect((await t.api('DELETE', `${J}/${uid}/locales/de-DE`)).status).toBe(202)
    expect((await t.api('POST', `${J}/${uid}/locales/ja-JP?syncContent=false`)).status).toBe(200)
    expect((await remove(uid, { hashcodes })).status).toBe(202)
    await sleep(20)
    expect(await job(uid)).toMatchObject({ jobStatus: 'DRAFT', targetLocaleIds: ['fr-FR', 'ja-JP'] })
  })

  it('a process FAILS when the job changed meanwhile, or by injected failure; nothing is applied', async () => {
    await t.control('POST', '/config', { jobSyncMaxHashcodes: 1, jobProcessMs: 60_000 })
    const hashcodes = await t.createStrings([{ stringText: 'A' }, { stringText: 'B' }])
    const uid = await createJob('J')
    const r = await add(uid, { hashcodes })
    expect((await t.api('POST', `${J}/${uid}/cancel`, {})).status).toBe(200)
    const path = new URL(r.body.response.data.url).pathname
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    const failed = await eventually(async () => {
      const p = (await t.api('GET', path)).body.response.data
      return p.processState === 'IN_PROGRESS' ? undefined : p
    })
    expect(failed.processState).toBe('FAILED')

    await t.control('POST', '/faults', { processFailRate: 1 })
    const other = await createJob('Other')
    const r2 = await add(other, { hashcodes })
    const path2 = new URL(r2.body.response.data.url).pathname
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    const failed2 = await eventually(async () => {
      const p = (await t.api('GET', path2)).body.response.data
      return p.processState === 'IN_PROGRESS' ? undefined : p
    })
    expect(failed2.processState).toBe('FAILED')
    expect(await status(other)).toBe('DRAFT')
  })

  it('a process is found only under its own job, and expires after processTtlMs', async () => {
    await t.control('POST', '/config', { jobSyncMaxHashcodes: 1, processTtlMs: 60_000 })
    const hashcodes = await t.createStrings([{ stringText: 'A' }, { stringText: 'B' }])
    const uid = await createJob('J')
    const other = await createJob('Other')
    const r = await add(uid, { hashcodes })
    const processUid = new URL(r.body.response.data.url).pathname.split('/').pop()
    await sleep(20)
    expect((await t.api('GET', `${J}/${uid}/processes/${processUid}`)).status).toBe(200)
    expect(errorOf(await t.api('GET', `${J}/${other}/processes/${processUid}`))).toMatchObject({
      status: 404,
      key: 'process_not_found',
    })
    await t.control('POST', '/clock', { advanceMs: 61_000 })
    expect(errorOf(await t.api('GET', `${J}/${uid}/processes/${processUid}`))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND_ERROR',
    })
  })
})
