import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control } from './sync'

/**
 * One emulator per test file on a free port of 127.0.0.1, reset before each test unless `reset` is
 * false (a reset also empties the request log). The handle reads through to the running emulator, so
 * a test uses it as the emulator itself.
 */
export function useEmulator({ reset = true }: { reset?: boolean } = {}): RunningEmulator {
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
    await running?.close()
  })
  if (reset) {
    beforeEach(async () => {
      await control(emu, 'POST', '/_emulator/reset')
    })
  }
  return emu
}
