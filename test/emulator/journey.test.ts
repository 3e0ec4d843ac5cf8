import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/index'
import { type Receiver, startReceiver } from '../helpers/receiver'
import { eventually, PROJECT, STRINGS, useEmulator } from './helpers'

const t = useEmulator({ callbackRetryBaseMs: 10 })

const J = `/jobs-api/v3/projects/${PROJECT}/jobs`
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP']

let receiver: Receiver
let base: string
let received: { method: string; path: string; body: Record<string, unknown> }[] = []

beforeAll(async () => {
  receiver = await startReceiver((req) => {
    received.push({ method: req.method, path: req.url, body: req.body ? JSON.parse(req.body) : {} })
  })
  base = receiver.base
})
afterAll(() => receiver.close())
beforeEach(() => {
  received = []
})

describe('journey', () => {
  it('strings -> job -> authorize -> auto-translated and published -> COMPLETE, callbacks, translations', async () => {
    // The translators work from memory and publish a minute after they translate: the emulator's
    // clock, moved below, decides when, not the machine's speed.
    await t.control('POST', `/projects/${PROJECT}/auto-translate`, { mode: 'memory', publishDelayMs: 60_000 })
    const hashcodes = await t.createStrings(
      [{ stringText: 'Hello {name}!' }, { stringText: 'Save' }, { stringText: 'Cancel' }],
      { placeholderFormatCustom: String.raw`\{\w+\}` },
    )

    const created = await t.api('POST', J, {
      jobName: 'Journey',
      targetLocaleIds: LOCALES,
      callbackUrl: `${base}/tms-hook`,
      callbackMethod: 'POST',
    })
    const uid: string = created.body.response.data.translationJobUid
    expect(created.body.response.data.jobStatus).toBe('DRAFT')

    const added = await t.api('POST', `${J}/${uid}/strings/add`, { hashcodes })
    expect(added.body.response.data).toEqual({ successCount: 3, failCount: 0 })
    const status = async () => (await t.api('GET', `${J}/${uid}`)).body.response.data.jobStatus
    expect(await status()).toBe('AWAITING_AUTHORIZATION')

    // Nothing is translated before authorization: the strings are not even returned.
    const before = await t.api(
      'GET',
      `${STRINGS}/translations?targetLocaleId=fr-FR&hashcodes=${hashcodes[0]}`,
    )
    expect(before.body.response.data).toEqual({ totalCount: 0, items: [] })

    expect((await t.api('POST', `${J}/${uid}/authorize`, {})).status).toBe(200)
    expect(await status()).toBe('IN_PROGRESS')

    // 3 strings in 3 locales come due and are published (one publication per locale's authorized
    // batch): the job is complete when the answer comes.
    expect((await t.control('POST', '/clock', { advanceMs: 60_000 })).body.response.data.ran).toBe(3)
    expect(await status()).toBe('COMPLETE')
    const progress = (await t.api('GET', `${J}/${uid}/progress`)).body.response.data
    expect(progress.progress).toEqual({ totalWordCount: 9, percentComplete: 100 })
    expect(progress.contentProgressReport.map((l: { progress: unknown }) => l.progress)).toEqual([
      { totalWordCount: 3, percentComplete: 100 },
      { totalWordCount: 3, percentComplete: 100 },
      { totalWordCount: 3, percentComplete: 100 },
    ])

    await eventually(async () => (received.length === 4 ? true : undefined))
    expect(received.every((r) => r.method === 'POST' && r.path === '/tms-hook')).toBe(true)
    expect(
      received
        .slice(0, 3)
        .map((r) => r.body)
        .sort((a, b) => String(a.localeId).localeCompare(String(b.localeId))),
    ).toEqual([
      { translationJobUid: uid, type: 'job.localeCompleted', localeId: 'de-DE' },
      { translationJobUid: uid, type: 'job.localeCompleted', localeId: 'fr-FR' },
      { translationJobUid: uid, type: 'job.localeCompleted', localeId: 'ja-JP' },
    ])
    expect(received[3].body).toEqual({ translationJobUid: uid, type: 'job.completed' })

    const expected: Record<string, string[]> = {
      'fr-FR': ['Bonjour {name} !', 'Enregistrer', 'Annuler'],
      'de-DE': ['Hallo {name}!', 'Speichern', 'Abbrechen'],
      'ja-JP': ['こんにちは、{name}！', '保存', 'キャンセル'],
    }
    for (const localeId of LOCALES) {
      const query = hashcodes.map((h) => `hashcodes=${h}`).join('&')
      const r = await t.api('GET', `${STRINGS}/translations?targetLocaleId=${localeId}&${query}`)
      const items = r.body.response.data.items as {
        hashcode: string
        translations: { translation: string }[]
      }[]
      expect(items.map((i) => i.hashcode)).toEqual(hashcodes)
      expect(items.map((i) => i.translations.map((x) => x.translation))).toEqual(
        expected[localeId]!.map((x) => [x]),
      )
    }

    // Closing the finished job keeps the published translations available.
    await t.api('POST', `${J}/${uid}/close`)
    expect(await status()).toBe('CLOSED')
    const after = await t.api('GET', `${STRINGS}/translations?targetLocaleId=de-DE&hashcodes=${hashcodes[1]}`)
    expect(after.body.response.data.items[0].translations[0].translation).toBe('Speichern')
  })

  it('the typed client drives jobs, issues and glossaries against the emulator', async () => {
    await t.control('POST', `/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
    const client = createClient({
      baseUrl: t.url,
      userIdentifier: 'demo-user',
      userSecret: 'demo-secret',
      pollIntervalMs: 5,
    })
    try {
      const results = await client.strings.createInBatches(PROJECT, {
        strings: Array.from({ length: 1500 }, (_, i) => ({ stringText: `Message number ${i}` })),
      })
      const hashcodes = results.flatMap((r) => r.items.map((i) => i.hashcode))
      expect(hashcodes).toHaveLength(1500)

      const job = await client.jobs.findOrCreate(PROJECT, {
        jobName: 'Client journey',
        targetLocaleIds: ['fr-FR'],
      })
      expect(job.jobStatus).toBe('DRAFT')
      expect((await client.jobs.findOrCreate(PROJECT, { jobName: 'Client journey' })).translationJobUid).toBe(
        job.translationJobUid,
      )
      // 1500 hashcodes: two calls (1000 + 500), each past the 100 window, so two followed 202 processes.
      const added = await client.jobs.addStrings(PROJECT, job.translationJobUid, { hashcodes })
      expect(added.processes.map((p) => p.processState)).toEqual(['COMPLETED', 'COMPLETED'])
      await client.jobs.authorize(PROJECT, job.translationJobUid)
      expect((await client.jobs.get(PROJECT, job.translationJobUid)).jobStatus).toBe('COMPLETE')
      const progress = await client.jobs.progress(PROJECT, job.translationJobUid)
      expect(progress.progress).toEqual({ totalWordCount: 4500, percentComplete: 100 })
      const searched = await client.jobs.search(PROJECT, { hashcodes: [hashcodes[1499]!] })
      expect(searched.items.map((j) => j.jobName)).toEqual(['Client journey'])
      await client.jobs.close(PROJECT, job.translationJobUid)
      expect((await client.jobs.findByName(PROJECT, 'Client journey'))?.jobStatus).toBe('CLOSED')

      const issue = await client.issues.create(PROJECT, {
        issueText: 'Too long <for> the button',
        issueTypeCode: 'TRANSLATION',
        issueSubTypeCode: 'DOES_NOT_FIT_SPACE',
        string: { hashcode: hashcodes[0]!, localeId: 'fr-FR' },
      })
      await client.issues.createComment(PROJECT, issue.issueUid, 'Shortened & fixed')
      await client.issues.setState(PROJECT, issue.issueUid, 'RESOLVED')
      const found = []
      for await (const i of client.issues.find(PROJECT, { issueStateCodes: ['RESOLVED'] }))
        found.push(i.issueText)
      expect(found).toEqual(['Too long <for> the button'])
      expect(await client.issues.count(PROJECT, { issueTypeCodes: ['TRANSLATION'] })).toBe(1)
      expect((await client.issues.comments(PROJECT, issue.issueUid)).items.map((c) => c.commentText)).toEqual(
        ['Shortened & fixed'],
      )

      const glossary = await client.glossaries.create('demo-account', {
        name: 'UI',
        description: 'Buttons',
        sourceLocaleId: 'en-US',
      })
      const listed = []
      for await (const g of client.glossaries.list('demo-account', { glossaryUids: [glossary.glossaryUid] }))
        listed.push(g.name)
      expect(listed).toEqual(['UI'])
      expect(
        await client.glossaries.edit('demo-account', glossary.glossaryUid, { name: 'UI 2' }),
      ).toMatchObject({
        name: 'UI 2',
        description: null,
      })
    } finally {
      await client.close()
    }
  })
})
