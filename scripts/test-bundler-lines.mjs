// Runs the bundler tests against the release lines package.json's peerDependencies promise: the oldest
// supported and the newest release of each line (vite 5 to 8, webpack 5 from 5.90, rollup 3 and 4,
// esbuild from 0.19, @rspack/core 1 and 2, rolldown 1), with the framework plugins of each vite line.
// An upstream change that breaks the plugin, or a hook an old line lacks, fails here before a user meets it.
//
//   node scripts/test-bundler-lines.mjs                 every set below, one after another
//   node scripts/test-bundler-lines.mjs floors newest   only the sets named
//   node scripts/test-bundler-lines.mjs --list          the sets and their specs
//   node scripts/test-bundler-lines.mjs --after-suite   (CI) a set that installs exactly the lock's
//                                                       versions runs only the apps: the suite has just
//                                                       run its test files on those versions
//
// A line's versions are grouped into a few sets, each one temporary copy of the checkout (its files as
// git sees them) where the bundlers of the set replace the lock's with `npm install --no-save`; then the
// bundler test files run there, and the apps of test/lines install the packed package beside the pinned
// bundler of each line. The checkout's package-lock.json and node_modules are never changed; the copies
// are removed at the end (TMS_KEEP_COPY=1 keeps them).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The framework plugins as a user of each vite line installs them: that line's own majors. */
const VITE_5 = ['@vitejs/plugin-react@^4', '@vitejs/plugin-vue@^5', '@sveltejs/vite-plugin-svelte@^4']

/**
 * Each set is one install: four sets cover every line's floor and newest release, as a copy per vite
 * release would cost minutes the CI does not have (vite 5's newest and the floors of vite 6, 7 and 8
 * are built by the apps of test/lines instead). `files`: the older lines run the tests of each
 * bundler's build, warnings, vite's dev server and SSR and the framework examples; the newest release
 * runs every bundler test file, the dev servers of webpack and rspack (whose dev-server packages follow
 * the newest lines) too.
 */
export const SETS = {
  // The oldest release of every range's first line.
  floors: {
    specs: [
      'vite@5.0.0',
      ...VITE_5,
      // Vitest 4 runs on vite 6 and later only; on vite 5 the same test files run under vitest 3.
      'vitest@^3',
      'webpack@5.90.0',
      'rollup@3.0.0',
      'esbuild@0.19.0',
      '@rspack/core@1.0.0',
      'rolldown@1.0.0',
    ],
    files: 'core',
  },
  // The newest release of the older lines.
  'older-newest': {
    specs: [
      'vite@^6',
      '@vitejs/plugin-react@^4',
      '@vitejs/plugin-vue@^5',
      '@sveltejs/vite-plugin-svelte@^5',
      'rollup@^3',
      'esbuild@0.19',
      '@rspack/core@^1',
    ],
    files: 'core',
  },
  // The floors of the newer lines, and vite 7's newest.
  'newer-floors': {
    specs: [
      'vite@^7',
      '@vitejs/plugin-react@^5',
      '@vitejs/plugin-vue@^6',
      '@sveltejs/vite-plugin-svelte@^6',
      'rollup@4.0.0',
      '@rspack/core@2.0.0',
    ],
    files: 'core',
  },
  // What a user's `npm install` gives today.
  newest: {
    specs: [
      'vite@latest',
      '@vitejs/plugin-react@latest',
      '@vitejs/plugin-vue@latest',
      '@sveltejs/vite-plugin-svelte@latest',
      'webpack@latest',
      'rollup@latest',
      'esbuild@latest',
      '@rspack/core@latest',
      'rolldown@latest',
    ],
    files: 'all',
  },
}

/** The packages whose installed versions a run prints, so a log says exactly what was tested. */
const REPORTED = [
  'vite',
  '@vitejs/plugin-react',
  '@vitejs/plugin-vue',
  '@sveltejs/vite-plugin-svelte',
  'webpack',
  'rollup',
  'esbuild',
  '@rspack/core',
  'rolldown',
]

// The test files that build with a bundler or a framework's vite plugin (vite-cli-output: what vite's
// own CLI prints of our warnings and failures, which differs between vite's lines); the rest of the
// suite does not depend on their versions.
const TEST_FILES = {
  core: [
    'test/plugin/e2e.test.ts',
    'test/plugin/problems.test.ts',
    'test/plugin/misconfig.test.ts',
    'test/plugin/ids-cache.test.ts',
    'test/plugin/dev.test.ts',
    'test/plugin/source-catalog-dev.test.ts',
    'test/plugin/vite-cli-output.test.ts',
    'test/ssr/installed.test.ts',
    'test/reliability/hostile-source.test.ts',
    'test/react/example.test.ts',
    'test/vue/example.test.ts',
    'test/svelte/example.test.ts',
  ],
  all: [
    'test/plugin',
    'test/ssr/installed.test.ts',
    'test/reliability/hostile-source.test.ts',
    'test/react/example.test.ts',
    'test/vue/example.test.ts',
    'test/svelte/example.test.ts',
  ],
}
// This step runs after the whole suite on a busy machine: a slow build is not a failure here.
const TIMEOUTS = ['--testTimeout=180000', '--hookTimeout=180000']

const repo = fileURLToPath(new URL('..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const failure = (command, args, status) =>
  new Error(`test-bundler-lines: \`${command} ${args.join(' ')}\` exited with ${status}`)

function run(command, args, cwd) {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } })
  if (result.status !== 0) throw failure(command, args, result.status)
}

function runInBackground(command, args, cwd) {
  console.log(`$ ${command} ${args.join(' ')} &`)
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (status) => (status === 0 ? resolve() : reject(failure(command, args, status))))
  })
}

const digest = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

/**
 * The checkout's files as git sees them (tracked and new, not ignored), and its node_modules as hard
 * links: seconds where `npm ci` takes minutes. npm replaces the files of a package it installs rather
 * than writing into them, so the checkout's copies stay as they were; the files npm or vitest do write in
 * place (npm's record of the tree, vitest's caches) are real copies or absent.
 */
function makeCopy(name) {
  const copy = mkdtempSync(join(tmpdir(), `unplugin-tms-${name}-`))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
  for (const file of new Set(files.split('\0'))) {
    if (!file || !existsSync(join(repo, file))) continue
    mkdirSync(dirname(join(copy, file)), { recursive: true })
    cpSync(join(repo, file), join(copy, file))
  }
  if (existsSync(join(repo, 'node_modules', '.package-lock.json'))) {
    // `-a` keeps the links of node_modules/.bin as links.
    run('cp', ['-al', join(repo, 'node_modules'), join(copy, 'node_modules')], copy)
    const record = join(copy, 'node_modules', '.package-lock.json')
    rmSync(record)
    copyFileSync(join(repo, 'node_modules', '.package-lock.json'), record)
    for (const cache of ['.vite', '.vitest', '.cache', '.tmp']) {
      rmSync(join(copy, 'node_modules', cache), { recursive: true, force: true })
    }
  } else {
    run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], copy)
  }
  return copy
}

function installedVersions(copy) {
  return REPORTED.map((name) => {
    const file = join(copy, 'node_modules', name, 'package.json')
    return `${name} ${existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : '-'}`
  })
}

/**
 * One set: install its specs, build, run the bundler tests. `--legacy-peer-deps`: the repo's other
 * dev tools (astro, the lingui and formatjs plugins, the dev servers) declare peers on the newest
 * lines, which are not what this set tests; the peers of unplugin-tms itself are checked by the
 * apps of test/lines, which install the packed package as a user does.
 */
async function runSet(name, { specs, files }, withApps, afterSuite) {
  const copy = makeCopy(name)
  const vitest = (...rest) =>
    runInBackground(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...rest], copy)
  try {
    const flags = ['--no-save', '--legacy-peer-deps', '--prefer-offline', '--no-audit', '--no-fund']
    try {
      run(npm, ['install', ...flags, ...specs], copy)
    } catch {
      // npm's cached metadata may name a release the registry does not serve yet (ETARGET): once more, fresh.
      run(
        npm,
        ['install', ...flags.map((f) => (f === '--prefer-offline' ? '--prefer-online' : f)), ...specs],
        copy,
      )
    }
    const versions = installedVersions(copy)
    console.log(`== ${name}: ${versions.join(', ')}`)
    // Today's newest releases are usually the lock's: then this set's test files are the suite's own
    // run, on the same Node, and would only repeat it (a quarter of a suite's time).
    const repeatsSuite = afterSuite && versions.join() === installedVersions(repo).join()
    if (repeatsSuite) console.log(`== ${name}: the lock's versions, whose test files the suite ran`)
    // dist/ is the same whatever bundler is installed (tsdown keeps every package external): the
    // checkout's build, when it has one (CI's `npm test` has just made it), saves a build per set.
    if (existsSync(join(repo, 'dist', 'index.mjs')))
      cpSync(join(repo, 'dist'), join(copy, 'dist'), { recursive: true })
    else run(npm, ['run', 'build'], copy)
    // The examples import the bindings as `unplugin-tms/react`, found through the package's own name
    // (self-reference), which vite 5's resolver does not follow: a user's app finds the package in
    // node_modules, and so does this copy's.
    if (specs.some((spec) => spec.startsWith('vite@5'))) {
      symlinkSync('..', join(copy, 'node_modules', 'unplugin-tms'))
    }
    // The apps install their own bundlers: whichever copy builds dist/ last packs it for them. They
    // mostly wait on npm's installs, so they run beside the bundler tests rather than after them.
    const runs = repeatsSuite ? [] : [vitest(...TIMEOUTS, ...TEST_FILES[files])]
    if (withApps) runs.push(vitest('--config', 'test/lines/vitest.config.ts'))
    const rejected = (await Promise.allSettled(runs)).find((r) => r.status === 'rejected')
    if (rejected) throw rejected.reason
  } finally {
    if (process.env.TMS_KEEP_COPY === '1') console.log(`== the copy stays in ${copy}`)
    else rmSync(copy, { recursive: true, force: true })
  }
}

const afterSuite = process.argv.includes('--after-suite')
const args = process.argv.slice(2).filter((arg) => arg !== '--after-suite')
if (args.includes('--list')) {
  for (const [name, set] of Object.entries(SETS))
    console.log(`${name}: ${set.specs.join(' ')} (${set.files})`)
  process.exit(0)
}
for (const name of args) {
  if (!(name in SETS)) {
    console.error(`test-bundler-lines: no set named "${name}"; the sets: ${Object.keys(SETS).join(', ')}`)
    process.exit(1)
  }
}
const names = args.length > 0 ? args : Object.keys(SETS)
const lockFile = join(repo, 'package-lock.json')
const lockBefore = digest(lockFile)
const failed = []
const since = (start) => Math.round((Date.now() - start) / 1000)
const allStarted = Date.now()
for (const name of names) {
  const started = Date.now()
  try {
    await runSet(name, SETS[name], name === names.at(-1), afterSuite)
    console.log(`== ${name}: passed in ${since(started)} s`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    console.log(`== ${name}: failed after ${since(started)} s`)
    failed.push(name)
  }
}
console.log(`== the bundler lines took ${since(allStarted)} s`)
if (digest(lockFile) !== lockBefore) {
  console.error("test-bundler-lines: the checkout's package-lock.json changed; it must not")
  failed.push('lock')
}
if (failed.length > 0) console.error(`test-bundler-lines: failed: ${failed.join(', ')}`)
process.exitCode = failed.length > 0 ? 1 : 0
