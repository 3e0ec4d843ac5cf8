import { execFile } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pseudoLocalize } from '../../src/core/pseudo'
import {
  type Built,
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildVite,
  buildWebpack,
  launchChromium,
  outputFiles,
  renderInChromium,
} from './bundlers'
import {
  FRENCH,
  FRENCH_TEXT,
  type Project,
  PSEUDO_TEXT,
  rendered,
  renderInNode,
  SOURCE_TEXT,
  setupProject,
} from './helpers'

/**
 * The fixture app built through each bundler against the emulator (real HTTP: push at the first build,
 * pull here), then run: source text first, French after setLocale('fr-FR'), pseudo text after
 * setLocale('en-XA').
 */

let project: Project
let browser: Browser

beforeAll(async () => {
  project = await setupProject()
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await project?.close()
})

const IMPORTED_FRENCH = [
  'Welcome to the shop',
  'Hello {name}!',
  'You have {count} items in your cart',
  'Open',
].map((s) => FRENCH[s]!)
const UNUSED_FRENCH = FRENCH['This text is never shipped']!

const REPORT = {
  locales: { 'fr-FR': { messages: 5, translated: 5, missing: 0, coverage: 100 } },
  pushed: 0,
  // One authentication, one page of translations for fr-FR; en-XA is made on the machine.
  requests: 2,
}

/** The one output file that holds a locale's catalog (its name comes from the catalog module). */
function catalogChunk(built: Built, locale: string): string {
  const chunks = [...outputFiles(built.outDir)].filter(([file]) => file.includes(`tms-${locale}`))
  expect(chunks.map(([file]) => file)).toHaveLength(1)
  return chunks[0]![1]
}

const NODE_BUILDS = {
  rollup: (p: Project) => buildRollup(p.root, p.options()),
  rolldown: (p: Project) => buildRolldown(p.root, p.options()),
  esbuild: (p: Project) => buildEsbuild(p.root, p.options()),
  webpack: (p: Project) => buildWebpack(p.root, p.options()),
  rspack: (p: Project) => buildRspack(p.root, p.options()),
}

describe.each(Object.entries(NODE_BUILDS))('%s', (_name, build) => {
  test('the output renders source, French and en-XA text; the report is written', async () => {
    const built = await build(project)
    expect(built.warnings).toEqual([])
    expect(await renderInNode(built.entry!)).toEqual({
      source: SOURCE_TEXT,
      fr: FRENCH_TEXT,
      pseudo: PSEUDO_TEXT,
      pwned: false,
    })
    expect(JSON.parse(readFileSync(join(built.outDir, 'tms-report.json'), 'utf8'))).toEqual(REPORT)
    for (const text of outputFiles(built.outDir).values()) expect(text).not.toContain('demo-secret')
  })

  test('the French chunk holds exactly the messages of the imported modules', async () => {
    const built = await build(project)
    const fr = catalogChunk(built, 'fr-FR')
    for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    expect(fr).not.toContain(UNUSED_FRENCH)
    // No source text in a catalog, and nothing for the source locale.
    expect(fr).not.toContain('Welcome to the shop')
    expect([...outputFiles(built.outDir).keys()].some((f) => f.includes('tms-en-US'))).toBe(false)
  })
})

describe('vite', () => {
  test('the built page renders source, French and en-XA text in Chromium; the report is written', async () => {
    const built = await buildVite(project.root, project.options())
    expect(built.warnings).toEqual([])
    expect(await renderInChromium(browser, built.outDir)).toEqual({
      source: SOURCE_TEXT,
      fr: FRENCH_TEXT,
      pseudo: PSEUDO_TEXT,
      pwned: false,
    })
    expect(JSON.parse(readFileSync(join(built.outDir, 'tms-report.json'), 'utf8'))).toEqual(REPORT)
    const fr = catalogChunk(built, 'fr-FR')
    for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    expect(fr).not.toContain(UNUSED_FRENCH)
  })
})

describe('a module imported later ships its messages', () => {
  // The same app with the orphan module imported: its message appears, so the filter follows the graph.
  test.each(Object.entries(NODE_BUILDS))('%s', async (_name, build) => {
    const main = join(project.root, 'src/main.js')
    const original = readFileSync(main, 'utf8')
    writeFileSync(main, `import './unused.js'\n${original}`)
    try {
      const fr = catalogChunk(await build(project), 'fr-FR')
      expect(fr).toContain(UNUSED_FRENCH)
      for (const text of IMPORTED_FRENCH) expect(fr).toContain(text)
    } finally {
      writeFileSync(main, original)
    }
  })
})

test('pseudo: a list adds the right-to-left ar-XB next to en-XA', async () => {
  const built = await buildRollup(project.root, project.options({ pseudo: ['en-XA', 'ar-XB'] }))
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(built.entry!).href)})
    await app.setLocale('ar-XB')
    process.stdout.write(JSON.stringify(app.render()))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
  expect(JSON.parse(stdout)).toEqual(rendered((s) => pseudoLocalize(s, 'ar-XB')))
  expect(JSON.parse(stdout)[0]).toBe(
    '\u200f\u202eWelcome\u202c \u202eto\u202c \u202ethe\u202c \u202eshop\u202c\u200f',
  )
})

test('a production build pushes a new message once and reports it', async () => {
  const extra = join(project.root, 'src/extra.js')
  writeFileSync(
    extra,
    "import { t } from 'unplugin-tms/runtime'\nexport const fresh = () => t('A brand new message')\n",
  )
  try {
    const first = await buildRollup(project.root, project.options())
    const report = JSON.parse(readFileSync(join(first.outDir, 'tms-report.json'), 'utf8'))
    expect(report).toEqual({
      locales: { 'fr-FR': { messages: 6, translated: 5, missing: 1, coverage: 83.3 } },
      pushed: 1,
      // Authentication, the create-strings request, one page of translations, and the source
      // strings of the one the pull did not get back: it waits for an authorization.
      requests: 4,
      unauthorized: { strings: 1, locales: { 'fr-FR': 1 } },
    })
    const second = await buildRollup(project.root, project.options())
    expect(JSON.parse(readFileSync(join(second.outDir, 'tms-report.json'), 'utf8')).pushed).toBe(0)
  } finally {
    rmSync(extra)
  }
})
