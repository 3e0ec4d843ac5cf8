import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorOf, PROJECT, useEmulator } from './helpers'

/**
 * The page sizes the spec leaves open, as docs/emulator.md states them: the largest `limit` each list
 * takes, and the next one refused with the spec's envelope.
 */

const t = useEmulator()
const DOC = readFileSync(new URL('../../docs/emulator.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')

describe('page-size caps', () => {
  it('are the ones docs/emulator.md states, each refused one past it', async () => {
    expect(DOC).toContain(
      'find issues takes `limit` 1 to 1000 (30 without one, as the spec says); list jobs, list files in a job and list watchers take 1 to 500 (500 without one).',
    )
    const job = await t.api('POST', `/jobs-api/v3/projects/${PROJECT}/jobs`, { jobName: 'Caps' })
    const uid = job.body.response.data.translationJobUid
    const lists: [string, (limit: number) => Promise<Parameters<typeof errorOf>[0]>, number][] = [
      [
        'find issues',
        (limit) => t.api('POST', `/issues-api/v2/projects/${PROJECT}/issues/list`, { limit }),
        1000,
      ],
      ['list jobs', (limit) => t.api('GET', `/jobs-api/v3/projects/${PROJECT}/jobs?limit=${limit}`), 500],
      [
        'list files in a job',
        (limit) => t.api('GET', `/jobs-api/v3/projects/${PROJECT}/job/${uid}/files?limit=${limit}`),
        500,
      ],
      [
        'list watchers',
        (limit) => t.api('GET', `/issues-api/v2/accounts/demo-account/watchers?limit=${limit}`),
        500,
      ],
    ]
    const answers = []
    for (const [name, list, cap] of lists) {
      answers.push([name, (await list(cap)).status, errorOf(await list(cap + 1))])
    }
    const refused = { status: 400, code: 'VALIDATION_ERROR', key: 'invalid_parameter', field: 'limit' }
    expect(answers).toEqual([
      ['find issues', 200, refused],
      ['list jobs', 200, refused],
      ['list files in a job', 200, refused],
      ['list watchers', 200, refused],
    ])
  })

  it('says why excludedStringCount is always 0: the spec has no way to exclude a string', () => {
    expect(DOC).toContain(
      '`excludedStringCount` and `excludedWordCount` in file status are always 0: the spec has no way to exclude a string',
    )
  })
})
