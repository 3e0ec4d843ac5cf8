import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import type { RunningEmulator } from '../../src/emulator/index'
import { copyExample, startDemoEmulator } from '../helpers/example'
import { onFreePort } from '../helpers/listen'
import { gotoViteDev, launchChromium } from '../plugin/bundlers'

/**
 * An example (examples/vite-<framework>) as its README runs it (its own vite.config.ts, the built
 * package) in vite's dev server with the overlay, after a build pushed and pulled against the
 * emulator, whose translators publish the demo's translation memory at once. The copy lives under the
 * repo's .tmp/ so that it resolves its framework and unplugin-tms as the example does.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
export const TIMEOUT = { timeout: 30_000 }
/** The dev server's first page: vite transforms every module and may optimize dependencies first. */
const FIRST_LOAD = { timeout: 120_000 }
export const PANEL = '#tms-overlay [data-tms=panel]'

export interface ExamplePage {
  readonly emu: RunningEmulator
  readonly page: Page
  readonly root: string
  /** The hashcode of the manifest entry whose parsed text passes. */
  hashcodeOf(parsed: (text: string) => boolean): Promise<string>
  /** `file:line:col` of the first occurrence of `needle` in one of the example's files. */
  locationOf(file: string, needle: string): string
  /** Waits until the panel shows this message's source text. */
  panelOf(source: string): Promise<void>
}

/** Sets the example up before the file's tests (the page loaded, the overlay there), closes it after. */
export function exampleInDevServer(example: string, ready: string): ExamplePage {
  let emu: RunningEmulator
  let root: string
  let browser: Browser
  let server: ViteDevServer
  let page: Page
  beforeAll(async () => {
    emu = await startDemoEmulator()
    root = copyExample(join(REPO, 'examples', example), `overlay-${example}-`)
    const configFile = join(root, 'vite.config.ts')
    // The build pushes the messages, gets them translated and fills the cache the dev server reads.
    await build({ root, configFile, logLevel: 'silent' })
    server = await createServer({
      root,
      configFile,
      logLevel: 'silent',
      // Its own dependency cache: the repo's node_modules/.vite is shared with every other dev server
      // of the suite, whose optimizer would rewrite it under this page.
      cacheDir: join(root, '.vite'),
      server: { host: '127.0.0.1', port: 0 },
    })
    await onFreePort(() => server.listen())
    browser = await launchChromium()
    page = await browser.newPage()
    await gotoViteDev(page, server.resolvedUrls!.local[0]!)
    await page.waitForSelector(ready, FIRST_LOAD)
    await page.waitForSelector('#tms-overlay [data-tms=pick]', FIRST_LOAD)
  }, 300_000)
  afterAll(async () => {
    await page?.close()
    await browser?.close()
    await server?.close()
    await emu?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })
  return {
    get emu() {
      return emu
    },
    get page() {
      return page
    },
    get root() {
      return root
    },
    async hashcodeOf(parsed) {
      const manifest = await new DiskCache(join(root, '.tms-cache'), 'demo-project').readManifest()
      if (!manifest.hit) throw new Error('the build wrote no manifest')
      const entry = Object.values(manifest.value.entries).find((e) => parsed(e.parsed))
      if (!entry) throw new Error('no such message in the manifest')
      return entry.hashcode
    },
    locationOf(file, needle) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n')
      const line = lines.findIndex((l) => l.includes(needle))
      return `${file}:${line + 1}:${lines[line]!.indexOf(needle) + 1}`
    },
    async panelOf(source) {
      await page.waitForFunction(
        (text) =>
          document
            .querySelector('#tms-overlay')
            ?.shadowRoot?.querySelector('[data-tms=panel] [data-tms=source]')?.textContent === text,
        source,
        TIMEOUT,
      )
    },
  }
}
