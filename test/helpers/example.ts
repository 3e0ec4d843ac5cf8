import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control } from './sync'

/** What the example tests share: the demo emulator, and a copy of an example to build. */

export const REPO: string = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The emulator with the demo seed, its translators on (the translation memory, published at once), and
 * the TMS_* variables an example's vite.config.ts reads pointed at it.
 */
export async function startDemoEmulator(): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0 })
  await control(emu, 'POST', '/_emulator/projects/demo-project/auto-translate', {
    mode: 'memory',
    publishDelayMs: 0,
  })
  Object.assign(process.env, {
    TMS_BASE_URL: emu.url,
    TMS_PROJECT_ID: 'demo-project',
    TMS_USER_IDENTIFIER: 'demo-user',
    TMS_USER_SECRET: 'demo-secret',
  })
  return emu
}

/**
 * A fresh copy of an example's folder (no dist, no cache) under the repo's .tmp/, where it resolves its
 * packages and unplugin-tms as the example itself does. The caller removes it.
 */
export function copyExample(example: string, prefix: string): string {
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  const root = mkdtempSync(join(REPO, '.tmp', prefix))
  cpSync(example, root, { recursive: true, filter: (src) => !/[\\/](?:dist|\.tms-cache)$/.test(src) })
  return root
}
