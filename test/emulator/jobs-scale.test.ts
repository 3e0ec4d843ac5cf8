import { describe, expect, it } from 'vitest'
import { DEMO_SEED } from '../../src/emulator/demo-seed'
import { EmulatorStore } from '../../src/emulator/store/index'
import type { JobEvent, JobRecord } from '../../src/emulator/store/job-records'
import { JobStore } from '../../src/emulator/store/jobs'
import type { StringInput } from '../../src/emulator/store/strings'

/**
 * The job store's work per published translation, counted in string look-ups rather than timed: a
 * publication used to walk every string of its locale to see whether the job was done, so
 * publishing a job of n strings cost n² look-ups (20,000 strings: minutes of emulator CPU).
 */

const PROJECT = 'demo-project'
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP']

function input(text: string): StringInput {
  return {
    namespace: 'scale',
    variant: null,
    stringText: text,
    parsedStringText: text,
    placeholders: [],
    placeholderSpec: { format: 'none' },
    instruction: null,
    maxLength: null,
    format: null,
    callbackUrl: null,
    callbackMethod: null,
  }
}

function setup(count: number) {
  const store = new EmulatorStore(DEMO_SEED, () => {})
  const events: { event: JobEvent; extra: Record<string, string | number> }[] = []
  const jobs = new JobStore({
    strings: store.strings,
    now: () => 0,
    notify: (_job, event, extra) => events.push({ event, extra }),
    onChange: () => {},
  })
  store.events.on('translationPublished', ({ projectId, hashcode, localeId }) =>
    jobs.onPublished(projectId, hashcode, localeId),
  )
  const hashcodes = Array.from(
    { length: count },
    (_, i) => store.strings.upsert(PROJECT, input(`Message ${i}`), 0).string.hashcode,
  )
  const job: JobRecord = jobs.create(
    PROJECT,
    {
      jobName: 'Scale',
      targetLocaleIds: LOCALES,
      description: null,
      dueDate: null,
      referenceNumber: null,
      callbackUrl: null,
      callbackMethod: null,
    },
    'user',
  )
  jobs.addContent(job, hashcodes, LOCALES, false, 'user')
  jobs.authorize(job, 'user')
  // Look-ups from here on are the publications' work.
  let lookups = 0
  const get = store.strings.get.bind(store.strings)
  store.strings.get = (projectId, hashcode) => {
    lookups++
    return get(projectId, hashcode)
  }
  const publish = (hashcode: string, localeId: string, text = `${localeId} ${hashcode}`) =>
    store.strings.setTranslation(PROJECT, hashcode, localeId, text, true, 0)
  return { store, jobs, job, hashcodes, events, publish, lookups: () => lookups }
}

describe('job completion at scale', () => {
  it('publishing a job of 3,000 strings in 3 locales costs a few look-ups per translation', () => {
    const { job, hashcodes, events, publish, lookups } = setup(3000)
    for (const localeId of LOCALES) for (const h of hashcodes) publish(h, localeId)
    expect(job.jobStatus).toBe('COMPLETE')
    expect(events).toEqual([
      { event: 'job.localeCompleted', extra: { localeId: 'fr-FR' } },
      { event: 'job.localeCompleted', extra: { localeId: 'de-DE' } },
      { event: 'job.localeCompleted', extra: { localeId: 'ja-JP' } },
      { event: 'job.completed', extra: {} },
    ])
    // 9,000 publications: one walk per locale to confirm it is done, a handful per publication.
    // Walking the locale per publication made it 13.5 million.
    expect(lookups()).toBeLessThan(9000 * 4)
  })

  it('a published translation edited since (saved, not published) keeps its locale open', () => {
    const { store, job, hashcodes, events, publish } = setup(3)
    publish(hashcodes[0]!, 'fr-FR')
    store.strings.setTranslation(PROJECT, hashcodes[0]!, 'fr-FR', 'edited', false, 0)
    publish(hashcodes[1]!, 'fr-FR')
    publish(hashcodes[2]!, 'fr-FR')
    expect(events).toEqual([])
    expect(job.completedLocaleIds).toEqual([])
    store.strings.publish(PROJECT, hashcodes[0]!, 'fr-FR', 0)
    expect(events).toEqual([{ event: 'job.localeCompleted', extra: { localeId: 'fr-FR' } }])
    for (const localeId of ['de-DE', 'ja-JP']) for (const h of hashcodes) publish(h, localeId)
    expect(job.jobStatus).toBe('COMPLETE')
  })

  it('moving the one unpublished string to another job completes the job it left', () => {
    const { store, jobs, job, hashcodes, publish } = setup(3000)
    for (const localeId of LOCALES) for (const h of hashcodes.slice(1)) publish(h, localeId)
    expect(job.jobStatus).toBe('IN_PROGRESS')
    const other = jobs.create(
      PROJECT,
      {
        jobName: 'Other',
        targetLocaleIds: LOCALES,
        description: null,
        dueDate: null,
        referenceNumber: null,
        callbackUrl: null,
        callbackMethod: null,
      },
      'user',
    )
    // The one unpublished string moves away: what is left of the first job is all published.
    jobs.addContent(other, [hashcodes[0]!], LOCALES, true, 'user')
    expect(job.jobStatus).toBe('COMPLETE')
    expect(job.content['fr-FR']).toHaveLength(2999)
    expect(other.content).toEqual(Object.fromEntries(LOCALES.map((l) => [l, [hashcodes[0]]])))
    expect(jobs.holder(PROJECT, hashcodes[0]!, 'de-DE')?.jobName).toBe('Other')
    expect(store.strings.get(PROJECT, hashcodes[0]!)?.authorizedLocaleIds).toEqual(LOCALES)
  })
})
