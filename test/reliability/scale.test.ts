import { afterAll, beforeAll, expect, it } from 'vitest'
import { CREDS, LONG, makeApp, messageModules, PROJECT, SECRET, startCli, tms, USER } from './helpers'

/**
 * A real app's size: `tms push` of 20,000 messages (2,000 in the short variant) into a job it then
 * authorizes, against the built CLI's emulator in its own process with the pseudo auto-translator
 * and the demo project's three locales. Meanwhile another client asks for the job every few
 * milliseconds. The job must reach COMPLETE, and that client must keep being answered: publishing a
 * job used to re-check the whole job per published translation (quadratic), which kept the emulator
 * busy for minutes and timed the push's authorize out.
 */

const COUNT = LONG === 'short' ? 2000 : 20_000
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP']
const JOB = 'Scale job'

let emulator: ReturnType<typeof startCli>
let url: string

beforeAll(async () => {
  emulator = startCli(process.cwd(), ['emulator', '--port', '0', '--quiet', '--auto-translate', 'pseudo'])
  url = await new Promise<string>((resolve, reject) => {
    let seen = ''
    emulator.child.stdout!.on('data', (d: Buffer) => {
      seen += d.toString()
      const m = /emulator listening on (http:\/\/\S+)/.exec(seen)
      if (m) resolve(m[1]!)
    })
    emulator.child.on('exit', () => reject(new Error(`emulator exited: ${seen}`)))
  })
})
afterAll(async () => {
  emulator?.child.kill('SIGTERM')
  await emulator?.done
})

interface JobList {
  response: { data: { items: { jobStatus: string }[] } }
}

it(`tms push of ${COUNT} strings into an authorized job: COMPLETE in 3 locales, other clients answered throughout`, async () => {
  const { files } = messageModules(COUNT)
  const root = makeApp(files, { locales: LOCALES, baseUrl: url, job: { name: JOB, authorize: true } })
  const auth = (await (
    await fetch(`${url}/auth-api/v2/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userIdentifier: USER, userSecret: SECRET }),
    })
  ).json()) as { response: { data: { accessToken: string } } }
  const headers = { authorization: `Bearer ${auth.response.data.accessToken}` }
  const jobsUrl = `${url}/jobs-api/v3/projects/${PROJECT}/jobs?jobName=${encodeURIComponent(JOB)}`

  const started = Date.now()
  let pushed = false
  const push = tms(root, ['push', '--json'], CREDS).finally(() => {
    pushed = true
  })
  // The other client: one request at a time, each timed from send to answer.
  let longestWaitMs = 0
  let answers = 0
  let status = 'NONE'
  while (status !== 'COMPLETE') {
    const sent = Date.now()
    const list = (await (await fetch(jobsUrl, { headers })).json()) as JobList
    longestWaitMs = Math.max(longestWaitMs, Date.now() - sent)
    answers++
    status = list.response.data.items[0]?.jobStatus ?? 'NONE'
    if (pushed && status !== 'IN_PROGRESS' && status !== 'COMPLETE') break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const completeMs = Date.now() - started
  const run = await push
  console.log(
    `scale: ${COUNT} strings x ${LOCALES.length} locales COMPLETE after ${completeMs} ms; ` +
      `${answers} job requests meanwhile, the longest answered in ${longestWaitMs} ms`,
  )

  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(status).toBe('COMPLETE')
  expect((JSON.parse(run.stdout) as { messages: number }).messages).toBe(COUNT)
  // The other client was answered all along: at least once per second of the run on average.
  expect(answers).toBeGreaterThan(completeMs / 1000)
}, 300_000)
