import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { startProxy } from '../helpers/proxy'
import { control, untilIdle } from '../helpers/sync'
import { CREDS, makeApp, messageModules, PROJECT, SEED, tms } from './helpers'

/**
 * A pull behind a proxy that holds Node's header limit to 8 KiB (nginx and Apache allow about as
 * much for a request line): 1,000 hashcodes go out in requests the proxy accepts. The limit of
 * earlier versions, 16 KiB request lines, is refused there with 431 on every request.
 */

let emu: RunningEmulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED, autoTranslate: { mode: 'pseudo' } })
})
afterAll(async () => {
  await emu?.close()
})

it('pulls 1,000 translations through a proxy with an 8 KiB header limit; 16 KiB lines get 431', {
  timeout: 600_000,
}, async () => {
  const app = messageModules(1000)
  const root = makeApp(app.files, { locales: ['fr-FR'] })
  const direct = { ...CREDS, TMS_BASE_URL: emu.url }
  const pushed = await tms(root, ['push', '--json'], direct)
  expect(pushed.code).toBe(0)
  expect(JSON.parse(pushed.stdout).pushed).toBe(1000)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  await untilIdle(emu)

  const proxy = await startProxy(emu.url, { maxHeaderSize: 8192 })
  try {
    const behind = { ...CREDS, TMS_BASE_URL: proxy.url }
    const pulled = await tms(root, ['pull', '--json'], behind)
    expect(pulled.stderr).toBe('')
    expect(JSON.parse(pulled.stdout).locales['fr-FR']).toEqual({
      messages: 1000,
      translated: 1000,
      missing: 0,
      coverage: 100,
    })
    expect(proxy.refused).toBe(0)
    const cached = await new DiskCache(`${root}/.tms-cache`, PROJECT).readLocale('fr-FR', 'published')
    expect(cached.hit && Object.keys(cached.value.translations).length).toBe(1000)

    // The old default, now a setting: every pull request is refused, and a refusal is a configuration
    // error that names the setting, not a bad network day for the cache to hide.
    const wide = await tms(root, ['pull', '--json', '--cache', 'refresh'], {
      ...behind,
      TMS_MAX_REQUEST_LINE_BYTES: '16384',
    })
    expect(wide.code).toBe(1)
    expect(wide.stderr).toContain('431')
    expect(wide.stderr).toContain('lower the maxRequestLineBytes option (or TMS_MAX_REQUEST_LINE_BYTES)')
    expect(proxy.refused).toBeGreaterThan(0)
  } finally {
    await proxy.close()
  }
})
