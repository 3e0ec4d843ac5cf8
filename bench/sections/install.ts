import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { diskBytes, installedPackages, npmInstall, packTarball } from '../../scripts/pack-install'
import { EMULATOR_SERVER_PACKAGES } from '../../src/emulator/server-packages'
import type { BenchSection } from '../run'

/**
 * test/pack.test.ts holds the list of these packages; a new one is a decision, not an accident. 20
 * before ICU messages; the build-time ICU parser (@formatjs/icu-messageformat-parser and its
 * skeleton parser) adds two.
 */
const PACKAGE_BUDGET = 22

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`
}

/**
 * A user's install: `npm pack` of the built repo installed with npm into an empty app, then the
 * emulator's optional server libraries added with the command `tms emulator` prints when they are
 * missing. Packages are counted from npm's record of the tree (node_modules/.package-lock.json).
 */
export async function run(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'tms-bench-install-'))
  try {
    const app = join(dir, 'app')
    const tarball = await packTarball(dir)
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
    await npmInstall(app, [tarball])
    const plugin = installedPackages(app).length
    const pluginBytes = diskBytes(join(app, 'node_modules'))
    const specs = EMULATOR_SERVER_PACKAGES.map((p) => `${p.name}@${p.major}`)
    await npmInstall(app, specs)
    const all = installedPackages(app).length
    const allBytes = diskBytes(join(app, 'node_modules'))
    const met = plugin <= PACKAGE_BUDGET ? '(met)' : '(MISSED)'
    return {
      title: 'Install',
      markdown: [
        `\`npm pack\` of this repo installed with npm ${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()} into an empty app (bench/sections/install.ts; test/pack.test.ts asserts the list of packages).`,
        "The emulator's server libraries are optional peer dependencies: only `tms emulator` and `startEmulator` need them.",
        '',
        '| install | packages | node_modules on disk | target |',
        '| --- | --- | --- | --- |',
        `| \`npm install -D unplugin-tms\` | ${plugin} | ${megabytes(pluginBytes)} | <= ${PACKAGE_BUDGET} packages ${met} |`,
        `| then \`npm install -D ${specs.join(' ')}\` (the emulator) | ${all} (+${all - plugin}) | ${megabytes(allBytes)} | |`,
      ].join('\n'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Run once by bench/run.ts: what npm installs does not depend on the Node that measures it. */
export const perNode = false
