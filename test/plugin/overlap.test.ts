import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { build as viteBuild } from 'vite'
import { afterEach, describe, expect, test } from 'vitest'
import tmsRollup from '../../src/rollup'
import tmsVite from '../../src/vite'
import { FRENCH_TEXT, renderInNode, suiteProject } from './helpers'

/**
 * A production build pulls while the bundler bundles: modules are transformed while the service has
 * not yet answered the pull, and the output still holds the pulled translations. The service sits
 * behind a proxy that holds every translations request until a module has been transformed.
 */

const project = suiteProject()

interface HoldingProxy {
  url: string
  events: string[]
  /** Resolves once a translations request is being held. */
  holding: Promise<void>
  release(why: string): void
  close(): Promise<void>
}

/** Forwards to `target`; GET .../translations waits for release() (or 5 s, which the events tell). */
async function holdingProxy(target: string): Promise<HoldingProxy> {
  const events: string[] = []
  let released: ((why: string) => void) | null = null
  const gate = new Promise<string>((resolve) => {
    released = resolve
  })
  let holdingNow: () => void = () => undefined
  const holding = new Promise<void>((resolve) => {
    holdingNow = resolve
  })
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const to = new URL(req.url ?? '/', target)
    const out = request(to, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    req.pipe(out)
  }
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    if (req.method === 'GET' && req.url?.includes('/translations')) {
      if (!events.includes('pull asked')) events.push('pull asked')
      holdingNow()
      void gate.then(() => forward(req, res))
      return
    }
    forward(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const timer = setTimeout(() => released?.('released after 5 s'), 5000)
  void gate.then((why) => {
    clearTimeout(timer)
    events.push(why)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    holding,
    release: (why) => released?.(why),
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A plugin after ours: on the first transform, waits until the pull is held, then lets it go. */
function probe(proxy: HoldingProxy) {
  let first = true
  return {
    name: 'probe',
    async transform() {
      if (!first) return null
      first = false
      await Promise.race([proxy.holding, new Promise((resolve) => setTimeout(resolve, 5000))])
      if (!proxy.events.includes('released after 5 s')) {
        proxy.events.push('module transformed')
        proxy.release('released')
      }
      return null
    },
  }
}

let proxy: HoldingProxy | null = null
afterEach(async () => {
  await proxy?.close()
  proxy = null
})

describe('a production build pulls while it bundles', () => {
  test('rollup', async () => {
    proxy = await holdingProxy(project.current.emu.url)
    const outDir = join(project.current.root, 'dist-overlap-rollup')
    rmSync(outDir, { recursive: true, force: true })
    const bundle = await rollup({
      input: join(project.current.root, 'src/main.js'),
      plugins: [tmsRollup(project.current.options({ baseUrl: proxy.url })), probe(proxy)],
    })
    await bundle.write({ dir: outDir, format: 'es' })
    await bundle.close()
    expect(proxy.events).toEqual(['pull asked', 'module transformed', 'released'])
    expect((await renderInNode(join(outDir, 'main.js'))).fr).toEqual(FRENCH_TEXT)
  })

  test('vite', async () => {
    proxy = await holdingProxy(project.current.emu.url)
    const outDir = join(project.current.root, 'dist-overlap-vite')
    await viteBuild({
      root: project.current.root,
      configFile: false,
      logLevel: 'silent',
      plugins: [tmsVite(project.current.options({ baseUrl: proxy.url })), probe(proxy)],
      build: { outDir, emptyOutDir: true, minify: false },
    })
    expect(proxy.events).toEqual(['pull asked', 'module transformed', 'released'])
    const assets = join(outDir, 'assets')
    const fr = readdirSync(assets).filter((f) => f.includes('tms-fr-FR'))
    expect(fr).toHaveLength(1)
    expect(readFileSync(join(assets, fr[0]!), 'utf8')).toContain('Bienvenue dans la boutique')
  })
})
