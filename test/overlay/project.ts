import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { runPipeline } from '../../src/core/pipeline'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { type Options, resolveOptions } from '../../src/options'
import { connectService } from '../../src/service'
import { control } from '../helpers/sync'

/**
 * The overlay fixture app (test/fixtures/overlay/app) against the emulator, its strings pushed and
 * authorized, with one translation in each state a reviewer meets: published, pending, missing and
 * rejected (a translation that drops a placeholder). The client reaches the emulator through a small
 * proxy that keeps every access token the emulator handed out, so a test can look for them.
 */

export const FIXTURE: string = fileURLToPath(new URL('../fixtures/overlay/app', import.meta.url))
export const PROJECT = 'demo-project'
export const SECRET = 'demo-secret'

/** Zero-width, direction, word-joiner and private-use characters: what invisible markers are made of. */
export const MARKER_CHARACTER: RegExp = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF\uE000-\uF8FF]/u
/** Names only the overlay's code and its runtime hook use (the last: vite's editor links). */
export const OVERLAY_CODE: string[] = [
  'tms-overlay',
  '__tms/overlay',
  '__tms_attach',
  '__tms_seen',
  'x-tms-overlay-token',
  '__open-in-editor',
]

/** Every file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

export interface OverlayProject {
  emu: RunningEmulator
  root: string
  options(extra?: Options): Options
  /** Source text -> hashcode. */
  hashcodes: Map<string, string>
  /** Every access and refresh token the emulator answered with. */
  tokens: Set<string>
  close(): Promise<void>
}

export async function setupOverlayProject(): Promise<OverlayProject> {
  const emu = await startEmulator({ port: 0 })
  const tokens = new Set<string>()
  const proxy = await tokenProxy(emu.url, tokens)
  const root = mkdtempSync(join(tmpdir(), 'tms-review-app-'))
  cpSync(FIXTURE, root, { recursive: true })
  const options = (extra: Options = {}): Options => ({
    root,
    baseUrl: proxy.url,
    projectId: PROJECT,
    userIdentifier: 'demo-user',
    userSecret: SECRET,
    locales: ['fr-FR', 'de-DE'],
    pseudo: ['en-XA'],
    cacheDir: join(root, '.tms-cache'),
    ...extra,
  })
  const pushed = await runPipeline({
    options: resolveOptions(options(), { command: 'build' }),
    logger: { info() {}, warn() {} },
    push: true,
    pull: false,
    connect: connectService(),
  })
  const hashcodes = new Map<string, string>()
  for (const m of pushed.extraction.messages) hashcodes.set(m.text, pushed.sync.hashcodes.get(m.key)!)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  const translate = (source: string, localeId: string, translation: string, published: boolean) =>
    control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
      hashcode: hashcodes.get(source),
      localeId,
      translation,
      published,
    })
  await translate('Welcome to the shop', 'fr-FR', 'Bienvenue dans la boutique', true)
  await translate('Hello {name}!', 'fr-FR', 'Bonjour {name} !', true)
  await translate('Save the cart', 'fr-FR', 'Garder le panier pour plus tard', true)
  await translate('Welcome to the shop', 'de-DE', 'Willkommen im Laden', false)
  await translate('Hello {name}!', 'de-DE', 'Hallo!', true)
  // The dev server serves what the cache holds: a build's pull fills it.
  await runPipeline({
    options: resolveOptions(options(), { command: 'build' }),
    logger: { info() {}, warn() {} },
    connect: connectService(),
  })
  return {
    emu,
    root,
    options,
    hashcodes,
    tokens,
    async close() {
      await proxy.close()
      await emu.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** Forwards to the emulator and notes the tokens of every authenticate and refresh answer. */
async function tokenProxy(
  target: string,
  tokens: Set<string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          const body = Buffer.concat(chunks)
          for (const [, token] of body
            .toString('utf8')
            .matchAll(/"(?:accessToken|refreshToken)"\s*:\s*"([^"]+)"/g)) {
            tokens.add(token!)
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(body)
        })
      },
    )
    out.on('error', (error) => {
      res.writeHead(502)
      res.end(error.message)
    })
    req.pipe(out)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A body the page received, read as text. */
export interface ReceivedBody {
  url: string
  body: string
}

/**
 * Opens the fixture app's page at `url` and waits for the app and the overlay's pick button; every
 * body the page receives is kept, for the checks that no secret reaches it.
 */
export async function openOverlayPage(
  browser: Browser,
  url: string,
  timeout: { timeout: number },
): Promise<{ page: Page; bodies: Promise<ReceivedBody>[] }> {
  const page = await browser.newPage()
  const bodies: Promise<ReceivedBody>[] = []
  page.on('response', (response) => {
    bodies.push(
      response.body().then(
        (b) => ({ url: response.url(), body: b.toString('utf8') }),
        () => ({ url: response.url(), body: '' }),
      ),
    )
  })
  await page.goto(`${url}/`)
  await page.waitForFunction(
    () => (window as unknown as { app?: unknown }).app !== undefined,
    undefined,
    timeout,
  )
  await page.waitForSelector('#tms-overlay [data-tms=pick]', timeout)
  return { page, bodies }
}
