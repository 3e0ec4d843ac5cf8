import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control, untilIdle } from '../helpers/sync'
import { CREDS, makeApp, messageModules, PROJECT, SEED, tms } from './helpers'

/**
 * Four apps of a monorepo, one cache directory (the point of sharing it: one CI cache, one Nx or
 * Turborepo output). Each has 60 messages of its own and 40 in common with the others. Pulled at
 * once (four processes contending for the cache lock) and then one after another, every app reads
 * 100% from the cache afterwards: a pull merges its locale files, it never writes only its own.
 */

const LOCALES = ['fr-FR', 'de-DE']
let emu: RunningEmulator
let cacheDir: string
let apps: string[]

beforeAll(async () => {
  emu = await startEmulator({ seed: SEED, autoTranslate: { mode: 'pseudo' } })
  cacheDir = join(mkdtempSync(join(tmpdir(), 'tms-monorepo-')), 'cache')
  const common = messageModules(40, 'common', 'Shared')
  apps = [0, 1, 2, 3].map((k) => {
    const own = messageModules(60, `app${k}`, `App ${k} says`)
    const files = { 'src/common.js': common.files['src/m0.js']!, 'src/own.js': own.files['src/m0.js']! }
    return makeApp(files, { locales: LOCALES, namespace: 'monorepo', cacheDir })
  })
})
afterAll(async () => {
  await emu?.close()
})

const env = () => ({ ...CREDS, TMS_BASE_URL: emu.url })

/** Each app's coverage per locale as `tms status` reads it from the cache (no request). */
async function offlineCoverage(): Promise<number[][]> {
  const runs = await Promise.all(apps.map((root) => tms(root, ['status', '--json'], { TMS_OFFLINE: '1' })))
  return runs.map((run) => {
    expect(run.stderr).toBe('')
    const report = JSON.parse(run.stdout) as { locales: Record<string, { coverage: number }> }
    return LOCALES.map((l) => report.locales[l]!.coverage)
  })
}

async function pull(root: string): Promise<void> {
  const run = await tms(root, ['pull', '--json'], env())
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
}

it('four apps sharing a cache directory, pulled at once, all read 100% offline', {
  timeout: 600_000,
}, async () => {
  for (const root of apps) expect((await tms(root, ['push'], env())).code).toBe(0)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  await untilIdle(emu)
  await Promise.all(apps.map(pull))
  expect(await offlineCoverage()).toEqual(apps.map(() => [100, 100]))
})

it('four apps sharing a cache directory, pulled one after another, all read 100% offline', {
  timeout: 600_000,
}, async () => {
  rmSync(join(cacheDir, 'locales'), { recursive: true })
  for (const root of apps) await pull(root)
  expect(await offlineCoverage()).toEqual(apps.map(() => [100, 100]))
  // One file per locale, holding all 4 x 60 + 40 strings' translations; no lock or temp file left.
  expect(readdirSync(join(cacheDir, 'locales')).sort()).toEqual([
    'de-DE.published.json',
    'fr-FR.published.json',
  ])
  expect(readdirSync(cacheDir).sort()).toEqual(['extract', 'locales', 'manifest.json'])
  const cache = new DiskCache(cacheDir, PROJECT)
  for (const locale of LOCALES) {
    const read = await cache.readLocale(locale, 'published')
    expect(read.hit && Object.keys(read.value.translations).length).toBe(4 * 60 + 40)
  }
})
