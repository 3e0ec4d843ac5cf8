import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import type { TmsReport } from '../../src/core/report'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control, untilIdle } from '../helpers/sync'
import { mainModule, makeApp, messageModules, PROJECT, SECRET, USER, writeFiles } from './helpers'

/**
 * Four production builds in four processes at once, one cache directory between them (parallel CI
 * jobs with a restored cache). First cold, each with 50 messages of its own: every build succeeds and
 * the manifest ends with every message of all four. Then the same app four times once translations
 * are published: all succeed and ship identical catalogs.
 */

const BUILD = fileURLToPath(new URL('../fixtures/reliability/build.mjs', import.meta.url))
const LOCALES = ['fr-FR', 'de-DE']

let emu: RunningEmulator
beforeAll(async () => {
  emu = await startEmulator({ autoTranslate: { mode: 'pseudo' } })
})
afterAll(async () => {
  await emu?.close()
})

function build(
  root: string,
  outDir: string,
  options: object,
): Promise<{ warnings: string[]; report: TmsReport }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BUILD, root, outDir, JSON.stringify(options)], (error, stdout, stderr) =>
      error ? reject(new Error(`${root}: ${stderr || error.message}`)) : resolve(JSON.parse(stdout)),
    )
  })
}

it('four builds sharing one cache directory at once all succeed, keep every message and agree', async () => {
  const cacheDir = join(mkdtempSync(join(tmpdir(), 'tms-shared-')), 'cache')
  const options = {
    baseUrl: emu.url,
    projectId: PROJECT,
    userIdentifier: USER,
    userSecret: SECRET,
    locales: LOCALES,
    namespace: 'shared-app',
    cacheDir,
  }
  const common = messageModules(200, 'app')
  const roots = [0, 1, 2, 3].map((k) => {
    const own = messageModules(50, `own${k}`, `Build ${k} message`)
    const files = { ...common.files, 'src/own.js': own.files['src/m0.js']! }
    const root = makeApp(files, { locales: LOCALES })
    writeFiles(root, { 'src/main.js': mainModule(files) })
    return { root, texts: own.texts }
  })

  const cold = await Promise.all(roots.map(({ root }) => build(root, join(root, 'dist'), options)))
  for (const run of cold) {
    // Created now, not authorized yet: the service returns none of them, and the build says why.
    expect(run.warnings).toEqual([
      '[plugin unplugin-tms] 250 strings await authorization on the service (de-DE 250, fr-FR 250) and get no translation until authorized: authorize them in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings',
    ])
    expect(run.report.locales['fr-FR']!.messages).toBe(250)
  }
  const cache = new DiskCache(cacheDir, PROJECT)
  const manifest = await cache.readManifest()
  expect(manifest.hit).toBe(true)
  const known = manifest.hit ? Object.values(manifest.value.entries).map((e) => e.parsed) : []
  const expected = [...common.texts, ...roots.flatMap((r) => r.texts)].map((t) => t.replace(/\{\w+\}/, '{0}'))
  expect(known.sort()).toEqual(expected.sort())

  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})

  await untilIdle(emu)
  const root = roots[0]!.root
  const warm = await Promise.all([0, 1, 2, 3].map((k) => build(root, join(root, `dist-${k}`), options)))
  const catalogs = [0, 1, 2, 3].map((k) => {
    const dir = join(root, `dist-${k}`)
    const chunk = readdirSync(dir).find((f) => f.startsWith('tms-fr-FR'))!
    return readFileSync(join(dir, chunk), 'utf8')
  })
  for (const run of warm) {
    expect(run.warnings).toEqual([])
    expect(run.report.locales['fr-FR']).toEqual({ messages: 250, translated: 250, missing: 0, coverage: 100 })
    expect(run.report.pushed).toBe(0)
  }
  expect(new Set(catalogs).size).toBe(1)
  expect(catalogs[0]).toContain('Ṁéššáĝé 199 öƒ {app}')
  for (const locale of LOCALES) {
    const read = await cache.readLocale(locale, 'published')
    expect(read.hit && Object.keys(read.value.translations).length).toBe(250)
  }
}, 600_000)
