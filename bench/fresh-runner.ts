/**
 * What the fresh-process benchmark runs around its builds: `vite build` in a new `node` process (as a
 * user runs it), a warm offline cache for unplugin-tms, the emulator in a process of its own behind a
 * proxy that times each request, and the sizes of a build's output.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { DiskCache } from '../src/core/cache'
import { extractMessages } from '../src/core/extract/index'
import { extractOptionsOf } from '../src/core/pipeline'
import { metaDigest } from '../src/core/sync'
import { type Options, resolveOptions } from '../src/options'
import { translate } from './fresh-app'

export const repo = new URL('../', import.meta.url).pathname
const viteBin = join(repo, 'node_modules', 'vite', 'bin', 'vite.js')

/** The bench's environment without what a user's shell would not have set (vitest's, tsx's). */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.NODE_ENV
  delete env.NODE_OPTIONS
  return env
}

export interface BuildTime {
  /** Seconds from the spawn until the process has exited. */
  wall: number
  /**
   * CPU seconds (user + system) of the process and its threads: steadier than the wall time on a
   * machine whose other work takes the cores (the wall time then measures the scheduler as well).
   */
  cpu: number
  /** The build process's peak resident memory in MiB (GNU time's `%M`); NaN where /usr/bin/time is missing. */
  peakMiB: number
  /**
   * The build process's minor page faults (GNU time's `%R`): each first touch of a page of memory. On
   * a virtual machine whose host backs a page only when the guest touches it, one costs some
   * {@link FAULT_MS} of system time (see BENCHMARKS.md, "A fresh process per build"); NaN where
   * /usr/bin/time is missing.
   */
  faults: number
}

/** What a minor page fault costs on this machine when its host has yet to back the page, in milliseconds. */
export const FAULT_MS = 0.013

/** A count of page faults as the fresh-process section prints it: thousands. */
export function faultsText(faults: number): string {
  return `${(faults / 1000).toFixed(1)} k`
}

/**
 * bash runs the build, then prints its children's CPU times (`times`, second line) on stderr. GNU time
 * (Debian's `time` package), where present, wraps the build to report its peak resident memory: Node
 * has no way to read a child's.
 */
const GNU_TIME = '/usr/bin/time'
const TIMED = existsSync(GNU_TIME)
  ? `${GNU_TIME} -f 'TMS_PEAK_KB=%M TMS_FAULTS=%R' "$0" "$@"; rc=$?; echo TMS_TIMES >&2; times >&2; exit $rc`
  : '"$0" "$@"; rc=$?; echo TMS_TIMES >&2; times >&2; exit $rc'

function seconds(span: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(span)
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN
}

/**
 * `vite build` of the app at `root` with `config`, into `outDir`, in a new process of `node`, started
 * by bash (a few milliseconds) so that its CPU time can be read. A failed build throws with its output.
 */
export function freshBuild(
  node: string,
  root: string,
  config: string,
  outDir: string,
  nodeArgs: string[] = [],
): Promise<BuildTime> {
  const t0 = performance.now()
  const child = spawn(
    'bash',
    [
      '-c',
      TIMED,
      node,
      ...nodeArgs,
      viteBin,
      'build',
      '--config',
      config,
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: userEnv() },
  )
  let output = ''
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString('utf8')
  })
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString('utf8')
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      const wall = (performance.now() - t0) / 1000
      const [, children = ''] = output.slice(output.lastIndexOf('TMS_TIMES')).trim().split('\n').slice(1)
      const [user = '', system = ''] = children.trim().split(/\s+/)
      const cpu = seconds(user) + seconds(system)
      const peak = /TMS_PEAK_KB=(\d+)/.exec(output)
      const peakMiB = peak ? Number(peak[1]) / 1024 : Number.NaN
      const faulted = /TMS_FAULTS=(\d+)/.exec(output)
      const faults = faulted ? Number(faulted[1]) : Number.NaN
      if (code === 0 && Number.isFinite(cpu)) resolve({ wall, cpu, peakMiB, faults })
      else reject(new Error(`vite build ${config} in ${root} exited with ${code}:\n${output.slice(-4000)}`))
    })
  })
}

/**
 * A warm cache as a CI run keeps it: every message translated in every locale (by `translateText`,
 * fresh-app's translate unless given), no network needed.
 */
export async function seedCache(
  root: string,
  cacheDir: string,
  options: Options,
  translateText: (text: string, locale: string) => string = translate,
): Promise<number> {
  const resolved = resolveOptions({ ...options, root, cacheDir }, { command: 'build' })
  const projectId = resolved.projectId ?? ''
  const locales = resolved.locales
  const { messages } = await extractMessages(extractOptionsOf(resolved))
  const cache = new DiskCache(cacheDir, projectId)
  const entries = Object.fromEntries(
    messages.map((m, i) => [
      m.key,
      {
        hashcode: i.toString(16).padStart(32, '0'),
        parsed: m.parsed,
        variant: m.variant,
        meta: metaDigest(m, resolved.placeholder),
      },
    ]),
  )
  await cache.updateManifest(entries)
  for (const locale of locales) {
    const translations: Record<string, string> = {}
    for (const m of messages) translations[entries[m.key]!.hashcode] = translateText(m.text, locale)
    await cache.writeLocale(locale, 'published', translations)
  }
  return messages.length
}

/** `tms emulator` in a process of its own: its work does not share a thread with the bench. */
export async function emulatorProcess(node: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(node, [join(repo, 'dist', 'cli.mjs'), 'emulator', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const m = /emulator listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`tms emulator exited (${code}) before listening`)))
  })
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export interface RequestTimes {
  count: number
  /** Sum of each request's time from its arrival at the proxy to the end of its response. */
  sum: number
  /** Time during which at least one request was outstanding: what the requests can add to a build at most. */
  busy: number
}

/**
 * A proxy on 127.0.0.1 in front of `target` that records when each request starts and ends, so that a
 * build's network time is measured apart from the build (the proxy adds a loopback hop, counted in).
 */
export async function timingProxy(
  target: string,
): Promise<{ url: string; take(): RequestTimes; close(): Promise<void> }> {
  const to = new URL(target)
  let spans: [number, number][] = []
  const server = createServer((req, res) => {
    const start = performance.now()
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
        up.once('end', () => spans.push([start, performance.now()]))
      },
    )
    upstream.once('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const sorted = spans.sort((a, b) => a[0] - b[0])
      spans = []
      let busy = 0
      let end = -Infinity
      for (const [s, e] of sorted) {
        if (e <= end) continue
        busy += e - Math.max(s, end)
        end = e
      }
      return {
        count: sorted.length,
        sum: sorted.reduce((t, [s, e]) => t + e - s, 0) / 1000,
        busy: busy / 1000,
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length
}

/** Every file under `dir`, relative to it. */
export function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const path = join(rel, name)
    return statSync(join(dir, path)).isDirectory() ? filesUnder(dir, path) : [path]
  })
}

/** The entry chunk of a vite build: the script index.html loads. */
export function entryChunk(outDir: string, html = 'index.html'): string {
  const m = /<script type="module" crossorigin src="\/([^"]+)"/.exec(readFileSync(join(outDir, html), 'utf8'))
  if (!m) throw new Error(`no entry script in ${join(outDir, html)}`)
  return join(outDir, m[1]!)
}
