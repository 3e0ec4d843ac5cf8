/**
 * The dev loop as a developer lives it, on the fresh-process section's React app (bench/fresh-app.ts):
 * `vite` (the dev server) spawned until the page is fully rendered in headless Chromium, a message
 * edited in a component until the page shows it (HMR), a catalog update in the cache (what `tms pull`
 * writes) until the page shows the new translation, and the dev server's memory after all of it. The
 * plain app (the same components, no i18n plugin: `t` untransformed returns the source text) is the
 * baseline; Lingui and FormatJS run beside on the same app in their own syntax, their catalog update
 * being an edit of their catalog file. webpack-dev-server serves the plain and unplugin-tms apps too
 * (bench/webpack-serve.mjs).
 *
 * Knobs: TMS_BENCH_DEV_MODULES (default 200; the issue's app is 2000), TMS_BENCH_DEV_ROUNDS (server
 * starts timed per variant after a warm-up start, default 3), TMS_BENCH_DEV_EDITS (default 50),
 * TMS_BENCH_DEV_PULLS (default 20), TMS_BENCH_DEV_PEERS=0 to leave the peers out, TMS_BENCH_DEV_WEBPACK=0
 * to leave webpack-dev-server out, TMS_BENCH_DEV_NODE (the node binary of the dev servers; default the
 * one running the bench), TMS_BENCH_DEV_BASE (another checkout, built: its plugin in columns of its own,
 * `tms-base` and `webpack-tms-base`, to pair a change's before and after in one run).
 */
import { cpSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from '@formatjs/icu-messageformat-parser'
import type { Browser, Page } from 'playwright-core'
import { DiskCache } from '../../src/core/cache'
import { launchChromium } from '../../test/plugin/bundlers'
import {
  armText,
  type DevServer,
  type Memory,
  now,
  RETAINED_MODULE,
  startDevServer,
  viteArgs,
  webpackArgs,
} from '../dev-server'
import {
  type FreshMessage,
  type FreshTool,
  formatjsId,
  freshMessages,
  TARGET_LOCALES,
  translate,
  writeFreshApp,
} from '../fresh-app'
import { repo, seedCache } from '../fresh-runner'
import { nodeVersionOf, OFFLINE, PROJECT, react, TMS_OPTIONS, tmsConfig, variants } from '../fresh-variants'
import type { BenchSection } from '../run'
import { median } from '../vite-app-corpus'

/** This section spawns its own dev servers; TMS_BENCH_DEV_NODE picks their Node. */
export const perNode = false

const MODULES = Number(process.env.TMS_BENCH_DEV_MODULES ?? 200)
const ROUNDS = Number(process.env.TMS_BENCH_DEV_ROUNDS ?? 3)
const EDITS = Number(process.env.TMS_BENCH_DEV_EDITS ?? 50)
const PULLS = Number(process.env.TMS_BENCH_DEV_PULLS ?? 20)
const PEERS = process.env.TMS_BENCH_DEV_PEERS !== '0'
const PEER_PULLS = 5
const WEBPACK = process.env.TMS_BENCH_DEV_WEBPACK !== '0'
const BASE = process.env.TMS_BENCH_DEV_BASE
const BASE_PACKAGE = 'unplugin-tms-base'
const NODE = process.env.TMS_BENCH_DEV_NODE ?? process.execPath
const LOCALE = TARGET_LOCALES[0]
const corpus = join(repo, 'bench', '.corpus', 'dev')
/** The edits go round the first components' headings; the catalog updates change component 0's. */
const EDITED = Math.min(10, MODULES - 1)

interface DevVariant {
  key: string
  label: string
  tool: FreshTool
  /** The vite config's plugins, as fresh-variants writes them. */
  config: string
  /** webpack-dev-server instead of vite: unplugin-tms's options, or {} for none. */
  webpack?: { tms?: object; plugin?: string }
  /** The page's text of a message in LOCALE. */
  shown(text: string): string
  /** Writes the n-th catalog update of component 0's heading (its text: `pulled(n)`). */
  pull?(root: string, n: number): Promise<void>
  /** The catalog update reloads the page (a peer's catalog is a module its entry imports). */
  reloads?: boolean
}

const heading = (i: number): string => `.view-${i} h2`
const first = (messages: FreshMessage[][], i: number): string => messages[i]![0]!.text

/** Component 0's heading in LOCALE after the n-th catalog update (the 0th: as seeded). */
function pulled(messages: FreshMessage[][], n: number): string {
  const text = translate(first(messages, 0), LOCALE)
  return n === 0 ? text : `${text} pull ${n}`
}

function variantsOf(messages: FreshMessage[][]): DevVariant[] {
  const text0 = first(messages, 0)
  const updated = (n: number): string => pulled(messages, n)
  const all: DevVariant[] = [
    {
      key: 'plain',
      label: 'plain vite dev server (@vitejs/plugin-react, no i18n plugin)',
      tool: 'tms',
      config: `${react}export default { plugins: [react()] }\n`,
      shown: (text) => text,
    },
    {
      key: 'tms',
      label: 'unplugin-tms, runtime mode, warm cache, offline',
      tool: 'tms',
      config: tmsConfig(OFFLINE),
      shown: (text) => translate(text, LOCALE),
      // What `tms pull` does to the cache: the locale's file replaced (atomically) with the new translations.
      async pull(root, n) {
        const cache = new DiskCache(join(root, OFFLINE.cacheDir), PROJECT)
        const read = await cache.readLocale(LOCALE, 'published')
        if (!read.hit) throw new Error(`dev-loop: no ${LOCALE} catalog in the cache (${read.reason})`)
        const translations = { ...read.value.translations }
        const was = updated(n - 1)
        const hashcode = Object.keys(translations).find((h) => translations[h] === was)
        if (!hashcode) throw new Error(`dev-loop: the cache has no ${LOCALE} translation "${was}"`)
        translations[hashcode] = updated(n)
        await cache.writeLocale(LOCALE, 'published', translations)
      },
    },
  ]
  // Another checkout's build beside this one, in the same run: before and after a change, paired.
  if (BASE) {
    all.push({
      ...all[1]!,
      key: 'tms-base',
      label: `unplugin-tms as built in ${BASE}, runtime mode, warm cache, offline`,
      config: tmsConfig(OFFLINE).replace("'unplugin-tms/vite'", `'${BASE_PACKAGE}/vite'`),
    })
  }
  if (WEBPACK) {
    all.push(
      {
        ...all[0]!,
        key: 'webpack-plain',
        label: 'plain webpack-dev-server (SWC for the TSX, React Fast Refresh, no i18n plugin)',
        webpack: {},
      },
      {
        ...all[1]!,
        key: 'webpack-tms',
        label: 'webpack-dev-server, unplugin-tms runtime mode, warm cache, offline',
        webpack: { tms: { ...TMS_OPTIONS, ...OFFLINE } },
      },
    )
    if (BASE) {
      all.push({
        ...all.at(-1)!,
        key: 'webpack-tms-base',
        label: `webpack-dev-server, unplugin-tms as built in ${BASE}, runtime mode, warm cache, offline`,
        webpack: { tms: { ...TMS_OPTIONS, ...OFFLINE }, plugin: join(BASE, 'dist', 'webpack.mjs') },
      })
    }
  }
  if (!PEERS) return all
  const lingui = variants('', NODE, '').find((v) => v.key === 'lingui')!
  return [
    ...all,
    {
      key: 'lingui',
      // Lingui 6 on Node >= 22.19, else Lingui 5 (as the fresh-process section builds it).
      label: `${lingui.label}`,
      tool: 'lingui',
      config: lingui.config,
      shown: (text) => translate(text, LOCALE),
      reloads: true,
      async pull(root, n) {
        const file = join(root, 'src', 'locales', `${LOCALE}.po`)
        const was = updated(n - 1)
        replaceOnce(file, `msgstr ${JSON.stringify(was)}`, `msgstr ${JSON.stringify(updated(n))}`)
      },
    },
    {
      key: 'formatjs',
      label: '`@formatjs/vite-plugin` + react-intl, compiled JSON catalogs',
      tool: 'formatjs',
      // As in development: the default message stays (a message typed since has no translation yet).
      config: `${react}import formatjs from '@formatjs/vite-plugin'\nexport default { plugins: [react(), formatjs({ idInterpolationPattern: '[sha512:contenthash:base64:6]', ast: true })] }\n`,
      shown: (text) => translate(text, LOCALE),
      reloads: true,
      async pull(root, n) {
        const file = join(root, 'src', 'lang', `${LOCALE}.json`)
        const catalog = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
        catalog[formatjsId(text0)] = parse(updated(n))
        writeFileSync(file, JSON.stringify(catalog))
      },
    },
  ]
}

function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8')
  if (!text.includes(from)) throw new Error(`dev-loop: ${file} has no ${from}`)
  writeFileSync(file, text.replace(from, to))
}

/** The app re-renders on a catalog hot update, as an app using unplugin-tms/react's `useLocale` does. */
function withUseLocale(root: string): void {
  const file = join(root, 'src', 'main.tsx')
  const text = readFileSync(file, 'utf8')
  writeFileSync(
    file,
    `import { useLocale } from 'unplugin-tms/react'\n${text.replace('function App() {\n', 'function App() {\n  useLocale()\n')}`,
  )
}

/**
 * The other checkout's plugin as a package of the app's own node_modules. Imported by its path, vite
 * would bundle the whole plugin into the config when it loads it (it bundles what is not a package), a
 * cost of about 0.5 s of CPU at every start that the other column does not pay.
 */
function installBase(root: string): void {
  const dir = join(root, 'node_modules', BASE_PACKAGE)
  cpSync(join(BASE!, 'dist'), join(dir, 'dist'), { recursive: true })
  const pkg = JSON.parse(readFileSync(join(BASE!, 'package.json'), 'utf8')) as { name: string }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, name: BASE_PACKAGE }))
}

/** The app of a variant in a directory of its own (the edits change its sources). */
async function writeApp(v: DevVariant, messages: FreshMessage[][]): Promise<string> {
  const root = join(corpus, v.key)
  writeFreshApp(root, v.tool, messages)
  if (v.tool === 'tms') withUseLocale(root)
  if (v.key === 'tms-base') installBase(root)
  if (v.key.endsWith('tms') || v.key.endsWith('tms-base'))
    await seedCache(root, join(root, OFFLINE.cacheDir), TMS_OPTIONS)
  // Each variant's own dependency cache: vite's optimizer hashes the plugins into it. The bench's
  // route of retained memory first among the plugins.
  const plugin = 'retainedMemoryPlugin(), '
  const config = v.config
    .replace('export default {', `export default { cacheDir: 'node_modules/.vite-${v.key}',`)
    .replace('plugins: [', `plugins: [${plugin}`)
  if (!config.includes(plugin)) throw new Error(`dev-loop: the ${v.key} config has no plugins array`)
  writeFileSync(
    join(root, 'vite.config.dev.mjs'),
    `import { retainedMemoryPlugin } from ${JSON.stringify(RETAINED_MODULE)}\n${config}`,
  )
  return root
}

interface Start {
  /** Seconds from the spawn to the page fully rendered. */
  loaded: number
  /** Seconds from the spawn to vite listening. */
  listening: number
  /** CPU seconds of the vite process at that moment. */
  cpu: number
  /** Milliseconds from the first message edit on this server to the page showing it. */
  firstEdit?: number
  /** The server's peak resident set (VmHWM, MiB) once the page loaded and the first edit showed. */
  peak?: number
}

/** Notes in `window.__tmsArrived` the moment (wall ms) each HMR message of a catalog update arrives. */
const ARRIVALS = `(() => {
  const Native = window.WebSocket
  window.__tmsArrived = []
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args)
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"tms:catalog"'))
          window.__tmsArrived.push(performance.timeOrigin + performance.now())
      })
    }
  }
})()`

/** How long a page may take from the navigation to its last component rendered. */
const LOAD_TIMEOUT_MS = 300_000

/** Spawns the server and opens the page in LOCALE; resolves once every component has rendered. */
async function startAndLoad(
  browser: Browser,
  v: DevVariant,
  root: string,
  messages: FreshMessage[][],
): Promise<{ server: DevServer; page: Page; start: Start }> {
  const server = await startDevServer(
    NODE,
    root,
    v.webpack ? webpackArgs(v.webpack.tms, v.webpack.plugin) : viteArgs('vite.config.dev.mjs'),
  )
  const page = await browser.newPage()
  // When each catalog update reaches the page: a message of vite's HMR socket carrying the plugin's event.
  await page.addInitScript(ARRIVALS)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const last = MODULES - 1
  const lastText = v.shown(first(messages, last))
  // A dev server serves each of the app's modules as a request of its own: at 2,000 components the
  // page's load event comes tens of seconds after the navigation, past playwright's 30 s default.
  await page
    .goto(`${server.url}/?lang=${LOCALE}`, { timeout: LOAD_TIMEOUT_MS })
    .then(() =>
      page.waitForFunction(
        ([sel, text, n]) =>
          document.querySelectorAll('main > section').length === n &&
          document.querySelector(sel)?.textContent === text,
        [heading(last), lastText, MODULES] as const,
        { polling: 'raf', timeout: LOAD_TIMEOUT_MS },
      ),
    )
    .catch(async (error: Error) => {
      await server.close()
      throw new Error(
        `dev-loop: the ${v.key} page did not render (${errors.join('; ') || error.message})\n${server.output()}`,
      )
    })
  const loaded = (now() - server.spawnedAt) / 1000
  return { server, page, start: { loaded, listening: server.listening / 1000, cpu: server.cpu() } }
}

interface Loop {
  edits: number[]
  /** Of each later edit: the server's CPU milliseconds from the write until it is quiet again. */
  editCpu: number[]
  pulls: number[]
  /** Of each catalog update: from its HMR message's arrival in the page to the page showing it. */
  inPage: number[]
  afterLoad: Memory
  /** After the first catalog update: what the first refresh keeps (its caches) is not growth. */
  afterFirstPull?: Memory
  afterPulls?: Memory
  /** MiB retained after a full collection, after the first catalog update and after the last. */
  retainedAfterFirstPull?: number
  retainedAfterPulls?: number
  afterEdits: Memory
}

/** The text of component i's heading after the n-th edit (the first edit of a server is n = 0). */
const edited = (messages: FreshMessage[][], i: number, n: number): string => `${first(messages, i)} edit ${n}`

/**
 * The first message edit on a server that has just loaded the page (component 1's heading), timed
 * from the write to the page showing it. Each round's server has one; the loop's edits follow it.
 */
async function firstEdit(root: string, page: Page, messages: FreshMessage[][]): Promise<number> {
  const text = edited(messages, 1, 0)
  const wait = await armText(page, heading(1), text, 'the first edit')
  const t0 = now()
  replaceOnce(join(root, 'src', 'm', 'm1.tsx'), first(messages, 1), text)
  return (await wait()) - t0
}

/** How long a server's CPU time must stand still before a timed step: it is quiet then. */
const QUIET_MS = 300

/**
 * Resolves once the server is quiet (it used at most 20 ms of CPU in the last {@link QUIET_MS}; at
 * most 10 s): each pull and edit then meets an idle server, as a developer's do, not the rebuild
 * the step before it started after its page showed the change (a webpack watch's, after a pull).
 */
async function settle(server: DevServer): Promise<void> {
  const samples: [at: number, cpu: number][] = []
  const end = now() + 10_000
  while (now() < end) {
    samples.push([now(), server.cpu()])
    const [at, cpu] = samples.at(-1)!
    const from = samples.find(([t]) => t >= at - QUIET_MS)!
    if (at - samples[0]![0] >= QUIET_MS && cpu - from[1] <= 0.02) return
    await new Promise((done) => setTimeout(done, 50))
  }
}

/**
 * On a server that has loaded the page and had its first edit: PULLS catalog updates, then EDITS
 * message edits, each timed from the write to the page showing it, and the server's memory after
 * each part.
 */
async function loop(
  v: DevVariant,
  root: string,
  server: DevServer,
  page: Page,
  messages: FreshMessage[][],
): Promise<Loop> {
  const result: Loop = {
    edits: [],
    editCpu: [],
    pulls: [],
    inPage: [],
    afterLoad: server.memory(),
    afterEdits: server.memory(),
  }
  if (v.pull) {
    // A peer's update reloads its page: a few show its cost, more would only lengthen the run.
    const pulls = v.reloads ? Math.min(PULLS, PEER_PULLS) : PULLS
    for (let n = 1; n <= pulls; n++) {
      await settle(server)
      const wait = await armText(page, heading(0), pulled(messages, n), `catalog update ${n}`, v.reloads)
      const t0 = now()
      await v.pull(root, n)
      const seen = await wait()
      result.pulls.push(seen - t0)
      const arrived = await page.evaluate(() =>
        (window as unknown as { __tmsArrived?: number[] }).__tmsArrived?.at(-1),
      )
      if (arrived !== undefined && arrived >= t0) result.inPage.push(seen - arrived)
      if (n === 1) {
        result.afterFirstPull = server.memory()
        result.retainedAfterFirstPull = await server.retained()
      }
    }
    result.afterPulls = server.memory()
    result.retainedAfterPulls = await server.retained()
  }
  // Component 1's heading holds the first edit's text.
  const current = new Map<number, string>([[1, edited(messages, 1, 0)]])
  for (let n = 1; n <= EDITS; n++) {
    const i = 1 + ((n - 1) % EDITED)
    const was = current.get(i) ?? first(messages, i)
    const text = edited(messages, i, n)
    await settle(server)
    const wait = await armText(page, heading(i), text, `edit ${n}`)
    const file = join(root, 'src', 'm', `m${i}.tsx`)
    const cpu = server.cpu()
    const t0 = now()
    replaceOnce(file, was, text)
    result.edits.push((await wait()) - t0)
    current.set(i, text)
    // The whole rebuild's work, also what follows the page's update (webpack's emit, its stats).
    await settle(server)
    result.editCpu.push((server.cpu() - cpu) * 1000)
  }
  result.afterEdits = server.memory()
  return result
}

/** Seen after the servers closed: a hook or a refresh that ran after its server was gone. */
const LATE = /could not reload the catalogs|a hook ran before buildStart/

export async function run(): Promise<BenchSection> {
  rmSync(corpus, { recursive: true, force: true })
  const messages = freshMessages(MODULES)
  const all = variantsOf(messages)
  const roots = new Map<string, string>()
  for (const v of all) roots.set(v.key, await writeApp(v, messages))
  // The sources the edits change, as written.
  const edits = new Map(
    all.map((v) => {
      const files = Array.from({ length: EDITED }, (_, k) =>
        join(roots.get(v.key)!, 'src', 'm', `m${k + 1}.tsx`),
      )
      return [v.key, new Map(files.map((f) => [f, { text: readFileSync(f, 'utf8'), stat: statSync(f) }]))]
    }),
  )
  const starts = new Map<string, Start[]>(all.map((v) => [v.key, []]))
  const loops = new Map<string, Loop>()
  const failed = new Map<string, string>()
  const late: string[] = []
  const browser = await launchChromium()
  // One start of a variant (and, in the last round, its loop); a peer's failure goes into its column.
  const once = async (v: DevVariant, withLoop: boolean): Promise<void> => {
    const root = roots.get(v.key)!
    let opened: Awaited<ReturnType<typeof startAndLoad>> | undefined
    try {
      opened = await startAndLoad(browser, v, root, messages)
      opened.start.firstEdit = await firstEdit(root, opened.page, messages)
      opened.start.peak = opened.server.memory().peak
      if (withLoop) loops.set(v.key, await loop(v, root, opened.server, opened.page, messages))
      return void starts.get(v.key)!.push(opened.start)
    } catch (error) {
      if (v.key === 'plain' || v.key === 'tms') throw error
      failed.set(v.key, (error as Error).message.split('\n')[0]!.slice(0, 200).replace(/\|/g, '\\|'))
      console.log(`bench: dev-loop ${v.key} failed: ${failed.get(v.key)}`)
    } finally {
      await opened?.page.close()
      await opened?.server.close()
      // The next server starts from the sources as written: the edits are undone, times included. (The
      // times come back to the microsecond only: the next start of an unplugin-tms column reads and
      // hashes the edited file again, finds its content cached and rewrites the extraction cache.)
      for (const [file, { text, stat }] of edits.get(v.key)!) {
        writeFileSync(file, text)
        utimesSync(file, stat.atime, stat.mtime)
      }
      const line = opened?.server
        .output()
        .split('\n')
        .find((l) => LATE.test(l))
      if (line) late.push(`${v.key}: ${line.trim()}`)
    }
  }
  try {
    // Warm-up: vite's dependency optimizer fills each variant's cache, the OS its file cache.
    for (const v of all) await once(v, false)
    for (const v of all) starts.set(v.key, [])
    for (let round = 1; round <= ROUNDS; round++) {
      for (const v of all) {
        if (failed.has(v.key)) continue
        await once(v, round === ROUNDS)
        const s = starts.get(v.key)!.at(-1)
        if (s)
          console.log(
            `bench: dev-loop ${v.key} loaded in ${s.loaded.toFixed(2)} s, CPU ${s.cpu.toFixed(2)} s`,
          )
      }
    }
  } finally {
    await browser.close()
  }
  return {
    title: `Dev loop (vite dev server, React, ${MODULES.toLocaleString('en-US')} components)`,
    markdown: table(all, starts, loops, failed, late),
  }
}

const ms = (x: number): string => `${x.toFixed(0)} ms`
const mib = (x: number): string => `${x.toFixed(0)} MiB`
const spread = (xs: number[], f: (x: number) => string): string =>
  xs.length > 1 ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : f(xs[0]!)
const verdict = (met: boolean): string => (met ? 'met' : '**missed**')
/** The target columns' heads: unplugin-tms in each dev server, against the plain one. */
const TARGET_HEADS = {
  tms: 'target (unplugin-tms in vite)',
  'webpack-tms': 'target (unplugin-tms in webpack-dev-server, against plain webpack)',
} as const

/**
 * The section's table: one column per variant, one row per figure, the issue's target for unplugin-tms
 * in the last column. Long because each row states its own figure and target.
 */
function table(
  all: DevVariant[],
  starts: Map<string, Start[]>,
  loops: Map<string, Loop>,
  failed: Map<string, string>,
  late: string[],
): string {
  const ok = all.filter((v) => !failed.has(v.key))
  const col = (f: (key: string) => string): string => ok.map((v) => f(v.key)).join(' | ')
  const startOf = (key: string, pick: (s: Start) => number): number[] => starts.get(key)!.map(pick)
  const med = (key: string, pick: (s: Start) => number): number => median(startOf(key, pick))
  const loopOf = (key: string): Loop => loops.get(key)!
  const later = (key: string): number[] => loopOf(key).edits
  const firsts = (key: string): number[] => startOf(key, (s) => s.firstEdit!)
  // webpack's columns against plain webpack's.
  const baseOf = (key: string): string => (key.startsWith('webpack-') ? 'webpack-plain' : 'plain')
  // Each round starts every variant in turn: a column's ratio is the median of its rounds' ratios to
  // the plain server of the same round, which the machine's drift between rounds does not move.
  const paired = (key: string, pick: (s: Start) => number): number => {
    const base = startOf(baseOf(key), pick)
    return median(startOf(key, pick).map((x, i) => x / base[i]!))
  }
  // The targets, judged for unplugin-tms in vite against plain vite, and in webpack-dev-server against
  // plain webpack-dev-server. A first edit is measured against the plain server's first edit: the
  // server's and V8's own warm-up (vite's watcher, its logger, React Fast Refresh's first update in the
  // page) make a fresh plain server's first edit slower than its later ones; the plugin's share is what
  // the same first edit costs on top.
  const firstOf = (key: string): number => median(firsts(baseOf(key)))
  const laterOf = (key: string): number => median(later(baseOf(key)))
  // Each round's server: one peak is as much the garbage collector's timing as the plugin's memory.
  const peaks = (key: string): number[] => startOf(key, (s) => s.peak!)
  const growthOf = (key: string): { growth: number; limit: number } => {
    const { retainedAfterFirstPull: first, retainedAfterPulls: last } = loopOf(key)
    return { growth: last! - first!, limit: 0.05 * first! }
  }
  const ratioTo = (key: string, pick: (s: Start) => number): string =>
    key === 'plain' || key === 'webpack-plain' ? '' : ` (${paired(key, pick).toFixed(2)}×)`
  const rows: [string, string, (key: string) => string][] = [
    [
      'spawn to the page fully rendered',
      col(
        (k) =>
          spread(
            startOf(k, (s) => s.loaded),
            (x) => `${x.toFixed(2)} s`,
          ) + ratioTo(k, (s) => s.loaded),
      ),
      (k) => {
        const ratio = paired(k, (s) => s.loaded)
        return `<= 1.15× plain: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.15)}`
      },
    ],
    [
      "the server process's CPU time by then",
      col((k) => `${med(k, (s) => s.cpu).toFixed(2)} s` + ratioTo(k, (s) => s.cpu)),
      (k) => {
        const ratio = paired(k, (s) => s.cpu)
        return `<= 1.15× plain: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.15)}`
      },
    ],
    ['spawn to listening', col((k) => `${med(k, (s) => s.listening).toFixed(2)} s`), () => ''],
    [
      'first message edit on a fresh server, to screen',
      col((k) => spread(firsts(k), ms)),
      (k) =>
        `<= plain's first edit + 50 ms (${ms(firstOf(k) + 50)}): ${verdict(median(firsts(k)) <= firstOf(k) + 50)}`,
    ],
    [
      `later edits (${EDITS}), to screen: median (min–max)`,
      col((k) => spread(later(k), ms)),
      (k) =>
        `<= plain's later edits + 50 ms (${ms(laterOf(k) + 50)}): ${verdict(median(later(k)) <= laterOf(k) + 50)}`,
    ],
    [
      "the server's CPU time per later edit, from the write until it is quiet: median (min–max)",
      col((k) => spread(loopOf(k).editCpu, ms)),
      () => '',
    ],
    [
      `catalog update (${PULLS}; the peers ${Math.min(PULLS, PEER_PULLS)}), to screen: median (min–max)`,
      col((k) => (loopOf(k).pulls.length ? spread(loopOf(k).pulls, ms) : '–')),
      (k) => `<= 300 ms: ${verdict(median(loopOf(k).pulls) <= 300)}`,
    ],
    [
      "of which in the page: from the update's HMR message to the text shown (the app's re-render)",
      col((k) => (loopOf(k).inPage.length ? spread(loopOf(k).inPage, ms) : '–')),
      () => '',
    ],
    [
      'peak RSS after the page loaded and the first edit (VmHWM): median (min–max) of the rounds',
      col((k) => spread(peaks(k), mib) + ratioTo(k, (s) => s.peak!)),
      (k) => {
        const ratio = paired(k, (s) => s.peak!)
        return `<= 1.3× plain: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.3)}`
      },
    ],
    [
      'RSS after the page loaded and the first edit (VmRSS)',
      col((k) => mib(loopOf(k).afterLoad.rss)),
      () => '',
    ],
    [
      'RSS after the first catalog update, then after the last (peak)',
      col((k) => {
        const { afterFirstPull: a, afterPulls: b } = loopOf(k)
        return a && b ? `${mib(a.rss)}, then ${mib(b.rss)} (${mib(b.peak)})` : '–'
      }),
      () => '',
    ],
    [
      'retained after a full collection (heap used + external), after the first catalog update, then after the last',
      col((k) => {
        const { retainedAfterFirstPull: a, retainedAfterPulls: b } = loopOf(k)
        return a !== undefined && b !== undefined ? `${mib(a)}, then ${mib(b)}` : '–'
      }),
      (k) => {
        const { growth, limit } = growthOf(k)
        return `no growth from the first update to the last (<= +5% of the first): ${growth >= 0 ? '+' : ''}${mib(growth)} ${verdict(growth <= limit)}`
      },
    ],
    [
      `RSS after ${EDITS} edits more (peak)`,
      col((k) => `${mib(loopOf(k).afterEdits.rss)} (${mib(loopOf(k).afterEdits.peak)})`),
      () => '',
    ],
  ]
  const labels = ok.map((v) => `${v.key}: ${v.label}`).join('; ')
  const judged = (['tms', 'webpack-tms'] as const).filter((k) => ok.some((v) => v.key === k))
  return [
    `The fresh-process section's React app (bench/fresh-app.ts) at ${MODULES} TSX components (${MODULES * 10} messages), each tool's syntax, served by \`vite\` ${VITE_VERSION} (Node ${nodeVersionOf(NODE)}) in a process of its own and opened at \`?lang=${LOCALE}\` in headless Chromium (playwright-core, /usr/bin/chromium). Columns: ${labels}. The plain app is unplugin-tms's components without the plugin (\`t\` untransformed shows the source text). The plain and unplugin-tms apps call \`useLocale()\` from unplugin-tms/react in their root component; a catalog update re-renders the component that shows the changed translation alone (the dev server runs its module again: React Fast Refresh; vite's through its HMR channel, src/plugin/dev-refresh.ts, webpack-dev-server's through the plugin's channel of pulled translations, before the rebuild, src/plugin/pull-channel.ts); the peers' apps load their catalogs as their docs say. The webpack columns: the same apps in webpack-dev-server (bench/webpack-serve.mjs, as \`webpack serve\` runs it: hot updates on, React Fast Refresh through @pmmmwh/react-refresh-webpack-plugin and SWC's refresh transform, so that an edited component updates in place as in vite), their ratios to plain webpack's.`,
    '',
    `Starts: one warm-up start per variant (vite's dependency optimizer, the OS's file cache, unplugin-tms's transform and catalog memos), then ${ROUNDS} round(s) of every variant in turn; medians (min–max). A ratio (×) is the median of the rounds' ratios, each to the plain server (vite's or webpack's) started in the same round: the machine's drift from one round to the next does not move it, where the ratio of the medians would take each from another round. "Fully rendered": every component's section in the page, the last one's heading in ${LOCALE}. CPU: the server process's user + system time (/proc/<pid>/stat, its threads included) at that moment. On each round's server, once the page rendered: the first message edit (component 1's heading), timed as the edits below, the figure the median of the rounds' (its target is plain's first edit + 50 ms, as a fresh plain server's first edit pays vite's and React Fast Refresh's own warm-up; later edits are held to plain's later edits + 50 ms). Then, in the last round's server: ${PULLS} catalog updates (the peers: ${Math.min(PULLS, PEER_PULLS)}; unplugin-tms: the cache's ${LOCALE} file rewritten as \`tms pull\` writes it, through the cache's own writer; Lingui and FormatJS: their ${LOCALE} catalog file rewritten, which reloads their page), then ${EDITS} more edits of a heading's message in the first ${EDITED} components in turn, each timed from the write to the moment a MutationObserver in the page sees the new text (a reload: the first animation frame that shows it), and each started once the server is quiet (its CPU time still for ${QUIET_MS} ms: a webpack watch with unplugin-tms shows a pull before the rebuild that follows it, which the next step would otherwise meet); "in the page": from the moment the update's message reached the page's HMR socket (a listener the page adds before vite's client) to the text shown, its merge and the app's re-render. Memory: /proc/<pid>/status of the server process; its peak after the first edit on each round's server (one server's peak moves by a hundred MiB with the garbage collector's timing), the rest on the last round's. Growth is judged on what the server retains: each runs with \`--expose-gc\` and answers a route of the bench's (bench/dev-server.ts) with its heap in use plus V8's external memory after two full collections, read after the resident set each time; two readings of the resident set tell as much when the collector last ran (tens of MiB between major collections) as what the server keeps.`,
    '',
    `| figure | ${ok.map((v) => v.key).join(' | ')} | ${judged.map((k) => TARGET_HEADS[k]).join(' | ')} |`,
    `| --- | ${ok.map(() => '---').join(' | ')} | ${judged.map(() => '---').join(' | ')} |`,
    ...rows.map(([figure, cells, target]) => `| ${figure} | ${cells} | ${judged.map(target).join(' | ')} |`),
    '',
    ...[...failed].map(([key, why]) => `${key} could not be measured: ${why}\n`),
    late.length
      ? `After a server closed, it printed: ${late.map((l) => `\`${l.replace(/`/g, "'")}\``).join('; ')}.`
      : 'No server printed a catalog refresh or hook after it closed.',
    '',
    `Knobs: \`TMS_BENCH_DEV_MODULES\` (default 200; the issue's app is 2000), \`TMS_BENCH_DEV_ROUNDS\`, \`TMS_BENCH_DEV_EDITS\`, \`TMS_BENCH_DEV_PULLS\`, \`TMS_BENCH_DEV_PEERS=0\`, \`TMS_BENCH_DEV_WEBPACK=0\`, \`TMS_BENCH_DEV_NODE\` (the servers' Node; Lingui 6 needs 22.19, else the Lingui column is Lingui 5), \`TMS_BENCH_DEV_BASE\` (another checkout, built: its plugin as the \`tms-base\` and \`webpack-tms-base\` columns). The targets are judged for unplugin-tms in each dev server against the plain one: vite's against plain vite, webpack-dev-server's against plain webpack-dev-server. This 2-core machine is shared: the min–max spreads show how much its other work moved the figures.`,
  ].join('\n')
}

const VITE_VERSION = ((await import('vite')) as { version: string }).version

if (!existsSync(join(repo, 'dist', 'vite.mjs'))) throw new Error('dev-loop: run `npm run build` first')
