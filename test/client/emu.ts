import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'

export const PROJECT = 'demo-project'
export const ACCOUNT = 'demo-account'
export const LOCALES = ['fr-FR', 'de-DE', 'ja-JP'] as const
export const CREDENTIALS = { userIdentifier: 'demo-user', userSecret: 'demo-secret' }

export { type RunningEmulator, startEmulator }

/** The emulator's control API (the dashboard and the translators), outside the client on purpose. */
export async function control(
  emu: RunningEmulator,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${emu.url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as { response: { code: string; data: unknown } }
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json.response.data
}

export async function requestLog(
  emu: RunningEmulator,
): Promise<{ total: number; byRoute: Record<string, number> }> {
  return (await control(emu, 'GET', 'requests')) as { total: number; byRoute: Record<string, number> }
}

/**
 * One emulator per test file on a free port of 127.0.0.1, reset with an empty request log before each
 * test. The handle reads through to the running emulator, so a test uses it as the emulator itself.
 */
export function useEmulator(): RunningEmulator {
  let running: RunningEmulator | undefined
  const emu: RunningEmulator = {
    get url() {
      return running!.url
    },
    get port() {
      return running!.port
    },
    close: () => running!.close(),
  }
  beforeAll(async () => {
    running = await startEmulator({ port: 0 })
  })
  afterAll(async () => {
    await running!.close()
  })
  beforeEach(async () => {
    await control(emu, 'POST', 'reset', {})
    await control(emu, 'DELETE', 'requests')
  })
  return emu
}
