import { expect, it } from 'vitest'
import { createClient } from '../../src/client/index'
import { useEmulator } from '../helpers/emulator'
import { message, PROJECT, runSync, syncOptions } from '../helpers/sync'

const emu = useEmulator({ reset: false })

it('adds new strings to the job found by name (or created), authorizes it, and reuses it next time', async () => {
  // A name with a hyphen and a space: the list filter is a LIKE match on the service.
  const options = await syncOptions(emu, { job: { name: 'Release-1 web', authorize: true } })
  const messages = [message('Save'), message('Cancel')]
  const { result, log } = await runSync(options, messages)
  expect(result.pushed).toBe(2)
  expect(log).toEqual(['info: added 2 strings to job "Release-1 web"'])
  const client = createClient({ baseUrl: emu.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
  try {
    const job = await client.jobs.findByName(PROJECT, 'Release-1 web')
    expect(job?.jobStatus).toBe('IN_PROGRESS')
    const second = await runSync(options, [...messages, message('Delete')])
    expect(second.log).toEqual(['info: added 1 string to job "Release-1 web"'])
    const jobs = []
    for await (const j of client.jobs.list(PROJECT, { jobName: 'Release-1' })) jobs.push(j.jobName)
    expect(jobs).toEqual(['Release-1 web'])
    const progress = await client.jobs.progress(PROJECT, job!.translationJobUid)
    expect(progress.contentProgressReport.map((l) => l.targetLocaleId).sort()).toEqual([
      'de-DE',
      'fr-FR',
      'ja-JP',
    ])
  } finally {
    await client.close()
  }
})

it('warns and leaves a cancelled job alone instead of failing the build', async () => {
  const options = await syncOptions(emu, { job: { name: 'Old release', authorize: false } })
  await runSync(options, [message('First')])
  const client = createClient({ baseUrl: emu.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
  try {
    const job = await client.jobs.findByName(PROJECT, 'Old release')
    await client.jobs.cancel(PROJECT, job!.translationJobUid, { reason: 'test' })
  } finally {
    await client.close()
  }
  const { result, log } = await runSync(options, [message('First'), message('Second')])
  expect(result.pushed).toBe(1)
  expect(log).toEqual([
    'warn: job "Old release" is CANCELLED: 1 new string was not added to it; name a new job in the job option',
  ])
})
