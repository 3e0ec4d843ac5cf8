import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control, untilIdle } from '../helpers/sync'
import {
  CREDS,
  LONG,
  makeApp,
  messageModules,
  PROJECT,
  seeded,
  startCli,
  storedStrings,
  tms,
} from './helpers'

/**
 * `tms push` and `tms pull` killed with SIGKILL at seeded random moments (the emulator's latency
 * stretches each run over a second or two, so the kills land in extraction, authentication, creates,
 * pulls and cache writes). After every kill the cache reads as valid or as a miss, never as a
 * corrupt file, and `tms status` still runs; at the end one complete push leaves every message on the
 * service exactly once.
 */

const ROUNDS = LONG === 'short' ? 6 : 20
const COUNT = LONG === 'short' ? 400 : 2000
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP']

let emu: RunningEmulator
beforeAll(async () => {
  emu = await startEmulator({ autoTranslate: { mode: 'pseudo' } })
  // Slow enough that a run is still working at most of the kill moments, on a fast or a loaded machine.
  await control(emu, 'POST', '/_emulator/faults', { latencyMs: 400 })
})
afterAll(async () => {
  await emu?.close()
})

it(`${ROUNDS} runs killed at random moments lose nothing and never corrupt the cache`, async () => {
  const { files, texts } = messageModules(COUNT)
  const root = makeApp(files, { locales: LOCALES, baseUrl: emu.url })
  const cache = new DiskCache(join(root, '.tms-cache'), PROJECT)
  const random = seeded(20261122)
  const killedAt: string[] = []

  for (let round = 0; round < ROUNDS; round++) {
    const command = round % 2 === 0 ? 'push' : 'pull'
    const delay = Math.round(50 + random() * 950)
    const { child, done } = startCli(root, [command], CREDS)
    const timer = setTimeout(() => child.kill('SIGKILL'), delay)
    const run = await done
    clearTimeout(timer)
    killedAt.push(`${command}@${delay}ms:${run.signal ?? `exit ${run.code}`}`)
    // A run that finished before its kill must have succeeded.
    if (run.signal === null) expect(run, run.stderr).toMatchObject({ code: 0 })

    const manifest = await cache.readManifest()
    expect(manifest.hit || manifest.reason === 'no file', `manifest after ${killedAt.at(-1)}`).toBe(true)
    for (const locale of LOCALES) {
      const read = await cache.readLocale(locale, 'published')
      expect(read.hit || read.reason === 'no file', `${locale} after ${killedAt.at(-1)}`).toBe(true)
    }
    const status = await tms(root, ['status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout).messages).toBe(COUNT)
  }
  // Most runs must really have been killed, or this proves nothing.
  expect(killedAt.filter((k) => k.endsWith('SIGKILL')).length, killedAt.join(' ')).toBeGreaterThanOrEqual(
    ROUNDS / 2,
  )

  const push = await tms(root, ['push', '--json'], CREDS)
  expect(push.code, push.stderr).toBe(0)
  const stored = (await storedStrings(emu)).filter((s) => texts.includes(s.stringText))
  expect(stored).toHaveLength(COUNT)
  expect(new Set(stored.map((s) => s.stringText)).size).toBe(COUNT)
  const manifest = await cache.readManifest()
  expect(manifest.hit && Object.keys(manifest.value.entries).length).toBe(COUNT)

  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})

  await untilIdle(emu)
  const pull = await tms(root, ['pull', '--json'], CREDS)
  expect(pull.code, pull.stderr).toBe(0)
  for (const locale of LOCALES) {
    expect(JSON.parse(pull.stdout).locales[locale]).toEqual({
      messages: COUNT,
      translated: COUNT,
      missing: 0,
      coverage: 100,
    })
  }
}, 300_000)
