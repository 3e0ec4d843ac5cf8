/**
 * What is left of unplugin-tms's build overhead and why, for the fresh-process section: one profiled
 * build (where the main thread's time goes) and the plugin's own CPU phase by phase
 * (bench/fresh-phases.ts), set against the overhead the rounds measured and the floor rows.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { summarizeProfile } from './cpu-profile'
import { faultsText, freshBuild, repo } from './fresh-runner'
import { EDITED_CACHE, editedBuilds } from './fresh-variants'
import { median } from './vite-app-corpus'

/** The rounds' medians (seconds) the explanation sets the phases against. */
export interface OverheadInput {
  node: string
  /** The unplugin-tms app with its warm cache. */
  root: string
  outDir: string
  plain: number
  /** The filtered-hook floor: a plugin whose transform hook runs on no module. */
  floor: number
  /** The echo floor: a hook that returns every app module's code, changed. */
  echo: number
  runtime: number
  /** The same build without its catalog memos. */
  noMemo: number
  /** The wall-time target, as a multiple of the plain build. */
  limit: number
  messages: number
  locales: number
  /** Each peer's label and its wall time as a multiple of the plain build. */
  peers: [string, number][]
  /** Minor page faults (medians) of the plain build, the echo floor and the runtime-mode build. */
  faults: { plain: number; echo: number; runtime: number }
  /** What a page fault costs on this machine, in milliseconds (`measureFaultCost`); undefined where unknown. */
  faultMs?: number
}

const PHASE_RUNS = 3
const PHASES = ['start', 'transform', 'sync', 'catalogs'] as const
type Phase = (typeof PHASES)[number]

const WHY: Record<Phase, string> = {
  start:
    "checks every source file against the extraction cache (a stat each) and reads the summary of the app's messages (their digest and count; the messages themselves are read only when something asks), and the transform memo; the table of every message's id (one pass, so that an id does not depend on the order the bundler meets the modules in) is made only when a module or a catalog misses its memo",
  transform:
    "runs as a JavaScript hook on every module: with its memo, hashes the module and takes the remembered output (decoded from the memo file's bytes) and ids, stamped by a build with the same messages and ids; without, decodes the module's cached call sites, looks each one up and rewrites it",
  sync: 'without a memo: reads the translation cache (every message in every locale) and checks each translation against its message (placeholders, ICU syntax), so that a broken translation falls back to the source text instead of shipping; with one: finds it by the digests of the manifest and the cache files, recorded with their stat (catalogs/digests.json), so that none is read (the digest of the messages comes with the extraction)',
  catalogs:
    "without a memo: makes each locale's catalog literal of the ids the bundle uses; with one: finds the literal by the modules' key the memo noted beside it (each module's path and content hash, when the transform memo keeps every module's ids), else by the bundle's ids, sorted and hashed, and ships it as read",
}

const ms = (seconds: number): string => `${(seconds * 1000).toFixed(0)} ms`
const more = (seconds: number): string => `${ms(Math.abs(seconds))} ${seconds < 0 ? 'less' : 'more'}`

/** The section's markdown lines: the profile, the phases and what is left of the target. */
export async function whatIsLeft(input: OverheadInput): Promise<string[]> {
  const profile = await profiledBuild(input)
  const miss = pluginPhases(input.node, input.root, 'no memo')
  const hit = pluginPhases(input.node, input.root, 'memos')
  const edited = pluginPhases(input.node, input.root, 'edited')
  const overhead = input.runtime - input.plain
  const budget = input.plain * (input.limit - 1)
  // Every app module holds messages, so the hook runs on each and rewrites it: the echo floor is what
  // any such plugin pays, and the plugin's own work is what it costs above that.
  const hook = Math.max(0, input.echo - input.plain)
  const total = (phases: Record<Phase, number>): number => PHASES.reduce((sum, p) => sum + phases[p], 0)
  const gc = profile.owners.find(([owner]) => owner === 'garbage collection')?.[1] ?? 0
  return [
    ...profile.lines,
    `What is left: the runtime-mode build took ${more(overhead)} than the plain one (${more(input.noMemo - input.plain)} without its catalog memos), where the target allows ${ms(budget)} (${input.limit.toFixed(2)}× of ${input.plain.toFixed(2)} s). A transform hook that returns every app module's code, changed, costs ${ms(hook)} in this run (the echo floor: what any plugin that rewrites every module pays, as this one does, every module holding messages), and one that vite's filter keeps off every module ${ms(Math.max(0, input.floor - input.plain))} (the filtered-hook floor); the runtime-mode build took ${more(overhead - hook)} than that floor, where the target leaves ${ms(Math.max(0, budget - hook))} above it. The plugin's own work, without the bundler (bench/fresh-phases.ts, ${PHASE_RUNS} runs each on the same app and cache with the builds' Node, the source through tsx; CPU medians), is ${ms(total(hit) / 1000)} on the main thread when the catalog memos answer and ${ms(total(miss) / 1000)} when they do not; its garbage adds ${ms(gc / 1000)} of collection in the profile above. The last column is the build after an edit (the row above: one component's heading changed since the last build, on that row's cache), ${ms(total(edited) / 1000)}: every phase's memo is keyed by the app's messages, so what is made again beyond the edited module is the work of the messages' change, not of the module's:`,
    '',
    '| phase | CPU, memos answer | CPU, no memo | CPU, one message edited | what it does |',
    '| --- | --- | --- | --- | --- |',
    ...PHASES.map(
      (p) => `| ${p} | ${ms(hit[p] / 1000)} | ${ms(miss[p] / 1000)} | ${ms(edited[p] / 1000)} | ${WHY[p]} |`,
    ),
    '',
    whyItStays(input, overhead - hook, budget - hook),
    '',
  ]
}

/**
 * The closing paragraph: how much less the plugin would have to do, and what would do it. `own` is the
 * overhead above the hook floor, `room` what the target leaves above it.
 */
function whyItStays(input: OverheadInput, own: number, room: number): string {
  const limit = `${input.limit.toFixed(2)}×`
  const cut =
    own <= room
      ? `in this run it stays within ${limit}`
      : room <= 0
        ? `the floor alone is over the target, so no amount of work taken out of the plugin reaches ${limit} in this run`
        : `the plugin would have to do about ${Math.round((1 - room / own) * 100)}% less in a warm build to reach ${limit}`
  const peers = input.peers.map(([label, r]) => `${label} ${r.toFixed(2)}×`).join(', ')
  return `Why it stays: with the memos answering, no id is looked up and no message hashed; what is left is reading what the memos hold, which every build does because any file may have changed: a stat of every file, the extraction cache (the rows of its files; the ${input.messages.toLocaleString('en-US')} messages are left undecoded), the transform memo (each module's output), the catalog memos' literals, some 11 MB of cache files read as bytes, of which each module's output becomes a string (the literals are written out as read), and the garbage that leaves. The work runs on the main thread, the build start's before rolldown starts and the rest while rolldown's threads hold both of this machine's cores, so most of it adds to the wall time rather than hiding behind the bundler: ${cut}. What would take more out: less to decode per module (the transform memo holding each module's edits instead of its output). The memory the work touches counts as well: the runtime-mode build makes ${faultsText(input.faults.runtime)} page faults against the echo floor's ${faultsText(input.faults.echo)} and plain's ${faultsText(input.faults.plain)} (the memos' bytes, the strings made of them, the catalog files, and the heap that grows to hold them)${input.faultMs === undefined ? '' : `, about ${Math.round((input.faults.runtime - input.faults.echo) * input.faultMs)} ms of system time above the floor on this machine`}. The peers do this work too, and more of it: ${peers} in the same rounds.`
}

interface Profiled {
  lines: string[]
  owners: [string, number][]
}

/** One more runtime-mode build under `--cpu-prof`, summarised: where its main thread's time goes. */
async function profiledBuild(input: OverheadInput): Promise<Profiled> {
  const dir = join(input.root, '.cpu-profile')
  rmSync(dir, { recursive: true, force: true })
  const { wall: seconds } = await freshBuild(
    input.node,
    input.root,
    'vite.config.tms-runtime.mjs',
    input.outDir,
    ['--cpu-prof', '--cpu-prof-dir', dir],
  )
  // The main thread's profile (thread 0); the extractor's worker threads, if any, write their own.
  const main = readdirSync(dir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
  if (!main) throw new Error(`fresh-process: no main-thread profile in ${dir}`)
  const summary = summarizeProfile(join(dir, main), join(repo, 'dist'))
  rmSync(join(input.root, 'out'), { recursive: true, force: true })
  const t = (v: number): string => `${v.toFixed(0)} ms`
  const ratio = input.runtime / input.plain
  return {
    owners: summary.owners,
    lines: [
      `Where the time goes: one more runtime-mode build (${ratio.toFixed(2)}× plain in the rounds) under \`node --cpu-prof\` (${seconds.toFixed(2)} s with the profiler), its main thread's ${t(summary.total)}; rolldown parses, transforms and minifies on threads of its own, which the main thread sees as idle. The profiler samples by the clock, so a function that runs while rolldown's threads hold both cores is also charged for the time it waits for one: these times are upper bounds. Counted on the CPU alone (\`perf record\` of \`node --perf-basic-prof --interpreted-frames-native-stack\`, 3 builds), the transform's memo lookup (\`hit\`) took about 29 ms where such a profile shows 55 to 95 ms, its module hash 6 ms against 13 to 17 ms, and all of unplugin-tms's main-thread JavaScript about 100 ms.`,
      '',
      '| main thread, self time by owner | time |',
      '| --- | --- |',
      ...summary.owners.slice(0, 8).map(([owner, v]) => `| ${owner} | ${t(v)} |`),
      '',
      "| unplugin-tms's functions, inclusive time (callees included) | time |",
      '| --- | --- |',
      ...summary.plugin.slice(0, 14).map(([name, v]) => `| \`${name}\` | ${t(v)} |`),
      '',
    ],
  }
}

/**
 * The medians of bench/fresh-phases.ts's CPU milliseconds per phase, each run a new process. `no memo`
 * deletes the catalog memos before each run (the runs without come first: the last of them writes the
 * memos the others find); `edited` changes a message before each run, on the cache of the builds after
 * an edit (`EDITED_CACHE`), after an untimed run that brings that cache up to the first text.
 */
function pluginPhases(
  node: string,
  root: string,
  how: 'memos' | 'no memo' | 'edited',
): Record<Phase, number> {
  const edit = how === 'edited' ? editedBuilds(root) : undefined
  const runs: Record<string, number>[] = []
  for (let i = edit ? -1 : 0; i < PHASE_RUNS; i++) {
    if (how === 'no memo') rmSync(join(root, '.tms-cache', 'catalogs'), { recursive: true, force: true })
    edit?.before?.()
    try {
      const args = [join(repo, 'bench', 'fresh-phases.ts'), root, 'runtime', ...(edit ? [EDITED_CACHE] : [])]
      const out = execFileSync(node, ['--import', 'tsx', ...args], { cwd: repo, encoding: 'utf8' })
      if (i >= 0) runs.push(JSON.parse(out.trim().split('\n').pop()!))
    } finally {
      edit?.after?.()
    }
  }
  return Object.fromEntries(PHASES.map((p) => [p, median(runs.map((r) => r[p]!))])) as Record<Phase, number>
}
