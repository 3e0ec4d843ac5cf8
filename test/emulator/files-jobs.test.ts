import { describe, expect, it } from 'vitest'
import { filesApi } from './files-helpers'
import { errorOf, PROJECT, useEmulator } from './helpers'

const t = useEmulator()
const f = filesApi(t)
const JOBS = `/jobs-api/v3/projects/${PROJECT}`

describe('jobs read uploaded files through the files store part', () => {
  it('adds an uploaded file to a job, lists it, and authorizing the job authorizes the file', async () => {
    await f.put('web/app.json', 'json', '{"a": "Save", "b": "Cancel"}')
    const job = await t.api('POST', `${JOBS}/jobs`, { jobName: 'files', targetLocaleIds: ['fr-FR'] })
    const uid = job.body.response.data.translationJobUid
    const add = await t.api('POST', `${JOBS}/jobs/${uid}/file/add`, { fileUri: 'web/app.json' })
    expect(add.body.response.data).toEqual({ successCount: 2, failCount: 0 })
    const list = await t.api('GET', `${JOBS}/job/${uid}/files`)
    expect(list.body.response.data).toEqual({ totalCount: 1, items: [{ uri: 'web/app.json' }] })
    expect(
      errorOf(await t.api('POST', `${JOBS}/jobs/${uid}/file/add`, { fileUri: 'nope.json' })),
    ).toMatchObject({
      status: 400,
      field: 'fileUri',
    })
    expect((await t.api('POST', `${JOBS}/jobs/${uid}/authorize`, {})).status).toBe(200)
    const status = await f.get('/locales/fr-FR/file/status?fileUri=web%2Fapp.json')
    expect(status.body.response.data).toMatchObject({ authorizedStringCount: 2, completedStringCount: 0 })
  })

  it('does not find a deleted file', async () => {
    await f.put('gone.json', 'json', '{"a": "Gone"}')
    await f.form('/file/delete', { fileUri: 'gone.json' })
    const job = await t.api('POST', `${JOBS}/jobs`, { jobName: 'gone', targetLocaleIds: ['fr-FR'] })
    const uid = job.body.response.data.translationJobUid
    expect(
      errorOf(await t.api('POST', `${JOBS}/jobs/${uid}/file/add`, { fileUri: 'gone.json' })),
    ).toMatchObject({
      status: 400,
      field: 'fileUri',
    })
  })
})
