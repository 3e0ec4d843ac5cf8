import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startEmulator } from '../../src/emulator/index'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tms-jobs-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

// biome-ignore lint/suspicious/noExplicitAny: test assertions walk the JSON freely
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>

async function session(dataFile: string, fn: (call: Call, url: string) => Promise<void>) {
  const emulator = await startEmulator({ port: 0, dataFile })
  try {
    const auth = await fetch(`${emulator.url}/auth-api/v2/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userIdentifier: 'demo-user', userSecret: 'demo-secret' }),
    })
    const token = (await auth.json()).response.data.accessToken
    await fn(async (method, path, body) => {
      const r = await fetch(emulator.url + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: r.status, body: await r.json() }
    }, emulator.url)
  } finally {
    await emulator.close()
  }
}

const J = '/jobs-api/v3/projects/demo-project/jobs'

it('jobs, their content, issues and glossaries survive a restart with --data', async () => {
  const dataFile = join(dir, 'emulator.json')
  let uid = ''
  let hashcode = ''
  let issueUid = ''
  let glossaryUid = ''
  await session(dataFile, async (call) => {
    const created = await call('POST', '/strings-api/v2/projects/demo-project', {
      strings: [{ stringText: 'Kept' }],
    })
    hashcode = created.body.response.data.items[0].hashcode
    uid = (await call('POST', J, { jobName: 'Persisted', targetLocaleIds: ['fr-FR'] })).body.response.data
      .translationJobUid
    await call('POST', `${J}/${uid}/strings/add`, { hashcodes: [hashcode] })
    await call('POST', `${J}/${uid}/authorize`, {})
    issueUid = (
      await call('POST', '/issues-api/v2/projects/demo-project/issues', {
        issueText: 'Kept issue',
        issueTypeCode: 'SOURCE',
        issueSubTypeCode: 'CLARIFICATION',
        string: { hashcode, localeId: null },
      })
    ).body.response.data.issueUid
    glossaryUid = (
      await call('POST', '/glossary-api/v2/accounts/demo-account/glossaries', {
        name: 'G',
        description: 'D',
        sourceLocaleId: 'en-US',
      })
    ).body.response.data.glossaryUid
  })
  const saved = JSON.parse(readFileSync(dataFile, 'utf8')).state
  expect(saved.jobs.jobs[0]).toMatchObject({ translationJobUid: uid, jobStatus: 'IN_PROGRESS' })
  await session(dataFile, async (call, url) => {
    expect((await call('GET', `${J}/${uid}`)).body.response.data).toMatchObject({
      jobName: 'Persisted',
      jobStatus: 'IN_PROGRESS',
    })
    // The one-job-per-string index is rebuilt: another job cannot take the string's fr-FR.
    const other = (await call('POST', J, { jobName: 'Other', targetLocaleIds: ['fr-FR'] })).body.response.data
    const add = await call('POST', `${J}/${other.translationJobUid}/strings/add`, { hashcodes: [hashcode] })
    expect(add.body.response.data).toEqual({ successCount: 0, failCount: 1 })
    // Publishing after the restart still completes the job.
    await fetch(`${url}/_emulator/projects/demo-project/translations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hashcode, localeId: 'fr-FR', translation: 'Gardé', published: true }),
    })
    expect((await call('GET', `${J}/${uid}`)).body.response.data.jobStatus).toBe('COMPLETE')
    expect(
      (await call('GET', `/issues-api/v2/projects/demo-project/issues/${issueUid}`)).body.response.data
        .issueText,
    ).toBe('Kept issue')
    expect(
      (await call('GET', `/glossary-api/v2/accounts/demo-account/glossaries/${glossaryUid}`)).body.response
        .data.name,
    ).toBe('G')
  })
})
