import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RETRY, HEALTHY_RETRY_FACTOR } from '../../src/client/index'
import { DiskCache } from '../../src/core/cache'
import { runPipeline } from '../../src/core/pipeline'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { connectService } from '../../src/service'
import { envelope, startRawServer } from '../client/raw-server'
import { control, untilIdle } from '../helpers/sync'
import {
  FIVE_LOCALES,
  frenchBuildOptions,
  LONG,
  mainModule,
  makeApp,
  messageModules,
  PROJECT,
  rollupBuild,
  SECRET,
  SEED,
  storedStrings,
  USER,
  writeFiles,
} from './helpers'

/**
 * Production builds through the plugin against the emulator's fault injection: 30% of requests
 * answered 429, 423, 500 or 503 (7.5% each), 5% of connections dropped, every request delayed. The
 * plugin runs with the client's default retry policy, as users get it.
 *
 * The bound on requests follows from that policy: a logical request is sent at most
 * `retries + 1` times while nothing else succeeds, and `retries * HEALTHY_RETRY_FACTOR + 1` times
 * while the service answers other requests. So a build that needs L requests without faults makes at
 * most L * (5 * 3 + 1) = 16 L with them (and about L / 0.65 on average).
 */

const COUNT = LONG === 'short' ? 1000 : 5000
const LATENCY_MS = LONG === 'short' ? 20 : 500
const FAULTS = {
  rates: { '429': 0.075, '423': 0.075, '500': 0.075, '503': 0.075 },
  dropRate: 0.05,
  latencyMs: LATENCY_MS,
  seed: 7,
}
const PER_REQUEST = DEFAULT_RETRY.retries * HEALTHY_RETRY_FACTOR + 1

let emu: RunningEmulator
let root: string
let texts: string[]

const requestLog = async () =>
  (await control(emu, 'GET', '/_emulator/requests')) as { total: number; byRoute: Record<string, number> }
const clearLog = () => control(emu, 'DELETE', '/_emulator/requests')
const faults = (body: object) => control(emu, 'POST', '/_emulator/faults', body)

const pluginOptions = (extra: object = {}) => ({
  baseUrl: emu.url,
  projectId: PROJECT,
  userIdentifier: USER,
  userSecret: SECRET,
  locales: FIVE_LOCALES,
  ...extra,
})

beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
  const app = messageModules(COUNT)
  texts = app.texts
  root = makeApp(app.files, { locales: FIVE_LOCALES })
  writeFiles(root, { 'src/main.js': mainModule(app.files) })
})
afterAll(async () => {
  await emu?.close()
})

describe(`${COUNT} messages, 5 locales, 35% of requests failing, ${LATENCY_MS} ms latency`, () => {
  let pullRequests = 0

  it('a cold build creates every message exactly once, within the request bound', async () => {
    await faults(FAULTS)
    await clearLog()
    const built = await rollupBuild(root, pluginOptions())
    const log = await requestLog()
    await faults({})

    // Created, not authorized yet: the pull gets none back and the build says why.
    expect(built.warnings).toEqual([
      `[plugin unplugin-tms] ${COUNT} strings await authorization on the service (${[...FIVE_LOCALES]
        .sort()
        .map((l) => `${l} ${COUNT}`)
        .join(
          ', ',
        )}) and get no translation until authorized: authorize them in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings`,
    ])
    expect(built.report!.pushed).toBe(COUNT)
    const stored = (await storedStrings(emu)).filter((s) => texts.includes(s.stringText))
    expect(stored.map((s) => s.stringText).sort()).toEqual([...texts].sort())
    expect(new Set(stored.map((s) => s.hashcode)).size).toBe(COUNT)
    const manifest = await new DiskCache(join(root, '.tms-cache'), PROJECT).readManifest()
    expect(manifest.hit && Object.keys(manifest.value.entries).length).toBe(COUNT)

    // Without faults the same build needs: 1 authentication, COUNT / 100 creates, and the pull of
    // every locale, measured below on a build that pulls only.
    await clearLog()
    const clean = await rollupBuild(root, pluginOptions(), 'dist-clean')
    const cleanLog = await requestLog()
    expect(clean.report!.requests).toBe(cleanLog.total)
    const logical = 1 + COUNT / 100 + (cleanLog.total - 1)
    // Once every string is authorized, the pull asks no source strings.
    pullRequests =
      cleanLog.total - (cleanLog.byRoute['GET /strings-api/v2/projects/:projectId/source-strings'] ?? 0)
    expect(log.total).toBeGreaterThan(logical) // faults did strike
    expect(log.total).toBeLessThanOrEqual(logical * PER_REQUEST)
    // What the plugin counted is what the service saw.
    expect(built.report!.requests).toBe(log.total)
  }, 600_000)

  it('every published translation of every locale arrives, within the request bound', async () => {
    // The translators: everything authorized, the pseudo translator publishes at once.
    await control(emu, 'POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
    await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
    await untilIdle(emu)
    await faults(FAULTS)
    await clearLog()
    const built = await rollupBuild(root, pluginOptions())
    const log = await requestLog()
    await faults({})

    expect(built.warnings).toEqual([])
    for (const locale of FIVE_LOCALES) {
      expect(built.report!.locales[locale]).toEqual({
        messages: COUNT,
        translated: COUNT,
        missing: 0,
        coverage: 100,
      })
    }
    expect(log.total).toBeGreaterThan(pullRequests)
    expect(log.total).toBeLessThanOrEqual(pullRequests * PER_REQUEST)

    // The service's text is in the cache and in the bundle's ja-JP chunk, for the last message too.
    const stored = (await storedStrings(emu)).find((s) => s.stringText === texts[COUNT - 1])!
    const published = stored.translations['ja-JP']!.published!
    const ja = await new DiskCache(join(root, '.tms-cache'), PROJECT).readLocale('ja-JP', 'published')
    expect(ja.hit && Object.keys(ja.value.translations).length).toBe(COUNT)
    expect(ja.hit && ja.value.translations[stored.hashcode]).toBe(published.replace('{app}', '{0}'))
    const chunk = readdirSync(built.outDir).find((f) => f.includes('tms-ja-JP'))!
    expect(readFileSync(join(built.outDir, chunk), 'utf8')).toContain(JSON.stringify(published))
  }, 600_000)

  it.concurrent('maintenance mode (503 on everything): the build finishes from the cache with one warning', async () => {
    await faults({ rates: { '503': 1 } })
    await clearLog()
    // Each concurrent build its own output: one could read the report while the other writes it.
    const built = await rollupBuild(root, pluginOptions(), 'dist-maintenance')
    const log = await requestLog()
    await faults({})
    expect(built.warnings).toHaveLength(1)
    expect(built.warnings[0]).toMatch(
      /^\[plugin unplugin-tms\] the service could not be reached \(POST \/auth-api\/v2\/authenticate failed: 503 MAINTENANCE_MODE_ERROR: The service is in maintenance mode\); the build goes on with /,
    )
    for (const locale of FIVE_LOCALES) {
      expect(built.warnings[0]).toContain(`${locale}: cached translations of `)
      expect(built.report!.locales[locale]!.translated).toBe(COUNT)
    }
    // Nothing succeeds, so no request gets more than the plain retries: one authentication, 6 tries.
    expect(log).toEqual({
      total: DEFAULT_RETRY.retries + 1,
      byRoute: { 'POST /auth-api/v2/authenticate': 6 },
    })
  })

  it.concurrent('a dead service: the same, from the cache with one warning', async () => {
    const built = await rollupBuild(root, pluginOptions({ baseUrl: 'http://127.0.0.1:9' }), 'dist-dead')
    expect(built.warnings).toHaveLength(1)
    expect(built.warnings[0]).toContain(
      'the service could not be reached (POST /auth-api/v2/authenticate failed: network error: ECONNREFUSED',
    )
    expect(built.report!.locales['fr-FR']!.translated).toBe(COUNT)
  })

  it('frozen: a message the cache lacks fails the build with an error naming it and the option', async () => {
    writeFiles(root, {
      'src/late.js':
        "import { t } from 'unplugin-tms/runtime'\nexport const all = [t('Added after the last pull')]\n",
    })
    try {
      await clearLog()
      await expect(rollupBuild(root, pluginOptions({ cache: 'frozen' }))).rejects.toThrow(
        `[unplugin-tms] cache: 'frozen' and the message "Added after the last pull" (src/late.js:2:21) is not in ${join(root, '.tms-cache', 'manifest.json')}`,
      )
      // frozen never asks the service.
      expect((await requestLog()).total).toBe(0)
    } finally {
      rmSync(join(root, 'src/late.js'))
    }
  })
})

describe('the retry policy tells a flaky service from a dead one', () => {
  it('a create that fails 6 times in a row while other requests succeed is still created', async () => {
    // What 35% random failures give one request in 550: without the longer budget, 100 strings lost.
    let failuresLeft = 6
    let creates = 0
    const server = await startRawServer((hit, res) => {
      if (hit.method === 'POST' && hit.url === `/strings-api/v2/projects/${PROJECT}`) {
        const body = JSON.parse(hit.body) as { strings: { stringText: string }[] }
        creates++
        if (body.strings.some((s) => s.stringText === 'Message 200 of {app}') && failuresLeft > 0) {
          failuresLeft--
          return envelope(res, 503, {
            code: 'MAINTENANCE_MODE_ERROR',
            errors: [{ key: 'x', message: 'busy' }],
          })
        }
        const items = body.strings.map((s, i) => ({
          hashcode: (s.stringText.length.toString(16) + i.toString(16)).padStart(32, '0'),
          stringText: s.stringText,
          parsedStringText: s.stringText,
          variant: null,
          overWritten: false,
        }))
        return envelope(res, 200, { code: 'SUCCESS', data: { items } })
      }
      envelope(res, 200, { code: 'SUCCESS', data: { totalCount: 0, items: [] } })
    })
    try {
      const app = messageModules(500)
      const appRoot = makeApp(app.files, { locales: ['fr-FR'] })
      const warnings: string[] = []
      const result = await runPipeline({
        options: frenchBuildOptions(appRoot, server.url),
        logger: { info() {}, warn: (m) => warnings.push(m) },
        // The default number of retries; only the waits are shortened.
        connect: connectService({ retry: { minDelayMs: 5, maxDelayMs: 20 } }),
      })
      expect(warnings).toEqual([])
      expect(result.sync.pushed).toBe(500)
      expect(creates).toBe(5 + 6)
    } finally {
      await server.close()
    }
  })
})
