import type { Browser, Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import type { Options } from '../../src/options'
import tmsVite from '../../src/vite'
import { launchChromium } from './bundlers'
import { fillCache, type Project, setupProject } from './helpers'

/** The fixture app in the vite dev server with a warm cache, open in Chromium. */
export interface DevPage {
  project: Project
  page: Page
  /** The text of the app's `#out` element. */
  shown(): Promise<string>
  /** Resolves once `#out` holds `expected` (a hot update or a reload lands in its own time). */
  waitForText(expected: string): Promise<void>
  close(): Promise<void>
}

export async function openDevPage(extra?: Options): Promise<DevPage> {
  const project = await setupProject()
  await fillCache(project)
  const browser: Browser = await launchChromium()
  const server: ViteDevServer = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options(extra))],
    server: { host: '127.0.0.1', port: 0 },
  })
  await server.listen()
  const page = await browser.newPage()
  await page.goto(server.resolvedUrls!.local[0]!)
  await page.waitForFunction(() => (window as unknown as { app?: unknown }).app !== undefined)
  return {
    project,
    page,
    shown: () => page.evaluate(() => document.querySelector('#out')!.textContent!),
    waitForText: async (expected) => {
      await page.waitForFunction((text) => document.querySelector('#out')!.textContent === text, expected, {
        timeout: 10_000,
      })
    },
    close: async () => {
      await page.close()
      await browser.close()
      await server.close()
      await project.close()
    },
  }
}
