import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The built CLI (npm test builds first), as a user runs it. */
const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `tms ARGS` in `cwd` with only PATH and `env` as its environment; resolves with its exit code. */
export function tms(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** The demo seed's user. */
export const DEMO_CREDENTIALS = { TMS_USER_IDENTIFIER: 'demo-user', TMS_USER_SECRET: 'demo-secret' }
