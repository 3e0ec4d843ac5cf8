import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Runs Node in a child process and lists every module it loaded, as URLs: what an import costs a
 * user's build or command. A module hook records each load, so a module counts as loaded only when
 * Node really read it, however it was reached (a static import, a dynamic one, an import of a package).
 */

const HOOKS = new URL('./loaded-modules-hooks.mjs', import.meta.url).href

export interface LoadedRun {
  code: number
  stdout: string
  stderr: string
  /** Every module URL loaded, in load order, each once. */
  loaded: string[]
}

export async function runRecordingLoads(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<LoadedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'tms-loads-'))
  const log = join(dir, 'loaded.txt')
  writeFileSync(log, '')
  const register =
    "import { register } from 'node:module';" +
    `register(${JSON.stringify(HOOKS)}, { data: { log: ${JSON.stringify(log)} } });`
  try {
    const run = await new Promise<Omit<LoadedRun, 'loaded'>>((resolve) => {
      execFile(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(register)}`, ...args],
        { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      )
    })
    const loaded = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))]
    return { ...run, loaded }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
