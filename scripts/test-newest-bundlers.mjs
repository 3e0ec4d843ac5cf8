// Runs the bundler tests against the newest release of every bundler, not only the versions in the lock:
// what a user's `npm install` gives today. An upstream change that breaks the plugin fails here first.
//
//   node scripts/test-newest-bundlers.mjs                      every bundler at its newest release
//   node scripts/test-newest-bundlers.mjs @rspack/core@2.0.0   some at a given version (the others newest)
//
// It works in a temporary copy of the checkout (its files as git sees them, no node_modules): `npm ci`
// from the lock, then `npm install --no-save` of the bundlers there. The checkout's package-lock.json and
// node_modules are never touched; the copy is removed at the end (TMS_KEEP_COPY=1 keeps it).
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUNDLERS = ['vite', 'webpack', 'rollup', 'esbuild', '@rspack/core', 'rolldown']
// The test files that build with a bundler; the rest of the suite does not depend on their versions.
const TEST_FILES = ['test/plugin', 'test/reliability/hostile-source.test.ts']
// This step runs after the whole suite on a busy machine: a slow build is not a failure here.
const TIMEOUTS = ['--testTimeout=120000', '--hookTimeout=120000']

const repo = fileURLToPath(new URL('..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** `name@version` from the command line; a bundler not named there gets `@latest`. */
function wantedSpecs(args) {
  const given = new Map()
  for (const arg of args) {
    const at = arg.lastIndexOf('@')
    const name = at > 0 ? arg.slice(0, at) : arg
    if (!BUNDLERS.includes(name)) {
      throw new Error(`test-newest-bundlers: ${arg} is not one of the bundlers (${BUNDLERS.join(', ')})`)
    }
    given.set(name, at > 0 ? arg.slice(at + 1) : 'latest')
  }
  return BUNDLERS.map((name) => `${name}@${given.get(name) ?? 'latest'}`)
}

function run(command, args, cwd) {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } })
  if (result.status !== 0) {
    throw new Error(`test-newest-bundlers: \`${command} ${args.join(' ')}\` exited with ${result.status}`)
  }
}

const digest = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

const specs = wantedSpecs(process.argv.slice(2))
const lockFile = join(repo, 'package-lock.json')
const lockBefore = digest(lockFile)
const copy = mkdtempSync(join(tmpdir(), 'unplugin-tms-newest-'))
let failed = false
try {
  // The files of the checkout as git sees them (tracked and new, not ignored): no node_modules, no dist.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
  for (const file of new Set(files.split('\0'))) {
    if (!file || !existsSync(join(repo, file))) continue
    mkdirSync(dirname(join(copy, file)), { recursive: true })
    cpSync(join(repo, file), join(copy, file))
  }
  run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], copy)
  run(npm, ['install', '--no-save', '--no-audit', '--no-fund', ...specs], copy)
  const versions = BUNDLERS.map((name) => {
    const pkg = JSON.parse(readFileSync(join(copy, 'node_modules', name, 'package.json'), 'utf8'))
    return `${name} ${pkg.version}`
  })
  console.log(`== bundlers under test: ${versions.join(', ')}`)
  run(npm, ['run', 'build'], copy)
  run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...TIMEOUTS, ...TEST_FILES], copy)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  failed = true
} finally {
  if (process.env.TMS_KEEP_COPY === '1') console.log(`== the copy stays in ${copy}`)
  else rmSync(copy, { recursive: true, force: true })
}
if (digest(lockFile) !== lockBefore) {
  console.error("test-newest-bundlers: the checkout's package-lock.json changed; it must not")
  failed = true
}
process.exitCode = failed ? 1 : 0
