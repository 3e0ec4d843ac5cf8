import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  assertEmulatorPackages,
  EMULATOR_SERVER_PACKAGES,
  EmulatorPackagesMissingError,
  emulatorInstallCommand,
} from '../../src/emulator/server-packages'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

describe('the emulator server libraries', () => {
  it('are optional peer dependencies of the majors the install command names, never dependencies', () => {
    for (const { name, major } of EMULATOR_SERVER_PACKAGES) {
      expect(pkg.dependencies[name]).toBeUndefined()
      expect(pkg.peerDependencies[name]).toMatch(new RegExp(`^\\^${major}\\.`))
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true })
      // The repo's own tests run the emulator.
      expect(pkg.devDependencies[name]).toBe(pkg.peerDependencies[name])
    }
  })

  it('missing, fail with the names and the install command', () => {
    const missing = new Set(['fastify', 'yaml'])
    let error: unknown
    try {
      assertEmulatorPackages((name) => {
        if (missing.has(name)) throw new Error(`Cannot find module '${name}'`)
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EmulatorPackagesMissingError)
    expect((error as EmulatorPackagesMissingError).code).toBe('EMULATOR_PACKAGES_MISSING')
    expect((error as Error).message).toBe(
      '[unplugin-tms] the emulator needs fastify, @fastify/multipart and yaml, optional peer dependencies ' +
        'of unplugin-tms that builds do not need; not installed: fastify, yaml. ' +
        `Install them with: ${emulatorInstallCommand()}`,
    )
    expect(() => assertEmulatorPackages(() => undefined)).not.toThrow()
  })

  it('install command follows the package manager that runs the process', () => {
    expect(emulatorInstallCommand('')).toBe('npm install -D fastify@5 @fastify/multipart@10 yaml@2')
    expect(emulatorInstallCommand('npm/11.1.0 node/v20.19.0 linux x64')).toBe(
      'npm install -D fastify@5 @fastify/multipart@10 yaml@2',
    )
    expect(emulatorInstallCommand('pnpm/10.2.0 npm/? node/v22.12.0')).toBe(
      'pnpm add -D fastify@5 @fastify/multipart@10 yaml@2',
    )
    expect(emulatorInstallCommand('yarn/4.5.0 npm/? node/v22.12.0')).toBe(
      'yarn add -D fastify@5 @fastify/multipart@10 yaml@2',
    )
    expect(emulatorInstallCommand('bun/1.2.0 npm/? node/v24.0.0')).toBe(
      'bun add -d fastify@5 @fastify/multipart@10 yaml@2',
    )
  })
})
