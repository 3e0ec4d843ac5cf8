/**
 * `unplugin-tms/emulator`: a local translation management service on 127.0.0.1 that follows the
 * spec's REST API, plus a control API under `/_emulator/` that plays the dashboard and translators.
 *
 * The folder: `server-packages.ts` (fastify installed?), `launch.ts` builds `server.ts` over one
 * `context.ts`; `routes/` one file per API area (files: a kit per group of routes; jobs: request readers
 * apart), `http/` envelope, errors, query, bearer auth; `store/` the state, with its own `StoreError`
 * (hashcodes are computed only in `store/strings.ts`); `files/` resource file formats. A caller's
 * placeholder regex runs in a worker with a time bound (`placeholder-sandbox.ts`); faults,
 * auto-translator, callbacks and persistence each have their file.
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
