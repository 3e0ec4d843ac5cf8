import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { expect, it } from 'vitest'
import tms from '../../src/vite'

// The distinct messages of the fixture app's src/ (unused.js included).
const APP_MESSAGES = 5
const app = fileURLToPath(new URL('../fixtures/plugin/app/', import.meta.url))

it("extracts from the bundler's root when no root option or config file names one", async () => {
  // The test process runs in the repository, not in the app: only vite's root points at the app.
  expect(process.cwd()).not.toBe(app.replace(/\/$/, ''))
  const outDir = await mkdtemp(join(tmpdir(), 'tms-root-'))
  const cacheDir = await mkdtemp(join(tmpdir(), 'tms-root-cache-'))
  await build({
    root: app,
    configFile: false,
    logLevel: 'silent',
    plugins: [tms({ locales: ['fr-FR'], cache: 'offline', cacheDir })],
    build: { outDir, emptyOutDir: true },
  })
  const report = JSON.parse(await readFile(join(outDir, 'tms-report.json'), 'utf8'))
  // Every message of the app's src/ (unused.js included: it is in the source, not in the bundle).
  expect(report.locales['fr-FR'].messages).toBe(APP_MESSAGES)
  const cwdBuild = await mkdtemp(join(tmpdir(), 'tms-root-'))
  await build({
    root: app,
    configFile: false,
    logLevel: 'silent',
    plugins: [tms({ locales: ['fr-FR'], cache: 'offline', cacheDir, root: process.cwd() })],
    build: { outDir: cwdBuild, emptyOutDir: true },
  })
  const fromCwd = JSON.parse(await readFile(join(cwdBuild, 'tms-report.json'), 'utf8'))
  expect(fromCwd.locales['fr-FR'].messages).not.toBe(APP_MESSAGES)
})
