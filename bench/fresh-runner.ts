/**
 * What the fresh-process benchmark runs around its builds: `vite build` in a new `node` process (as a
 * user runs it), a warm offline cache for unplugin-tms, the emulator in a process of its own behind a
 * proxy that times each request, and the sizes of a build's output.
 */
import { spawn, spawnSync } from 'node:child_process'
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
   * The build process's minor page faults (GNU time's `%R`): each first touch of a page of memory,
   * whose cost on the machine {@link measureFaultCost} measures; NaN where /usr/bin/time is missing.
   */
  faults: number
}

/** What a run measured a minor page fault to cost: milliseconds each, and how. */
export interface FaultCost {
  ms: number
  /** How it was measured, for the section's text. */
  how: string
}

const TOUCHED_MIB = 512

/**
 * What a minor page fault costs on this machine, in milliseconds: `node` processes that fill a fresh
 * buffer of 512 MiB (each page touched once) against ones that touch nothing, in 5 pairs; the median
 * pair's extra system time over its extra faults (GNU time's `%S`, `%R`). Virtual machines differ by
 * an order of magnitude (a host that backs a page only when the guest first touches it costs the
 * most), so the section measures the machine it runs on. `before` runs before each pair, as before each
 * build (see {@link backFreeMemory}). Undefined where /usr/bin/time is missing.
 */
export function measureFaultCost(node: string, before: () => void = () => {}): FaultCost | undefined {
  if (!HAS_GNU_TIME) return undefined
  const run = (code: string): { system: number; faults: number } => {
    const { stderr } = spawnSync(GNU_TIME, ['-f', 'TMS_FAULT_COST=%S %R', node, '-e', code], {
      encoding: 'utf8',
    })
    const [system = '', faults = ''] = (/TMS_FAULT_COST=(\S+) (\d+)/.exec(stderr) ?? []).slice(1)
    return { system: Number(system), faults: Number(faults) }
  }
  const pairs: { system: number; faults: number }[] = []
  for (let i = 0; i < 5; i++) {
    before()
    const touched = run(`Buffer.allocUnsafe(${TOUCHED_MIB} * 2 ** 20).fill(1)`)
    const idle = run('0')
    pairs.push({ system: touched.system - idle.system, faults: touched.faults - idle.faults })
  }
  pairs.sort((a, b) => a.system - b.system)
  const { system, faults } = pairs[2]!
  if (!(faults > 0) || !Number.isFinite(system)) return undefined
  return {
    ms: (system * 1000) / faults,
    how: `a \`node\` process that fills a fresh ${TOUCHED_MIB} MiB buffer makes ${Math.round(faults / 1000)} k more faults than one that touches nothing and took ${system.toFixed(2)} s more system time, median of 5 pairs in this run`,
  }
}

/**
 * Whether this machine hands the memory its processes free back to its host: a virtual machine with
 * Linux's free page reporting (virtio-balloon). The host then takes back each free 2 MiB block about
 * 2 s after it was freed, and the next process to touch that memory waits until the host has backed
 * it again.
 */
export const REPORTS_FREE_PAGES: boolean = existsSync('/sys/module/page_reporting')

/**
 * Leaves `mib` MiB of memory free and backed by the host, for the build that starts next: a `node`
 * process fills that much, 64 MiB at a time, and exits. On a machine that reports free pages (see
 * {@link REPORTS_FREE_PAGES}) a build otherwise pays for the host's backing by how long ago the last
 * process ended, not by what it does (the fresh-process section's text gives the figures).
 */
export function backFreeMemory(node: string, mib: number): void {
  const chunks = Math.ceil(mib / 64)
  const fill = `const kept = []; for (let i = 0; i < ${chunks}; i++) kept.push(Buffer.alloc(64 * 2 ** 20, 1))`
  const { status, stderr } = spawnSync(node, ['-e', fill], { encoding: 'utf8' })
  if (status !== 0) throw new Error(`could not fill ${mib} MiB of memory before a build: ${stderr}`)
}

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
const HAS_GNU_TIME = existsSync(GNU_TIME)
const TIMED = HAS_GNU_TIME
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
