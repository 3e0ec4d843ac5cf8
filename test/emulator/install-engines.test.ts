/**
 * The emulator's server libraries, installed on Node 20 as the README says, bring no package whose
 * `engines` excludes Node 20.19 (our floor): npm's resolution of the README's command (a lockfile
 * only, from the local npm cache when it can), every package's `engines.node` checked.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { REPO, userEnv } from '../../scripts/pack-install'

const run = promisify(execFile)
// npm's own range semantics (semver ships with the dev tree; it has no types of its own).
const satisfies = createRequire(import.meta.url)('semver/functions/satisfies') as (
  version: string,
  range: string,
) => boolean
const dir = mkdtempSync(join(tmpdir(), 'tms-engines-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("the README's Node 20 install of the emulator's libraries supports Node 20.19", async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const command = /On Node 20 run `([^`]+)`/.exec(readme)?.[1]
  expect(command).toMatch(/^npm install -D fastify@5 @fastify\/multipart@10 yaml@2 /)
  const specs = command!.split(' ').slice(3)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  await run(
    'npm',
    ['install', '-D', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund', ...specs],
    {
      cwd: dir,
      env: userEnv(),
    },
  )
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } }>
  }
  const excluded = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.engines?.node && !satisfies('20.19.0', p.engines.node))
    .map(([path, p]) => `${path}@${p.version} (node ${p.engines!.node})`)
  expect(excluded).toEqual([])
  expect(Object.keys(lock.packages)).toContain('node_modules/fastify')
}, 300_000)
