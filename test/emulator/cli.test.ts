import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function startCli(args: string[]): {
  child: ChildProcess
  firstLine: Promise<string>
  firstLines: (n: number) => Promise<string[]>
  exit: Promise<number | null>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'emulator', ...args], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  const lines = createInterface({ input: child.stdout! })
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)))
  })
  // Tests of failing starts never await the line.
  firstLine.catch(() => {})
  const seen: string[] = []
  const waiting: { n: number; resolve: (lines: string[]) => void }[] = []
  lines.on('line', (line) => {
    seen.push(line)
    for (const w of waiting) if (seen.length >= w.n) w.resolve(seen.slice(0, w.n))
  })
  const firstLines = (n: number) =>
    new Promise<string[]>((resolve, reject) => {
      if (seen.length >= n) resolve(seen.slice(0, n))
      waiting.push({ n, resolve })
      child.once('exit', (code) => reject(new Error(`exited with ${code} after ${JSON.stringify(seen)}`)))
    })
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, firstLine, firstLines, exit }
}

function stderrOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    child.stderr!.on('data', (c) => {
      text += c
    })
    child.once('exit', () => resolve(text))
  })
}

describe('tms emulator', () => {
  it('prints the listening line first, serves the seed, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-cli-'))
    try {
      const seed = join(dir, 'seed.json')
      writeFileSync(
        seed,
        JSON.stringify({
          users: [{ userIdentifier: 'cli-user', userSecret: 'cli-secret' }],
          accounts: [
            {
              accountUid: 'a',
              projects: [{ projectId: 'cli', sourceLocaleId: 'en', targetLocaleIds: ['fr'] }],
            },
          ],
        }),
      )
      const { child, firstLines, exit } = startCli([
        '--port',
        '0',
        '--seed',
        seed,
        '--data',
        join(dir, 'data.json'),
      ])
      const [line, ...env] = await firstLines(7)
      const match = /^emulator listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line!)
      expect(match).not.toBeNull()
      const url = match![1]!
      expect(Number(match![2])).toBeGreaterThan(0)
      // The lines to paste name the seed's project and user.
      expect(env).toEqual([
        '# Point a build or the tms CLI at this emulator: paste these lines into its shell',
        `export TMS_BASE_URL=${url}`,
        'export TMS_PROJECT_ID=cli',
        '# cli translates en into fr',
        'export TMS_USER_IDENTIFIER=cli-user',
        `# and TMS_USER_SECRET: the userSecret of cli-user in ${seed} (not printed)`,
      ])
      const r = await fetch(`${url}/auth-api/v2/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userIdentifier: 'cli-user', userSecret: 'cli-secret' }),
      })
      expect(r.status).toBe(200)
      child.kill('SIGTERM')
      expect(await exit).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('stops on SIGINT too', async () => {
    const { child, firstLine, exit } = startCli(['--port', '0', '--quiet'])
    expect(await firstLine).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/)
    child.kill('SIGINT')
    expect(await exit).toBe(0)
  })

  it('prints the demo seed variables, and suggests --port when the port is taken', async () => {
    const first = startCli(['--port', '0', '--quiet'])
    const lines = await first.firstLines(7)
    const port = Number(/:(\d+)$/.exec(lines[0]!)![1])
    expect(lines.slice(1)).toEqual([
      '# Point a build or the tms CLI at this emulator: paste these lines into its shell',
      `export TMS_BASE_URL=http://127.0.0.1:${port}`,
      'export TMS_PROJECT_ID=demo-project',
      '# demo-project translates en-US into fr-FR, de-DE, ja-JP',
      'export TMS_USER_IDENTIFIER=demo-user',
      'export TMS_USER_SECRET=demo-secret',
    ])
    const second = startCli(['--port', String(port)])
    const stderr = stderrOf(second.child)
    expect(await second.exit).toBe(1)
    expect(await stderr).toBe(
      `error: [unplugin-tms] port ${port} on 127.0.0.1 is already in use (another emulator?): ` +
        `choose another with --port, e.g. tms emulator --port ${port + 1}, or --port 0 for any free port\n`,
    )
    first.child.kill('SIGTERM')
    expect(await first.exit).toBe(0)
  })

  it('fails with a message naming a bad flag or seed file', async () => {
    const bad = startCli(['--port', 'abc'])
    const stderr = stderrOf(bad.child)
    expect(await bad.exit).toBe(1)
    expect(await stderr).toContain('--port must be an integer from 0 to 65535; got "abc"')
    const missing = startCli(['--port', '0', '--seed', '/nonexistent/seed.json'])
    const missingErr = stderrOf(missing.child)
    expect(await missing.exit).toBe(1)
    expect(await missingErr).toContain('cannot read emulator seed /nonexistent/seed.json')
  })
})
