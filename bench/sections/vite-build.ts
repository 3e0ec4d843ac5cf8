import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { Options } from '../../src/options'
import { emulatorProcess } from '../fresh-runner'
import type { BenchSection } from '../section'
import { appModuleSource, median, timedViteBuild } from '../vite-app-corpus'

// The built package, as users get it (npm run bench builds first).
const tms = (
  (await import(new URL('../../dist/vite.mjs', import.meta.url).href)) as typeof import('../../src/vite')
).default
const { startEmulator } = (await import(
  new URL('../../dist/emulator.mjs', import.meta.url).href
)) as typeof import('../../src/emulator/index')

const repo = fileURLToPath(new URL('../../', import.meta.url))
const appRoot = join(repo, 'bench', '.corpus', 'vite-app')
const MODULES = 2000
const PAIRS = 5
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP']
/** Service latency of the network-cost rows: a service in another region. */
const LATENCY_MS = 50
const LATENCY_PAIRS = 3

function writeApp(): void {
  rmSync(appRoot, { recursive: true, force: true })
  mkdirSync(join(appRoot, 'src', 'm'), { recursive: true })
  const imports: string[] = []
  for (let i = 0; i < MODULES; i++) {
    // Modules of about 2.5 KB.
    writeFileSync(
      join(appRoot, 'src', 'm', `m${i}.js`),
      appModuleSource({ index: i, n: i, helpers: 6, total: true }),
    )
    imports.push(`import { view${i} } from './m/m${i}.js'`)
  }
  writeFileSync(
    join(appRoot, 'src', 'main.js'),
    `${imports.join('\n')}\nexport const all = [${Array.from({ length: MODULES }, (_, i) => `view${i}`).join(', ')}]\n`,
  )
  writeFileSync(
    join(appRoot, 'index.html'),
    '<!doctype html><script type="module" src="/src/main.js"></script>\n',
  )
}

const viteBuild = (plugins: Plugin[]): Promise<number> => timedViteBuild(appRoot, plugins, 'dist')

async function requestsOf(url: string): Promise<{ total: number; byRoute: Record<string, number> }> {
  const res = await fetch(`${url}/_emulator/requests`)
  return ((await res.json()) as { response: { data: { total: number; byRoute: Record<string, number> } } })
    .response.data
}

/**
 * Warm builds online, every request taking LATENCY_MS, against the same builds offline (same cache),
 * in alternating pairs. The cache is made first by a cold build with no latency.
 */
async function networkCost(base: Options): Promise<{ online: number[]; offline: number[] }> {
  const service = await emulatorProcess(process.execPath)
  const online: Options = { ...base, baseUrl: service.url, cacheDir: join(appRoot, '.tms-cache-network') }
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const result = { online: [] as number[], offline: [] as number[] }
  try {
    await post('/_emulator/projects/demo-project/auto-translate', { mode: 'pseudo', publishDelayMs: 0 })
    rmSync(online.cacheDir!, { recursive: true, force: true })
    await viteBuild(tms({ ...online, job: { name: 'bench', authorize: true } }))
    await post('/_emulator/faults', { latencyMs: LATENCY_MS })
    for (let i = 0; i < LATENCY_PAIRS; i++) {
      result.online.push(await viteBuild(tms(online)))
      result.offline.push(await viteBuild(tms({ ...online, cache: 'offline' })))
    }
  } finally {
    await service.close()
  }
  return result
}

export async function run(): Promise<BenchSection> {
  writeApp()
  const emulator = await startEmulator({ port: 0 })
  const cacheDir = join(appRoot, '.tms-cache')
  const online: Options = {
    root: appRoot,
    locales: LOCALES,
    baseUrl: emulator.url,
    projectId: 'demo-project',
    userIdentifier: 'demo-user',
    userSecret: 'demo-secret',
    cacheDir,
    namespace: 'bench-vite-app',
    report: false,
  }
  let cold: { total: number; byRoute: Record<string, number> }
  let warm: { total: number; byRoute: Record<string, number> }
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${emulator.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    await post('/_emulator/projects/demo-project/auto-translate', { mode: 'pseudo', publishDelayMs: 0 })
    rmSync(cacheDir, { recursive: true, force: true })
    // Cold: an empty cache. The strings are created, then authorized as a dashboard user would, and
    // the build's pull brings their (pseudo) translations.
    await viteBuild(tms({ ...online, job: { name: 'bench', authorize: true } }))
    cold = await requestsOf(emulator.url)
    await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' })
    await viteBuild(tms(online))
    warm = await requestsOf(emulator.url)
  } finally {
    await emulator.close()
  }

  const network = await networkCost(online)

  // The cost of the plugin itself: warm cache, no network.
  const offline = (): Plugin[] => tms({ ...online, cache: 'offline' })
  await viteBuild([])
  await viteBuild(offline())
  const plain: number[] = []
  const withPlugin: number[] = []
  for (let i = 0; i < PAIRS; i++) {
    plain.push(await viteBuild([]))
    withPlugin.push(await viteBuild(offline()))
  }
  const ratio = median(withPlugin) / median(plain)
  const routes = (log: { byRoute: Record<string, number> }) =>
    Object.entries(log.byRoute)
      .sort()
      .map(([r, n]) => `${n}× \`${r}\``)
      .join(', ')
  return {
    title: 'Build cost and requests (vite, 2,000 modules)',
    markdown: [
      `A generated app of ${MODULES} modules (${MODULES * 2} messages), ${LOCALES.length} target locales, built with vite ${(await import('vite')).version}; ${PAIRS} alternating pairs, medians.`,
      '',
      '| figure | value | target |',
      '| --- | --- | --- |',
      `| plain vite build | ${median(plain).toFixed(2)} s | |`,
      `| with unplugin-tms (warm cache, offline) | ${median(withPlugin).toFixed(2)} s | |`,
      `| added by the plugin | ${((median(withPlugin) - median(plain)) * 1000).toFixed(0)} ms | |`,
      `| ratio | ${ratio.toFixed(2)}× | <= 1.10× ${ratio <= 1.1 ? '(met)' : '(MISSED)'} |`,
      `| requests, cold build (empty cache, job, authorize) | ${cold.total} | ${routes(cold)} |`,
      `| requests, warm build (nothing new to push) | ${warm.total} | ${routes(warm)} |`,
      `| warm build online, ${LATENCY_MS} ms latency per request (emulator in its own process) | ${median(network.online).toFixed(2)} s | ${LATENCY_PAIRS} alternating pairs with the offline build |`,
      `| the same build offline | ${median(network.offline).toFixed(2)} s | |`,
      `| added by the network (authenticate, then each locale's runs of hashcodes: the first alone, the rest at once) | ${((median(network.online) - median(network.offline)) * 1000).toFixed(0)} ms | |`,
    ].join('\n'),
  }
}
