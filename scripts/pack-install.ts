/**
 * What a user's `npm install` of this package gives: `npm pack` of the repo (dist/ must be built),
 * installed into a fresh app. Shared by test/pack.test.ts, the README's five-minute start test and
 * the install section of the benchmarks, so the three measure the same thing.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const REPO: string = fileURLToPath(new URL('..', import.meta.url))

/**
 * The environment of a user's shell: without the `npm_*` variables an `npm test` or `npm run`
 * parent sets (its package, its lifecycle), which would otherwise steer the child npm; the cache
 * and registry settings stay, so installs can come from the local cache.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'])
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) || keep.has(key.toLowerCase())) env[key] = value
  }
  return { ...env, ...extra }
}

/** `npm pack` of the repo into `dir`; returns the tarball's path. */
export async function packTarball(dir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--silent'], {
    cwd: REPO,
    env: userEnv(),
  })
  const name = stdout.trim().split('\n').at(-1)!
  return join(dir, name)
}

/** `npm install -D <specs>` in `app`, from the local cache when it can; the output for assertions. */
export async function npmInstall(app: string, specs: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('npm', ['install', '-D', '--prefer-offline', '--no-audit', '--no-fund', ...specs], {
    cwd: app,
    env: userEnv(),
    maxBuffer: 1 << 24,
  })
}

/**
 * The packages installed in `app`, by name (`node_modules/.package-lock.json`, npm's record of the
 * tree), sorted; a package installed at two versions counts twice.
 */
export function installedPackages(app: string): string[] {
  const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, { link?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.link)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .sort()
}

/** Bytes of the files under `dir`. */
export function diskBytes(dir: string): number {
  if (!existsSync(dir)) return 0
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += diskBytes(path)
    else if (entry.isFile()) total += statSync(path).size
  }
  return total
}
