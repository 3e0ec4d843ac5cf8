import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rollup } from 'rollup'
import type { TmsReport } from '../../src/core/report'
import type { EmulatorSeed, RunningEmulator } from '../../src/emulator/index'
import { type Options, type ResolvedOptions, resolveOptions } from '../../src/options'
import tmsRollup from '../../src/rollup'
import { control } from '../helpers/sync'

/**
 * Shared parts of the reliability tests: how long the long variants run, the built CLI as a child
 * process, throw-away apps with many messages, and what the emulator holds.
 */

export const PROJECT = 'demo-project'
export const USER = 'demo-user'
export const SECRET = 'demo-secret'

/**
 * `TMS_LONG_TESTS` unset: the short variants `npm test` runs. `bounded` (what .ci/run sets) and
 * `full`: the issue's sizes; `full` also keeps the load on the emulator for the whole 30 s.
 */
export const LONG: 'short' | 'bounded' | 'full' =
  process.env.TMS_LONG_TESTS === 'full' ? 'full' : process.env.TMS_LONG_TESTS ? 'bounded' : 'short'

export const CLI: string = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Starts `tms <args>` from the built CLI; `done` settles when it exits (also after a kill). */
export function startCli(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString('utf8')
  })
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString('utf8')
  })
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
  return { child, done }
}

export function tms(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return startCli(cwd, args, env).done
}

export const CREDS: Record<string, string> = { TMS_USER_IDENTIFIER: USER, TMS_USER_SECRET: SECRET }

/** A build of the app at `root` into French against the service at `baseUrl`, with no TMS_* variables. */
export function frenchBuildOptions(root: string, baseUrl: string): ResolvedOptions {
  return resolveOptions(
    { root, baseUrl, projectId: PROJECT, userIdentifier: USER, userSecret: SECRET, locales: ['fr-FR'] },
    { command: 'build', env: {} },
  )
}

/** A temp project: package.json with a unique name (the namespace), tms.config.json, source files. */
export function makeApp(
  files: Record<string, string>,
  config: Record<string, unknown>,
  prefix = 'tms-rel-',
): string {
  const root = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: `rel-${Math.random().toString(36).slice(2)}`, type: 'module' }),
  )
  writeFileSync(join(root, 'tms.config.json'), JSON.stringify({ projectId: PROJECT, ...config }))
  for (const [file, text] of Object.entries(files)) writeFiles(root, { [file]: text })
  return root
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), text)
  }
}

/** `<label> <i> of {<name>}` texts, one `t()` call each, one module per 500 so no file is huge. */
export function messageModules(
  count: number,
  name = 'app',
  label = 'Message',
): { files: Record<string, string>; texts: string[] } {
  const texts = Array.from({ length: count }, (_, i) => `${label} ${i} of {${name}}`)
  const files: Record<string, string> = {}
  for (let start = 0; start < count; start += 500) {
    const lines = ["import { t } from 'unplugin-tms/runtime'", `export const ${name} = 'x'`]
    // Called where they are rendered, as an app does: a t() at module level is warned of.
    lines.push('export const all = () => [')
    for (const text of texts.slice(start, start + 500)) {
      lines.push(`  t(${JSON.stringify(text)}, { ${name} }),`)
    }
    lines.push(']')
    files[`src/m${start / 500}.js`] = `${lines.join('\n')}\n`
  }
  return { files, texts }
}

export interface StateString {
  hashcode: string
  stringText: string
  namespace: string | null
  translations: Record<string, { published: string | null; pending: string | null }>
}

/** The strings of the demo project as the emulator's dashboard shows them. */
export async function storedStrings(emu: RunningEmulator): Promise<StateString[]> {
  const state = (await control(emu, 'GET', '/_emulator/state')) as {
    projects: Array<{ projectId: string; strings: StateString[] }>
  }
  return state.projects.find((p) => p.projectId === PROJECT)!.strings
}

/** Every file below a directory with its bytes (for scans of whole output trees). */
export function filesBelow(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  const walk = (d: string): void => {
    let entries: string[]
    try {
      entries = readdirSync(d)
    } catch {
      return
    }
    for (const name of entries) {
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else out.set(path, readFileSync(path))
    }
  }
  walk(dir)
  return out
}

/** A small deterministic generator for the "random" moments of the kill tests. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The demo user and a project with five target locales, for pulls of five locales. */
export const FIVE_LOCALES: string[] = ['fr-FR', 'de-DE', 'ja-JP', 'es-ES', 'it-IT']
export const SEED: EmulatorSeed = {
  users: [{ userIdentifier: USER, userSecret: SECRET }],
  accounts: [
    {
      accountUid: 'demo-account',
      projects: [{ projectId: PROJECT, sourceLocaleId: 'en-US', targetLocaleIds: FIVE_LOCALES }],
    },
  ],
}

export interface RollupBuilt {
  outDir: string
  warnings: string[]
  report: TmsReport | undefined
}

/** A production rollup build of `<root>/src/main.js` through the plugin (the sources, as other plugin tests do). */
export async function rollupBuild(root: string, options: Options, outName = 'dist'): Promise<RollupBuilt> {
  const outDir = join(root, outName)
  rmSync(outDir, { recursive: true, force: true })
  const warnings: string[] = []
  const bundle = await rollup({
    input: join(root, 'src/main.js'),
    plugins: [tmsRollup({ root, ...options })],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message)
    },
  })
  try {
    await bundle.write({ dir: outDir, format: 'es' })
  } finally {
    await bundle.close()
  }
  let report: TmsReport | undefined
  try {
    report = JSON.parse(readFileSync(join(outDir, 'tms-report.json'), 'utf8')) as TmsReport
  } catch {
    report = undefined
  }
  return { outDir, warnings, report }
}

/** `main.js` importing every generated module, so every message is in the bundle. */
export function mainModule(files: Record<string, string>): string {
  const modules = Object.keys(files).filter((f) => f !== 'src/main.js')
  const imports = modules.map((f, i) => `import { all as a${i} } from './${f.slice('src/'.length)}'`)
  const render = `export const render = () => [${modules.map((_, i) => `...a${i}`).join(', ')}]`
  // Exporting setLocale keeps the catalogs: without it a bundler rightly drops them as unreachable.
  return `${imports.join('\n')}\nexport { setLocale } from 'unplugin-tms/runtime'\n${render}\n`
}
