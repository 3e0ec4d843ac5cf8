import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { npmInstall } from '../../scripts/pack-install'
import { launchChromium } from '../plugin/bundlers'
import {
  childEnv,
  expectedHome,
  homePagesInTheirLocales,
  hydratesInTokyo,
  LOCALES,
  type Locale,
  pullIntoCache,
  type RunningServer,
  redirectsOfRoot,
  runNode,
  served,
  startServer,
  switchesLocale,
} from './framework'

/**
 * examples/nuxt, built by Nuxt from the cache a `tms pull` left, its production server (Nitro) run with
 * TZ=UTC: 500 concurrent requests in 4 locales each wholly in its locale; the page hydrates in Chromium
 * with no change, in a browser in Tokyo too, and the next page in Tokyo's zone (the module's `tz`
 * cookie); a switch after hydration; `nuxi generate` writes every
 * locale's page, compared whole with the server's.
 *
 * Nuxt is not a devDependency (hundreds of packages, and a peer range on rolldown that the repository's
 * own rolldown does not meet): the test installs the example's Nuxt into `.tmp/nuxt-app` once, from
 * the npm cache when it can, and reuses it while the version is the same.
 *
 * Nuxt 4 does not build on Node 20 (its build calls `Set.prototype.difference`, Node 22's: "Nuxt build
 * error: TypeError: trustedFunctions.difference is not a function", 4.4.8 and 4.5.2 alike, though 4.4's
 * engines say ^20.19): this file runs on Node 22 and later.
 */

const EXAMPLE = fileURLToPath(new URL('../../examples/nuxt/', import.meta.url))
const REPO = fileURLToPath(new URL('../../', import.meta.url))
const APP = join(REPO, '.tmp/nuxt-app')
const NUXT = (
  JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as { devDependencies: { nuxt: string } }
).devDependencies.nuxt

let server: RunningServer | undefined
let browser: Browser | undefined

/** The example in APP, with Nuxt installed there and unplugin-tms linked as `file:../..` would. */
async function prepareApp(): Promise<void> {
  mkdirSync(APP, { recursive: true })
  const installed = join(APP, 'installed-nuxt.txt')
  if (!existsSync(installed) || readFileSync(installed, 'utf8') !== NUXT) {
    writeFileSync(
      join(APP, 'package.json'),
      '{ "name": "unplugin-tms-example-nuxt", "private": true, "type": "module" }\n',
    )
    await npmInstall(APP, [`nuxt@${NUXT}`])
    writeFileSync(installed, NUXT)
  }
  for (const entry of ['app', 'nuxt.config.ts', 'tms.config.mjs', '.output', '.nuxt', '.tms-cache'])
    rmSync(join(APP, entry), { recursive: true, force: true })
  for (const entry of ['app', 'nuxt.config.ts', 'tms.config.mjs'])
    cpSync(join(EXAMPLE, entry), join(APP, entry), { recursive: true })
  rmSync(join(APP, 'node_modules/unplugin-tms'), { force: true })
  symlinkSync(REPO, join(APP, 'node_modules/unplugin-tms'))
}

const nuxi = (command: string): Promise<string> =>
  runNode(APP, [join(APP, 'node_modules/nuxt/bin/nuxt.mjs'), command], childEnv({}))

beforeAll(async () => {
  // Nuxt 4 builds on Node 22 and later: run this file with test/frameworks.vitest.config.ts on Node 22 (not `npm test`).
  const major = Number(process.versions.node.split('.')[0])
  if (major < 22)
    throw new Error(
      `Nuxt 4 needs Node 22 or later; this is Node ${major}: run it as docs/development.md says`,
    )
  await prepareApp()
  await pullIntoCache(APP)
  await nuxi('build')
  server = await startServer(
    APP,
    ['.output/server/index.mjs'],
    childEnv({ TZ: 'UTC', HOST: '127.0.0.1', PORT: '0' }),
  )
  browser = await launchChromium()
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

test('500 concurrent requests in 4 locales: every message of every page in its locale, lang and dir right', async () => {
  expect(await homePagesInTheirLocales(server!.url)).toEqual({ wrong: [], checked: 500 })
}, 120_000)

test('/ goes to the locale of the lang cookie, else of Accept-Language by q-value; a pseudo-locale only by name', async () => {
  const cases: [string, string][] = [
    ['fr;q=0.5, de;q=0.9', ''],
    ['ar', ''],
    ['ar-XB', ''],
    ['fr', 'lang=ja-JP'],
  ]
  const answers = await redirectsOfRoot(server!.url, cases)
  expect(answers).toEqual([
    ['fr;q=0.5, de;q=0.9', '', 302, '/de-DE'],
    ['ar', '', 302, '/en-US'],
    ['ar-XB', '', 302, '/ar-XB'],
    ['fr', 'lang=ja-JP', 302, '/ja-JP'],
  ])
})

describe('in Chromium', () => {
  test('hydrates with no warning and no change, in a browser in Tokyo too; the next page renders in its zone', async () => {
    await hydratesInTokyo(browser!, server!.url)
  }, 120_000)

  test('a locale switch after hydration renders the new locale, sets lang and dir, and is remembered', async () => {
    await switchesLocale(browser!, server!.url)
  }, 120_000)
})

test('nuxi generate: every locale page, whole, as the server renders it (both in UTC)', async () => {
  const live: Record<string, string> = {}
  for (const locale of [...LOCALES, 'ar-XB'])
    live[locale] = await (await fetch(`${server!.url}/${locale}`)).text()
  await server!.stop()
  server = undefined
  await nuxi('generate')
  const app = (html: string): string | undefined =>
    /<html[^>]*>[\s\S]*?<div id="__nuxt">([\s\S]*?)<\/div><div id="teleports">/.exec(html)?.[0]
  for (const locale of [...LOCALES, 'ar-XB']) {
    const file = readFileSync(join(APP, `.output/public/${locale}/index.html`), 'utf8')
    // The <html> element, the head's title and the whole app markup; the build's ids and asset names differ.
    const strip = (html: string): string | undefined =>
      app(html)?.replace(/<head>[\s\S]*<\/head>/, (head) => /<title>[^<]*<\/title>/.exec(head)![0])
    expect(strip(file), locale).toBe(strip(live[locale]!))
    if (locale !== 'ar-XB') expect(served(file), locale).toEqual(expectedHome(locale as Locale))
  }
  expect(
    /<html[^>]*>/.exec(readFileSync(join(APP, '.output/public/ar-XB/index.html'), 'utf8'))?.[0],
  ).toContain('dir="rtl"')
}, 600_000)
