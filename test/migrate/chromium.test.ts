import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import reactSwc from '@vitejs/plugin-react-swc'
import { lingui } from 'lingui-vite-plugin-5'
import type { Browser } from 'playwright-core'
import { build, type PluginOption } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Library } from '../../src/core/migrate/types'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import tms from '../../src/vite'
import { DEMO_CREDENTIALS, tms as tmsCli } from '../helpers/cli'
import { launchChromium, serveStatic } from '../plugin/bundlers'
import { catalogFiles, entryCode, PAGE, VIEW_NAMES } from './original-entries'

/**
 * Each fixture app (test/fixtures/migrate/<library>), as its authors would run it on Lingui, react-intl
 * or react-i18next with its catalogs, and as `tms migrate` and `tms import` (the built CLI, against
 * the emulator) leave it, built by vite with the plugin: in one Chromium, in every locale its catalogs
 * have, every view shows the same text. The locales and catalogs are read from the fixture, so a
 * construct added to a fixture (with its translations) is compared too.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const FIXTURES = join(REPO, 'test/fixtures/migrate')
const SOURCE = 'en'
const LIBRARIES: Library[] = ['lingui', 'formatjs', 'i18next']
const TIMEOUT = { timeout: 30_000 }

let browser: Browser
let emu: RunningEmulator
const copies: string[] = []

/** The locales each fixture has catalogs for; the emulator gets one project per library. */
const locales = Object.fromEntries(
  LIBRARIES.map((library) => [
    library,
    [...new Set(catalogFiles(join(FIXTURES, library), library).map((c) => c.locale))].sort(),
  ]),
) as Record<Library, string[]>

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    seed: {
      users: [
        {
          userIdentifier: DEMO_CREDENTIALS.TMS_USER_IDENTIFIER,
          userSecret: DEMO_CREDENTIALS.TMS_USER_SECRET,
        },
      ],
      accounts: [
        {
          accountUid: 'migrate-account',
          projects: LIBRARIES.map((library) => ({
            projectId: library,
            sourceLocaleId: SOURCE,
            targetLocaleIds: locales[library].filter((l) => l !== SOURCE),
          })),
        },
      ],
    },
  })
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await emu?.close()
  for (const c of copies) rmSync(c, { recursive: true, force: true })
})

/**
 * The fixture copied under the repo, so that its libraries, React and unplugin-tms (the built package,
 * by its own name) resolve as in an installed app.
 */
function copy(library: Library, side: string): string {
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(REPO, '.tmp', `chromium-${library}-${side}-`))
  copies.push(dir)
  cpSync(join(FIXTURES, library), dir, { recursive: true })
  return dir
}

async function viteBuild(dir: string, plugins: PluginOption[], entry: string): Promise<string> {
  writeFileSync(join(dir, 'index.html'), PAGE)
  writeFileSync(join(dir, 'entry.jsx'), entry)
  const outDir = join(dir, 'dist')
  await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    cacheDir: join(dir, '.vite'),
    plugins,
    build: { outDir, emptyOutDir: true, minify: false },
  })
  return outDir
}

/**
 * The original app, its macros and catalogs compiled the way its library documents: for Lingui its
 * SWC macro plugin and its vite plugin (release 5: Lingui 6's vite plugin needs Node 22).
 */
function originalPlugins(library: Library, dir: string): PluginOption[] {
  if (library !== 'lingui') return [react()]
  return [
    reactSwc({ plugins: [['@lingui/swc-plugin', {}]] }),
    lingui({ configPath: join(dir, 'lingui.config.js') }),
  ]
}

/** `tms migrate`, then `tms import` of every catalog, then a build with the plugin: what a user runs. */
async function migratedBuild(library: Library): Promise<string> {
  const dir = copy(library, 'migrated')
  const targets = locales[library].filter((l) => l !== SOURCE)
  writeFileSync(
    join(dir, 'tms.config.json'),
    JSON.stringify({ projectId: library, baseUrl: emu.url, sourceLocale: SOURCE, locales: targets }),
  )
  const migrate = await tmsCli(dir, ['migrate', '--from', library])
  expect(migrate.stderr).toBe('')
  expect(migrate.stdout).not.toContain('TODO')
  const files = catalogFiles(dir, library).map((c) => c.file)
  const imported = await tmsCli(dir, ['import', '--from', library, ...files], DEMO_CREDENTIALS)
  expect(imported.stderr).toBe('')
  expect(imported.stdout).not.toMatch(/matched no message|refused|not translated/)
  expect(imported.code).toBe(0)
  const plugin = tms({
    root: dir,
    userIdentifier: DEMO_CREDENTIALS.TMS_USER_IDENTIFIER,
    userSecret: DEMO_CREDENTIALS.TMS_USER_SECRET,
    report: false,
  })
  return viteBuild(dir, [react(), plugin], entryCode(dir, library, 'migrated'))
}

/** Each view's visible text in each locale: `"<locale> <view>"` to the page's text. */
async function texts(outDir: string, codes: string[]): Promise<Record<string, string>> {
  const server = await serveStatic(outDir)
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text())
  })
  try {
    await page.goto(`${server.url}/index.html`)
    await page
      .waitForFunction(() => 'show' in window, undefined, TIMEOUT)
      .catch((error: Error) => {
        throw new Error(`${error.message}; the page said: ${errors.join('; ')}`)
      })
    const shown: Record<string, string> = {}
    for (const locale of codes) {
      for (const view of VIEW_NAMES) {
        await page.evaluate(
          ([l, v]) => (window as unknown as { show(l: string, v: string): Promise<void> }).show(l!, v!),
          [locale, view],
        )
        // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what a user reads
        shown[`${locale} ${view}`] = await page.locator('#root').innerText()
      }
    }
    expect(errors).toEqual([])
    return shown
  } finally {
    await page.close()
    await server.close()
  }
}

test.each(LIBRARIES)(
  '%s: the original app and the migrated one show the same text in every view and every locale',
  async (library) => {
    expect(locales[library]).toContain(SOURCE)
    expect(locales[library].length).toBeGreaterThan(1)
    const original = copy(library, 'original')
    const before = await texts(
      await viteBuild(original, originalPlugins(library, original), entryCode(original, library, 'original')),
      locales[library],
    )
    // The original shows each target locale's translations: not one view as in the source locale.
    for (const locale of locales[library].filter((l) => l !== SOURCE))
      for (const view of VIEW_NAMES) expect(before[`${locale} ${view}`]).not.toBe(before[`${SOURCE} ${view}`])
    const after = await texts(await migratedBuild(library), locales[library])
    expect(after).toEqual(before)
  },
  300_000,
)
