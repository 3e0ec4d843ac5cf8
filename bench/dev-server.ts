/**
 * What the dev-loop benchmark (bench/sections/dev-loop.ts) runs around a vite dev server: the server in
 * a `node` process of its own (as `npx vite` runs it), its CPU time and memory read from /proc while it
 * runs, and the moment a text appears on the page, seen by the page itself.
 *
 * Each server runs with `--expose-gc` and answers `RETAINED_ROUTE` (bench/retained-memory.mjs: a plugin
 * the bench adds to each vite config, a route of bench/webpack-serve.mjs): its memory after two full
 * collections. What a
 * process retains tells growth apart from when its collector last ran, which two readings of its
 * resident set cannot: V8 lets the heap grow between major collections, by tens of MiB here.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { repo } from './fresh-runner'
import { RETAINED_ROUTE } from './retained-memory.mjs'

const viteBin = join(repo, 'node_modules', 'vite', 'bin', 'vite.js')
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

/** The module of the route each server answers its retained memory at (see above). */
export const RETAINED_MODULE = join(repo, 'bench', 'retained-memory.mjs')

/** The bench's environment without what a user's shell would not have set (vitest's, tsx's). */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.NODE_ENV
  delete env.NODE_OPTIONS
  return env
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface Memory {
  /** Peak resident set so far (VmHWM), MiB. */
  peak: number
  /** Resident set now (VmRSS), MiB. */
  rss: number
}

export interface DevServer {
  url: string
  /** Milliseconds from the spawn to vite's "Local:" line. */
  listening: number
  /** When the process was spawned (performance.timeOrigin + performance.now()). */
  spawnedAt: number
  /** CPU seconds (user + system, every thread) the process has used so far. */
  cpu(): number
  memory(): Memory
  /** MiB the server retains after a full collection (bench/retained-memory.mjs). */
  retained(): Promise<number>
  /** What the server printed (its warnings, the plugin's lines). */
  output(): string
  close(): Promise<void>
}

/** Wall-clock milliseconds, comparable with the page's `performance.timeOrigin + performance.now()`. */
export const now = (): number => performance.timeOrigin + performance.now()

/** `vite --config <config>`: the arguments of `node` for a server on `port`. */
export const viteArgs =
  (config: string) =>
  (port: number): string[] => [
    viteBin,
    '--config',
    config,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--strictPort',
  ]

/**
 * webpack-dev-server of the app (bench/webpack-serve.mjs), unplugin-tms's plugin given `tms` (its
 * options); `plugin`: the path of another build's webpack entry to take the plugin from.
 */
export const webpackArgs =
  (tms?: object, plugin?: string) =>
  (port: number): string[] => [
    join(repo, 'bench', 'webpack-serve.mjs'),
    String(port),
    tms ? 'tms' : 'plain',
    JSON.stringify(tms ?? {}),
    ...(plugin ? [plugin] : []),
  ]

/**
 * A dev server (`node` with `args(port)`) at `root` on a free port of 127.0.0.1; resolves once it has
 * printed its "Local:" line.
 */
export async function startDevServer(
  node: string,
  root: string,
  args: (port: number) => string[],
): Promise<DevServer> {
  const port = await freePort()
  const spawnedAt = now()
  const child = spawn(node, ['--expose-gc', ...args(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: userEnv(),
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString('utf8')
  })
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString('utf8')
  })
  const listening = await new Promise<number>((resolve, reject) => {
    const check = (): void => {
      if (/Local:/.test(out.replace(/\u001b\[[0-9;]*m/g, ''))) resolve(now() - spawnedAt)
    }
    child.stdout!.on('data', check)
    child.once('exit', (code) =>
      reject(new Error(`${args(port).join(' ')} in ${root} exited (${code}) before listening:\n${out}`)),
    )
  })
  const pid = child.pid!
  return {
    url: `http://127.0.0.1:${port}`,
    listening,
    spawnedAt,
    cpu: () => cpuOf(pid),
    memory: () => memoryOf(pid),
    retained: async () => {
      const res = await fetch(`http://127.0.0.1:${port}${RETAINED_ROUTE}`)
      if (!res.ok) throw new Error(`dev-loop: ${RETAINED_ROUTE} answered ${res.status} in ${root}`)
      return Number(await res.text()) / 1048576
    },
    output: () => out,
    close: () => stop(child),
  }
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15; the name in field 2 may hold spaces). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return { peak: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 }
}

/** SIGTERM (vite closes its server and exits), SIGKILL if it has not exited 10 s later. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/**
 * Arms the page to note when `selector`'s text becomes `text` (a MutationObserver: the page sees it as
 * it is rendered, with no polling); the returned function waits for that moment (page clock, wall
 * milliseconds). Arm, then make the change, then wait. `reloads`: the change reloads the page (a peer's
 * catalog edit), which loses the observer: the new page is polled each animation frame instead, and
 * the moment is when the poll saw the text (up to a frame late).
 */
export async function armText(
  page: Page,
  selector: string,
  text: string,
  what: string,
  reloads = false,
): Promise<() => Promise<number>> {
  const poll = (): Promise<number> =>
    page
      .waitForFunction(
        ([sel, expected]) => document.querySelector(sel)?.textContent === expected,
        [selector, text] as const,
        { polling: 'raf', timeout: TIMEOUT_MS },
      )
      .then(now, failed(page, selector, text, what))
  if (reloads) return poll
  // A string, not a function: the bench runs through tsx, whose helpers the page does not have. A
  // reload still under way (a peer's catalog update can reload twice) is waited for, then armed again.
  const arm = (): Promise<unknown> =>
    page.evaluate(`(${OBSERVE})(${JSON.stringify([selector, text, TIMEOUT_MS])})`)
  await arm().catch(async (error: Error) => {
    if (!NAVIGATED.test(error.message)) throw error
    await page.waitForLoadState('load')
    await arm()
  })
  return async () => {
    // A reload during the wait (vite's answer to a change no module accepts) loses the observer: the
    // new page is polled instead.
    const seen = await page
      .evaluate(() => (window as unknown as { __seen: Promise<number> }).__seen)
      .catch((error: Error) => (NAVIGATED.test(error.message) ? poll() : Promise.reject(error)))
    return seen < 0 ? failed(page, selector, text, what)() : seen
  }
}

const NAVIGATED = /Execution context was destroyed|navigat/i
const TIMEOUT_MS = 60_000
const OBSERVE = `([sel, expected, timeout]) => {
  window.__seen = new Promise((resolve) => {
    const check = () => {
      if (document.querySelector(sel)?.textContent !== expected) return false
      resolve(performance.timeOrigin + performance.now())
      return true
    }
    if (check()) return
    const observer = new MutationObserver(() => {
      if (check()) observer.disconnect()
    })
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
    setTimeout(() => {
      observer.disconnect()
      resolve(-1)
    }, timeout)
  })
}`

function failed(page: Page, selector: string, text: string, what: string): () => Promise<never> {
  return async () => {
    const shown = await page
      .evaluate((sel) => document.querySelector(sel)?.textContent ?? '(no such element)', selector)
      .catch(() => '(page gone)')
    throw new Error(`dev-loop: after ${what}, ${selector} never showed "${text}" (it shows "${shown}")`)
  }
}
