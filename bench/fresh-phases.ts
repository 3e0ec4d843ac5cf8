/**
 * The plugin's own main-thread work of one build of bench/fresh-one.ts's app, phase by phase (CPU milliseconds of the process), without
 * the bundler: the build start (options, cached extraction), every module's transform, the sync (cache
 * read, translation checks) and each locale's catalog literal. One process is one cold run, as a build
 * is: `npx tsx bench/fresh-phases.ts [dir] [runtime|inline] [cacheDir]`, several times, and compare the
 * medians. The first run writes the catalog memos (`<dir>/.tms-cache/catalogs/`, or those of `cacheDir`,
 * relative to `dir`) at its end, untimed, and the later ones are answered by them, as a warm build whose
 * inputs did not change is; delete that folder before each run to measure a build that makes its
 * catalogs, or edit a message before each to measure a build after an edit.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TmsSession } from '../src/plugin/session'
import { repo } from './fresh-runner'
import { OFFLINE, TMS_OPTIONS } from './fresh-variants'

const root = resolve(process.argv[2] ?? join(repo, 'bench', '.corpus', 'one'))
const mode = process.argv[3] === 'inline' ? 'inline' : 'runtime'
const modules = [
  join(root, 'src', 'main.tsx'),
  ...readdirSync(join(root, 'src', 'm')).map((f) => join(root, 'src', 'm', f)),
]
const codes = modules.map((f) => readFileSync(f, 'utf8'))
const cacheDir = process.argv[4]
const session = new TmsSession({ root, ...TMS_OPTIONS, ...OFFLINE, mode, ...(cacheDir ? { cacheDir } : {}) })
session.configure({ root, sourcemap: false })
const times: Record<string, number> = {}
const lap = async (name: string, work: () => unknown): Promise<void> => {
  const c0 = process.cpuUsage()
  await work()
  const c = process.cpuUsage(c0)
  times[name] = (c.user + c.system) / 1000
}
const all = process.cpuUsage()
await lap('start', () => session.start('build'))
await lap('transform', () => {
  for (let i = 0; i < modules.length; i++) session.transform(codes[i]!, modules[i]!)
})
await lap('sync', () => session.synced())
await lap('catalogs', () => {
  // As a build's catalog files: the literal as its memo holds it.
  if (mode === 'runtime')
    for (const l of session.build.locales) session.build.storedCatalogLiteralFor(l, modules)
  else for (const l of session.build.inlineLocales()) session.build.inlineTexts(l)
})
const c = process.cpuUsage(all)
times.total = (c.user + c.system) / 1000
// As a build's end does, untimed: the memos this run made are what the next run finds.
await session.memosWritten()
console.log(JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)]))))
