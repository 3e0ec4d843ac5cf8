/**
 * The README's five-minute start, step by step, as a new user runs it: its fenced blocks, in order,
 * are the commands to run and the files to write, so the README cannot drift from what works.
 * The app is a fresh directory with what `npm create vite@latest` leaves (a package.json with vite,
 * an index.html); `unplugin-tms` is installed from `npm pack` of this repo. Two deviations, both
 * forced by a shared machine: the emulator and `vite preview` get `--port 0` (their README ports may
 * be taken by another run), and the page is opened on the port vite preview reports.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify, stripVTControlCharacters } from 'node:util'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packTarball, REPO, userEnv } from '../scripts/pack-install'

const exec = promisify(execFile)
const STEP_TIMEOUT = 300_000

interface Block {
  lang: string
  body: string
}

/** The fenced blocks and the prose of the README section `## Five-minute start`. */
function fiveMinuteStart(): { prose: string; blocks: Block[] } {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const start = readme.indexOf('\n## Five-minute start\n')
  expect(start).toBeGreaterThan(0)
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
  }))
  return { prose: section.replace(/^```[\s\S]*?^```$/gm, ''), blocks }
}

/** A README shell block's commands: its non-empty lines, comments and trailing comments dropped. */
function commands(block: Block): string[] {
  return block.body
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
}

/** A long-running command in its own process group, so the group (npx and its node) can be stopped. */
function startBackground(command: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  background.push(child)
  return child
}

/** The first `count` lines of stdout, or the process's stderr when it exits before printing them. */
function firstLines(child: ChildProcess, count: number | ((lines: string[]) => boolean)): Promise<string[]> {
  const done = typeof count === 'number' ? (lines: string[]) => lines.length >= count : count
  return new Promise((resolve, reject) => {
    const lines: string[] = []
    let stderr = ''
    child.stderr!.on('data', (d) => {
      stderr += d
    })
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      if (done(lines)) resolve([...lines])
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}\n${stderr}`)))
  })
}

const background: ChildProcess[] = []
let dir: string
let app: string
let tarball: string
let browser: Browser | undefined
const { prose, blocks } = fiveMinuteStart()
/** The variables the emulator told the user to paste. */
const pasted: Record<string, string> = {}
const env = () => userEnv({ npm_config_prefer_offline: 'true', ...pasted })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tms-readme-'))
  app = join(dir, 'app')
  mkdirSync(app)
  // What `npm create vite@latest` (vanilla TypeScript) leaves: vite as a dependency and a page.
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'my-app',
      private: true,
      type: 'module',
      devDependencies: { vite: `file:${join(REPO, 'node_modules', 'vite')}` },
    }),
  )
  writeFileSync(
    join(app, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <body>\n    <div id="app"></div>\n    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n',
  )
  tarball = await packTarball(dir)
}, STEP_TIMEOUT)

afterAll(async () => {
  for (const child of background) if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
  await Promise.all(
    background.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  )
  await browser?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe("the README's five-minute start", () => {
  const shell = blocks.filter((b) => b.lang === 'sh')
  const files = blocks.filter((b) => b.lang === 'ts')

  it('has the steps this test runs, in this order', () => {
    expect(shell.map(commands)).toEqual([
      ['npm install -D unplugin-tms', 'npm install -D fastify@5 @fastify/multipart@10 yaml@2'],
      ['npx tms emulator --auto-translate memory'],
      ['npx vite build'],
      ['npx vite preview'],
    ])
    expect(files.map((b) => b.body.split('\n')[0])).toEqual([
      '// tms.config.ts',
      '// vite.config.ts',
      '// src/main.ts',
    ])
    expect(blocks.filter((b) => b.lang === 'text')).toHaveLength(1)
  })

  it(
    '1. installs the plugin (from npm pack) and the emulator libraries',
    async () => {
      for (const command of commands(shell[0]!)) {
        // The published name becomes this repo's tarball; the rest of the command is the README's.
        await exec('sh', ['-c', command.replace(/ unplugin-tms$/, ` ${tarball}`)], { cwd: app, env: env() })
      }
      const installed = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).devDependencies
      expect(Object.keys(installed).sort()).toEqual([
        '@fastify/multipart',
        'fastify',
        'unplugin-tms',
        'vite',
        'yaml',
      ])
    },
    STEP_TIMEOUT,
  )

  it('2-3. writes tms.config.ts, vite.config.ts and src/main.ts as shown', () => {
    for (const block of files) {
      const path = join(app, block.body.split('\n')[0]!.replace(/^\/\/ /, ''))
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, block.body)
    }
  })

  it(
    '4. the emulator prints the README lines, whose exports point the build at it',
    async () => {
      const [command] = commands(shell[1]!)
      const expected = blocks
        .find((b) => b.lang === 'text')!
        .body.trimEnd()
        .split('\n')
      const emulator = startBackground(`${command} --port 0`, app, env())
      const lines = await firstLines(emulator, expected.length)
      const port = /^emulator listening on http:\/\/127\.0\.0\.1:(\d+)$/.exec(lines[0]!)?.[1]
      expect(port).toBeDefined()
      expect(lines.join('\n')).toBe(expected.join('\n').replaceAll(':4870', `:${port}`))
      for (const line of lines) {
        const m = /^export (TMS_\w+)=(\S+)$/.exec(line)
        if (m) pasted[m[1]!] = m[2]!
      }
      expect(Object.keys(pasted).sort()).toEqual([
        'TMS_BASE_URL',
        'TMS_PROJECT_ID',
        'TMS_USER_IDENTIFIER',
        'TMS_USER_SECRET',
      ])
    },
    STEP_TIMEOUT,
  )

  it(
    '5. the build pushes the message and pulls its translations',
    async () => {
      const [command] = commands(shell[2]!)
      await exec('sh', ['-c', command!], { cwd: app, env: env() })
      const report = JSON.parse(readFileSync(join(app, 'dist', 'tms-report.json'), 'utf8'))
      expect(report.pushed).toBe(1)
      expect(report.locales['fr-FR']).toMatchObject({ messages: 1, translated: 1, missing: 0 })
      expect(report.locales['de-DE']).toMatchObject({ messages: 1, translated: 1, missing: 0 })
    },
    STEP_TIMEOUT,
  )

  it(
    '6. the previewed page says the translated text after the locale switch',
    async () => {
      const [command] = commands(shell[3]!)
      const preview = startBackground(`${command} --port 0`, app, env())
      // vite colours its output when it thinks a terminal is there, or when CI is set (as in .ci/run):
      // the URL is what matters.
      const plain = (l: string) => stripVTControlCharacters(l)
      const lines = await firstLines(preview, (l) => l.some((x) => /Local:\s+http/.test(plain(x))))
      const local = lines
        .map(plain)
        .map((l) => /Local:\s+(http:\/\/\S+?)\/?$/.exec(l)?.[1])
        .find(Boolean)!
      const path = /`http:\/\/localhost:4173(\/[^`]*)`/.exec(prose)![1]!
      const text = /says `([^`]+)`/.exec(prose)![1]!
      expect([path, text]).toEqual(['/?locale=fr-FR', 'Bonjour Ada !'])
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      })
      const page = await browser.newPage()
      await page.goto(`${local}${path}`)
      await page.waitForFunction((t) => document.querySelector('#app')?.textContent === t, text)
      expect(await page.textContent('#app')).toBe(text)
      // Without a locale in the address the page stays in the source language.
      await page.goto(local)
      await page.waitForFunction(() => document.querySelector('#app')?.textContent !== '')
      expect(await page.textContent('#app')).toBe('Hello Ada!')
    },
    STEP_TIMEOUT,
  )
})
