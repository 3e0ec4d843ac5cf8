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
