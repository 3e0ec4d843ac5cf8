import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { DiskCache } from '../../src/core/cache'
import type { RunningEmulator } from '../../src/emulator/index'
import { control } from '../helpers/sync'
import { exampleInDevServer } from './example-page'

/**
 * The overlay on examples/vite-react as its README runs it (its own vite.config.ts, the built
 * package): a React page, after a build pushed and pulled against the emulator. The copy lives under
 * the repo's .tmp/ so that it resolves react and unplugin-tms as the example does, without sharing the
 * example's cache with the demo tests.
 */

const TIMEOUT = { timeout: 30_000 }
const panel = '#tms-overlay [data-tms=panel]'

const example = exampleInDevServer('vite-react', '#greeting')
let emu: RunningEmulator
let client: TmsClient
let root: string
let page: Page

// After the example's own hooks: its page is loaded, its overlay there.
beforeAll(async () => {
  ;({ emu, root, page } = example)
  client = createClient({ baseUrl: emu.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
  await client.issues.createWatcher('demo-account', { email: 'translators@example.com', name: 'Translators' })
})

afterAll(async () => {
  await client?.close()
})

test('Alt+click on a translated React text: hashcode, file:line:col and locale states; an issue from the form reaches the service', async () => {
  await page.selectOption('#locale', 'fr-FR')
  await page.waitForFunction(
    () => document.querySelector('#greeting')?.textContent === 'Bonjour Ada !',
    undefined,
    TIMEOUT,
  )
  await page.click('#greeting', { modifiers: ['Alt'] })
  await page.waitForSelector(`${panel} [data-tms=hashcode]`, TIMEOUT)

  const manifest = await new DiskCache(join(root, '.tms-cache'), 'demo-project').readManifest()
  if (!manifest.hit) throw new Error('the build wrote no manifest')
  const hashcode = Object.values(manifest.value.entries).find((e) => e.parsed === 'Hello {0}!')!.hashcode
  expect(await page.textContent(`${panel} [data-tms=hashcode]`)).toBe(hashcode)
  expect(await page.textContent(`${panel} [data-tms=source]`)).toBe('Hello {name}!')
  const lines = readFileSync(join(root, 'src/App.tsx'), 'utf8').split('\n')
  const line = lines.findIndex((l) => l.includes("t('Hello {name}!'"))
  expect(await page.$$eval(`${panel} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    `src/App.tsx:${line + 1}:${lines[line]!.indexOf("t('Hello {name}!'") + 1}`,
  ])
  const states = await page.$$eval(`${panel} [data-tms=locales] tr[data-locale]`, (rows) =>
    rows.map(
      (r) => `${r.getAttribute('data-locale')} ${r.getAttribute('data-state')} ${r.children[2]!.textContent}`,
    ),
  )
  expect(states).toEqual([
    'fr-FR published Bonjour {name} !',
    'de-DE published Hallo {name}!',
    'ja-JP published こんにちは、{name}！',
    expect.stringMatching(/^en-XA pseudo /),
    expect.stringMatching(/^ar-XB pseudo /),
  ])

  await page.selectOption(`${panel} [data-tms=issue-subtype]`, 'DOES_NOT_FIT_SPACE')
  await page.fill(`${panel} [data-tms=issue-text-input]`, 'Too long for the header on phones')
  await page.click(`${panel} [data-tms=issue-form] button[type=submit]`)
  await page.waitForSelector(`${panel} li.issue`, TIMEOUT)
  const issues = (await client.issues.findPage('demo-project')).items
  expect(issues.map((i) => [i.string, i.issueTypeCode, i.issueSubTypeCode, i.issueText])).toEqual([
    [
      { hashcode, localeId: 'fr-FR' },
      'TRANSLATION',
      'DOES_NOT_FIT_SPACE',
      'Too long for the header on phones',
    ],
  ])
  const sent = (await control(emu, 'GET', '/_emulator/notifications')) as {
    items: { email: string; event: string }[]
  }
  expect(sent.items.map((n) => `${n.email} ${n.event}`)).toEqual(['translators@example.com issue.opened'])
  expect(await page.textContent(`${panel} li.issue [data-tms=issue-head]`)).toBe(
    'TRANSLATION · DOES_NOT_FIT_SPACE · fr-FR · OPENED',
  )
})

test('Alt+click on the text of a React <T>: the panel of its message', async () => {
  // Still in fr-FR. The sentence's text around its link: the link's label is the tag function's.
  await page.waitForFunction(
    () => document.querySelector('#help-link')?.textContent?.startsWith('Lisez nos '),
    undefined,
    TIMEOUT,
  )
  await page.keyboard.press('Escape')
  await page.click('#help-link', { modifiers: ['Alt'], position: { x: 3, y: 4 } })
  await page.waitForFunction(
    (selector) =>
      document.querySelector('#tms-overlay')?.shadowRoot?.querySelector(selector)?.textContent ===
      'Read our <a>help pages</a> before you check out.',
    '[data-tms=panel] [data-tms=source]',
    TIMEOUT,
  )
  const manifest = await new DiskCache(join(root, '.tms-cache'), 'demo-project').readManifest()
  if (!manifest.hit) throw new Error('the build wrote no manifest')
  const entry = Object.values(manifest.value.entries).find((e) => e.parsed.includes('help pages'))!
  expect(await page.textContent(`${panel} [data-tms=hashcode]`)).toBe(entry.hashcode)
  const lines = readFileSync(join(root, 'src/App.tsx'), 'utf8').split('\n')
  const line = lines.findIndex((l) => l.trim() === '<T>')
  expect(await page.$$eval(`${panel} [data-tms=location]`, (a) => a.map((x) => x.textContent))).toEqual([
    `src/App.tsx:${line + 1}:${lines[line]!.indexOf('<T>') + 1}`,
  ])
})

const MARKER = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF\uE000-\uF8FF]/gu

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name))
}

const markers = (files: string[]): number =>
  files.reduce((n, f) => n + (readFileSync(f, 'utf8').match(MARKER)?.length ?? 0), 0)

test('the production build adds no marker character to the app and holds no overlay code', async () => {
  const files = jsFiles(join(root, 'dist'))
  const catalogs = files.filter((f) => /[\\/]tms-[\w-]+-[\w-]+\.js$/.test(f))
  // Three target locales, two pseudo-locales and the source locale's catalog.
  expect(catalogs.length).toBe(6)
  // React's own code holds a zero-width space: the same app built without the plugin is the baseline.
  const plain = join(root, 'dist-plain')
  await build({ root, configFile: false, logLevel: 'silent', plugins: [react()], build: { outDir: plain } })
  const app = files.filter((f) => !catalogs.includes(f))
  expect(markers(app)).toBe(markers(jsFiles(plain)))
  // The catalogs: the texts as translated, no marker (ar-XB's direction marks are the pseudo-locale's text).
  expect(markers(catalogs.filter((f) => !f.includes('ar-XB')))).toBe(0)
  const found = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return ['tms-overlay', '__tms/overlay', '__tms_attach', '__tms_seen', 'x-tms-overlay-token']
      .filter((name) => text.includes(name))
      .map((name) => `${file}: ${name}`)
  })
  expect(found).toEqual([])
})
