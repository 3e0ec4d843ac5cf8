/**
 * What a user installs: `npm pack` of this repo (the built dist/) installed into a fresh app with
 * npm, as `npm install -D unplugin-tms` would. Slow (an install, from the local npm cache when it
 * can), so one install serves every assertion.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedPackages, npmInstall, packTarball, userEnv } from '../scripts/pack-install'

const run = promisify(execFile)
const INSTALL_TIMEOUT = 300_000

/**
 * Every package of the install: unplugin-tms, its dependencies and theirs. The list is exact on
 * purpose: a dependency that brings a new package fails here first, so the count in BENCHMARKS.md
 * (bench/sections/install.ts) and the README stay true. oxc-parser's native binding is the one for
 * the platform that runs the test.
 */
const EXPECTED_PACKAGES = [
  '@formatjs/icu-messageformat-parser',
  '@formatjs/icu-skeleton-parser',
  '@jridgewell/gen-mapping',
  '@jridgewell/remapping',
  '@jridgewell/resolve-uri',
  '@jridgewell/sourcemap-codec',
  '@jridgewell/trace-mapping',
  '@oxc-parser/binding-<platform>',
  '@oxc-project/types',
  '@rolldown/pluginutils',
  'cac',
  'fdir',
  'jiti',
  'magic-string',
  'oxc-parser',
  'picomatch',
  'tinyglobby',
  'undici',
  'unplugin',
  'unplugin-tms',
  'valibot',
  'webpack-virtual-modules',
]

/** What npm itself prints to stderr (its own config warnings) is not ours to assert. */
function ownLines(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('npm warn') && !l.startsWith('npm WARN'))
    .join('\n')
}

let dir: string
let app: string
let install: { stdout: string; stderr: string }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tms-pack-'))
  app = join(dir, 'app')
  await mkdir(join(app, 'src'), { recursive: true })
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  writeFileSync(
    join(app, 'src', 'main.ts'),
    "import { t } from 'unplugin-tms/runtime'\nt('Hello {name}!', {})\n",
  )
  const tarball = await packTarball(dir)
  install = await npmInstall(app, [tarball])
}, INSTALL_TIMEOUT)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('npm install of the packed package', () => {
  it('installs 22 packages, none of the emulator server libraries, and no engine warning', () => {
    expect(install.stdout).toContain('added 22 packages')
    const names = installedPackages(app).map((n) =>
      n.replace(/^@oxc-parser\/binding-.*/, '@oxc-parser/binding-<platform>'),
    )
    expect(names).toEqual(EXPECTED_PACKAGES)
    for (const name of ['fastify', '@fastify/multipart', 'yaml', 'fflate', 'fast-glob', 'light-my-request']) {
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(false)
    }
    expect(install.stderr).not.toContain('EBADENGINE')
  })

  it('ships the MIT LICENSE that package.json names', () => {
    const pkgDir = join(app, 'node_modules', 'unplugin-tms')
    expect(JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).license).toBe('MIT')
    expect(readFileSync(join(pkgDir, 'LICENSE'), 'utf8').split('\n')[0]).toBe('MIT License')
  })

  it('tms emulator without the server libraries prints the command that installs them', async () => {
    const result = await run('npx', ['tms', 'emulator'], { cwd: app, env: userEnv() }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    )
    expect(result.code).toBe(1)
    expect(ownLines(result.stderr)).toBe(
      'error: [unplugin-tms] the emulator needs fastify, @fastify/multipart and yaml, optional peer ' +
        'dependencies of unplugin-tms that builds do not need; not installed: fastify, @fastify/multipart, ' +
        'yaml. Install them with: npm install -D fastify@5 @fastify/multipart@10 yaml@2\n',
    )
  }, 60_000)

  it('unplugin-tms/emulator imports; startEmulator rejects with the same message', async () => {
    const script = `
      const { DEMO_SEED, startEmulator } = await import('unplugin-tms/emulator')
      console.log(DEMO_SEED.users[0].userIdentifier)
      await startEmulator().catch((e) => console.log(e.code + ': ' + e.message))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      env: userEnv(),
    })
    expect(stdout).toBe(
      'demo-user\nEMULATOR_PACKAGES_MISSING: [unplugin-tms] the emulator needs fastify, @fastify/multipart ' +
        'and yaml, optional peer dependencies of unplugin-tms that builds do not need; not installed: ' +
        'fastify, @fastify/multipart, yaml. Install them with: npm install -D fastify@5 @fastify/multipart@10 yaml@2\n',
    )
  }, 60_000)

  it('the plugin entries load and tms extract runs with what is installed', async () => {
    const script = `
      for (const entry of ['vite', 'webpack', 'rollup', 'esbuild', 'rspack', 'rolldown', 'runtime', 'client']) {
        const mod = await import('unplugin-tms/' + entry)
        if (Object.keys(mod).length === 0) throw new Error(entry + ' exports nothing')
      }
      console.log('ok')`
    const loaded = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      env: userEnv(),
    })
    expect(loaded.stdout).toBe('ok\n')
    const extracted = await run('npx', ['tms', 'extract', '--json', '--no-cache'], {
      cwd: app,
      env: userEnv(),
    })
    expect(JSON.parse(extracted.stdout)).toEqual({
      messages: [
        {
          text: 'Hello {name}!',
          variant: null,
          placeholders: ['{name}'],
          locations: [{ file: 'src/main.ts', line: 2, column: 1 }],
        },
      ],
    })
  }, 60_000)
})
