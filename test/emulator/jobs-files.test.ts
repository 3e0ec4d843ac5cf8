import { describe, expect, it } from 'vitest'
import { errorOf, PROJECT, useEmulator } from './helpers'

const t = useEmulator()

const J = `/jobs-api/v3/projects/${PROJECT}/jobs`
const FILES = `/files-api/v2/projects/${PROJECT}`

/** Uploads a JSON resource file through the files API (multipart, as a real client sends it). */
async function upload(fileUri: string, content: Record<string, string>): Promise<void> {
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(content)], { type: 'application/json' }), fileUri)
  form.append('fileUri', fileUri)
  form.append('fileType', 'json')
  const response = await fetch(`${t.url}${FILES}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await t.login()}` },
    body: form,
  })
  if (response.status !== 200)
    throw new Error(`upload ${fileUri}: ${response.status} ${await response.text()}`)
}

async function createJob(jobName: string, targetLocaleIds = ['fr-FR', 'de-DE']): Promise<string> {
  return (await t.api('POST', J, { jobName, targetLocaleIds })).body.response.data.translationJobUid
}

async function fileHashcodes(fileUri: string): Promise<string[]> {
  const r = await t.api('GET', `/strings-api/v2/projects/${PROJECT}/source-strings?fileUri=${fileUri}`)
  return r.body.response.data.items.map((s: { hashcode: string }) => s.hashcode)
}

const filesOf = async (uid: string, query = '') =>
  (await t.api('GET', `/jobs-api/v3/projects/${PROJECT}/job/${uid}/files${query}`)).body.response.data

describe('files in jobs', () => {
  it('adds a file: its strings join the job, the file is listed, searchable and removable', async () => {
    await upload('app/en.json', { greeting: 'Hello there', farewell: 'Goodbye' })
    await upload('app/other.json', { title: 'Settings' })
    const uid = await createJob('J')
    const added = await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'app/en.json' })
    expect(added.status).toBe(200)
    expect(added.body.response.data).toEqual({ successCount: 2, failCount: 0 })
    expect((await t.api('GET', `${J}/${uid}`)).body.response.data.jobStatus).toBe('AWAITING_AUTHORIZATION')
    expect(await filesOf(uid)).toEqual({ totalCount: 1, items: [{ uri: 'app/en.json' }] })

    const search = await t.api('POST', `${J}/search`, { fileUris: ['app/en.json'] })
    expect(
      search.body.response.data.items.map((j: { translationJobUid: string }) => j.translationJobUid),
    ).toEqual([uid])
    expect(
      (await t.api('POST', `${J}/search`, { fileUris: ['app/other.json'] })).body.response.data.totalCount,
    ).toBe(0)

    // Adding one of the other file's strings makes that file one of the job's files too.
    const [title] = await fileHashcodes('app/other.json')
    await t.api('POST', `${J}/${uid}/strings/add`, { hashcodes: [title] })
    expect((await filesOf(uid)).items).toEqual([{ uri: 'app/en.json' }, { uri: 'app/other.json' }])
    expect((await filesOf(uid, '?limit=1&offset=1')).items).toEqual([{ uri: 'app/other.json' }])

    const removed = await t.api('POST', `${J}/${uid}/file/remove`, { fileUri: 'app/en.json' })
    expect(removed.body.response.data).toEqual({ successCount: 2, failCount: 0 })
    expect((await filesOf(uid)).items).toEqual([{ uri: 'app/other.json' }])
    expect(errorOf(await t.api('POST', `${J}/${uid}/file/remove`, { fileUri: 'app/en.json' }))).toMatchObject(
      {
        status: 404,
        code: 'NOT_FOUND_ERROR',
        key: 'file_not_found',
      },
    )
  })

  it('file progress covers only the strings of that file', async () => {
    await upload('a.json', { one: 'One word', two: 'Two more words' })
    const uid = await createJob('J', ['fr-FR'])
    await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'a.json' })
    const [extra] = await t.createStrings([{ stringText: 'Not from a file' }])
    await t.api('POST', `${J}/${uid}/strings/add`, { hashcodes: [extra] })
    await t.api('POST', `${J}/${uid}/authorize`, {})
    const [one] = await fileHashcodes('a.json')
    await t.control('POST', `/projects/${PROJECT}/translations`, {
      hashcode: one,
      localeId: 'fr-FR',
      translation: 'Un mot',
      published: true,
    })
    const progress = await t.api('GET', `${J}/${uid}/file/progress?fileUri=a.json`)
    const report = progress.body.response.data
    expect(report.progress).toEqual({ totalWordCount: 5, percentComplete: 40 })
    const steps =
      report.contentProgressReport[0].workflowProgressReportList[0].workflowStepSummaryReportItemList
    expect(
      steps.map((s: { workflowStepType: string; stringCount: number }) => [
        s.workflowStepType,
        s.stringCount,
      ]),
    ).toEqual([
      ['TRANSLATION', 1],
      ['POST_TRANSLATION__EDIT', 0],
      ['PUBLISH', 1],
    ])
    const whole = (await t.api('GET', `${J}/${uid}/progress`)).body.response.data
    expect(whole.progress).toEqual({ totalWordCount: 9, percentComplete: 22 })
    expect(errorOf(await t.api('GET', `${J}/${uid}/file/progress`)).field).toBe('fileUri')
    expect(errorOf(await t.api('GET', `${J}/${uid}/file/progress?fileUri=b.json`)).status).toBe(404)
  })

  it('validates file add: unknown file, locales, job state, a file still held by an upload', async () => {
    await upload('a.json', { one: 'One' })
    const uid = await createJob('J')
    expect(errorOf(await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'missing.json' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'file_not_found',
      field: 'fileUri',
    })
    expect(errorOf(await t.api('POST', `${J}/${uid}/file/add`, {})).field).toBe('fileUri')
    const bare = await createJob('Bare', [])
    expect(errorOf(await t.api('POST', `${J}/${bare}/file/add`, { fileUri: 'a.json' })).field).toBe(
      'targetLocaleIds',
    )
    expect(
      errorOf(await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'a.json', targetLocaleIds: ['xx-XX'] }))
        .field,
    ).toBe('targetLocaleIds[0]')
    const withLocale = await t.api('POST', `${J}/${bare}/file/add`, {
      fileUri: 'a.json',
      targetLocaleIds: ['ja-JP'],
    })
    expect(withLocale.body.response.data).toEqual({ successCount: 1, failCount: 0 })
    expect((await t.api('GET', `${J}/${bare}`)).body.response.data.targetLocaleIds).toEqual(['ja-JP'])
    await t.api('POST', `${J}/${uid}/cancel`, {})
    expect(errorOf(await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'a.json' })).key).toBe(
      'invalid_job_status',
    )

    await t.control('POST', '/config', { fileOperationMs: 60_000 })
    await upload('busy.json', { one: 'Busy' })
    const other = await createJob('Other')
    expect(errorOf(await t.api('POST', `${J}/${other}/file/add`, { fileUri: 'busy.json' }))).toMatchObject({
      status: 423,
      code: 'RESOURCE_LOCKED',
    })
    await t.control('POST', '/clock', { advanceMs: 61_000 })
    expect((await t.api('POST', `${J}/${other}/file/add`, { fileUri: 'busy.json' })).status).toBe(200)
  })

  it('a job holds at most 300 files', async () => {
    const uid = await createJob('J', ['fr-FR'])
    for (let i = 0; i < 301; i++) await upload(`f${i}.json`, { k: `Text ${i}` })
    for (let i = 0; i < 300; i++) {
      const r = await t.api('POST', `${J}/${uid}/file/add`, { fileUri: `f${i}.json` })
      if (r.status !== 200) throw new Error(JSON.stringify(r.body))
    }
    expect((await filesOf(uid)).totalCount).toBe(300)
    expect(errorOf(await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'f300.json' })).field).toBe(
      'fileUri',
    )
    // Adding a file the job already holds is not a new file.
    expect((await t.api('POST', `${J}/${uid}/file/add`, { fileUri: 'f0.json' })).status).toBe(200)
  })
})
