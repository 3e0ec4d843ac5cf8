import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control as controlAt } from '../helpers/sync'

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
  return controlAt(emu, method, `/_emulator/${path}`, body)
}

export async function requestLog(
  emu: RunningEmulator,
): Promise<{ total: number; byRoute: Record<string, number> }> {
  return (await control(emu, 'GET', 'requests')) as { total: number; byRoute: Record<string, number> }
}
