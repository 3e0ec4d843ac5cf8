import { createRequire } from 'node:module'

/**
 * The emulator's HTTP server libraries are optional peer dependencies of unplugin-tms: a build
 * never needs them, so a user who points the plugin at a real service does not install them. The
 * major versions here are the ones `peerDependencies` in package.json accepts (a test keeps the two
 * in step).
 */
export const EMULATOR_SERVER_PACKAGES: readonly { name: string; major: number }[] = [
  { name: 'fastify', major: 5 },
  { name: '@fastify/multipart', major: 10 },
  { name: 'yaml', major: 2 },
]

/** `npm install -D ...` (or the pnpm, yarn or bun spelling when one of them runs this process). */
export function emulatorInstallCommand(userAgent: string = process.env.npm_config_user_agent ?? ''): string {
  const specs = EMULATOR_SERVER_PACKAGES.map((p) => `${p.name}@${p.major}`).join(' ')
  const manager = /^(\w+)\//.exec(userAgent)?.[1]
  if (manager === 'pnpm') return `pnpm add -D ${specs}`
  if (manager === 'yarn') return `yarn add -D ${specs}`
  if (manager === 'bun') return `bun add -d ${specs}`
  return `npm install -D ${specs}`
}

/** Thrown by `startEmulator` (and so `tms emulator`) when a server library is not installed. */
export class EmulatorPackagesMissingError extends Error {
  readonly code = 'EMULATOR_PACKAGES_MISSING'
  readonly missing: readonly string[]

  constructor(missing: readonly string[]) {
    const all = EMULATOR_SERVER_PACKAGES.map((p) => p.name)
    super(
      `[unplugin-tms] the emulator needs ${all.slice(0, -1).join(', ')} and ${all.at(-1)}, optional peer ` +
        `dependencies of unplugin-tms that builds do not need; not installed: ${missing.join(', ')}. ` +
        `Install them with: ${emulatorInstallCommand()}`,
    )
    this.name = 'EmulatorPackagesMissingError'
    this.missing = missing
  }
}

/**
 * Checks that every server library resolves from here (where the server's module will import them
 * from) before that module is loaded, so a missing one is named with its fix instead of surfacing
 * as a bare ERR_MODULE_NOT_FOUND from inside the package.
 */
export function assertEmulatorPackages(
  resolve: (name: string) => unknown = createRequire(import.meta.url).resolve,
): void {
  const missing = EMULATOR_SERVER_PACKAGES.map((p) => p.name).filter((name) => {
    try {
      resolve(name)
      return false
    } catch {
      return true
    }
  })
  if (missing.length > 0) throw new EmulatorPackagesMissingError(missing)
}
