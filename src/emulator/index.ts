/**
 * `unplugin-tms/emulator`: a local translation management service on 127.0.0.1 that follows the
 * spec's REST API, plus a control API under `/_emulator/` that plays the dashboard and translators.
 */
import { assertEmulatorPackages } from './server-packages'
import type { EmulatorOptions, RunningEmulator } from './types'

export { DEMO_SEED } from './demo-seed'
export {
  EMULATOR_SERVER_PACKAGES,
  EmulatorPackagesMissingError,
  emulatorInstallCommand,
} from './server-packages'
export type {
  AutoTranslateMode,
  AutoTranslateSettings,
  EmulatorOptions,
  EmulatorSeed,
  EmulatorSeedAccount,
  EmulatorSeedProject,
  EmulatorSeedUser,
  FaultSettings,
  RunningEmulator,
  TranslationMemoryEntry,
} from './types'

/**
 * Starts the emulator and resolves once it listens. `port: 0` (the default) picks a free port.
 * Rejects with `EmulatorPackagesMissingError` (the install command in its message) when the server
 * libraries, optional peer dependencies, are not installed.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  assertEmulatorPackages()
  const { launchEmulator } = await import('./launch')
  return launchEmulator(options)
}
