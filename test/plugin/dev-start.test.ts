import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { afterEach, expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import type { Options } from '../../src/options'
import { CACHE_DEBOUNCE_MS } from '../../src/plugin/cache-changes'
import { TmsSession } from '../../src/plugin/session'
import { catalogModuleId } from '../../src/plugin/virtual'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import { startProxy } from '../helpers/proxy'
import { PROJECT, suiteProject } from './helpers'
import { recordingLogger } from './vite-logger'

/**
 * Vite's dev server listens while the build's sync is under way: the page's modules wait for the
 * extraction only, its catalogs for the sync, and the sync's lines (what it created, its warnings, the
 * report) are told once it is done. A sync that fails after the server listened is logged as an error
 * and fails the catalog's request with it. A cache change seen during that sync (the server's own push
 * rewrites the manifest) is measured against the catalogs the sync makes, not the empty ones before it.
 */

const project = suiteProject(true)
const extra = (): string => join(project.current.root, 'src/extra.js')

afterEach(() => rmSync(extra(), { force: true }))

/** A session's memos are written after its start resolved: the project's removal must not race them. */
async function released(session: TmsSession): Promise<void> {
  await session.memosWritten()
  session.release()
}

async function listening(options: Options, lines: string[]): Promise<ViteDevServer> {
  const server = await createServer({
    root: project.current.root,
    configFile: false,
    customLogger: recordingLogger(lines),
    plugins: [tmsVite(options)],
    server: { host: '127.0.0.1', port: 0 },
  })
  await onFreePort(() => server.listen())
  return server
}

test('the server listens and serves modules while the service has not answered the sync; the catalog waits for it', async () => {
  // A message the cache lacks: with `push` the dev server's sync creates it on the service.
  writeFileSync(extra(), "import { t } from 'unplugin-tms/runtime'\nt('Only in dev')\n")
  let answer!: () => void
  const proxy = await startProxy(project.current.emu.url, { hold: new Promise((r) => (answer = r)) })
  const lines: string[] = []
  const server = await listening(project.current.options({ push: true, baseUrl: proxy.url }), lines)
  try {
    const greet = await server.transformRequest('/src/greet.js')
    expect(greet?.code).toContain('__tms_l(')
    let served = false
    const catalog = server.transformRequest(catalogModuleId('fr-FR')).then((result) => {
      served = true
      return result
    })
    // No answer can have come: the catalog and the sync's lines cannot be there yet.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(served).toBe(false)
    expect(lines).toEqual([])
    answer()
    expect((await catalog)?.code).toContain('Bienvenue dans la boutique')
    // Told before the catalog is served: the report of the sync that just ended.
    expect(lines).toEqual([
      [
        'info [unplugin-tms] translations',
        'locale  messages  translated  missing  coverage',
        'fr-FR          6           5        1     83.3%',
        '1 new string pushed, 2 requests made',
      ].join('\n'),
    ])
  } finally {
    await server.close()
    await proxy.close()
  }
})

test("a manifest change seen during the server's sync (its own push's) tells the page of no catalog change", async () => {
  writeFileSync(extra(), "import { t } from 'unplugin-tms/runtime'\nt('Pushed by this server')\n")
  let answer!: () => void
  const proxy = await startProxy(project.current.emu.url, { hold: new Promise((r) => (answer = r)) })
  const lines: string[] = []
  const server = await listening(project.current.options({ push: true, baseUrl: proxy.url }), lines)
  const cache = new DiskCache(project.current.cacheDir, PROJECT)
  const pulled = await cache.readLocale('fr-FR', 'published')
  if (!pulled.hit) throw new Error('the first pull did not fill the cache')
  try {
    expect((await server.transformRequest('/src/greet.js'))?.code).toContain('__tms_l(')
    const catalog = server.transformRequest(catalogModuleId('fr-FR'))
    // What chokidar reports when the push records the new string, while the sync still runs; when the
    // second timer fires, the refresh's debounce has too.
    server.watcher.emit('change', join(project.current.cacheDir, 'manifest.json'))
    await new Promise((resolve) => setTimeout(resolve, CACHE_DEBOUNCE_MS))
    await new Promise((resolve) => setTimeout(resolve, CACHE_DEBOUNCE_MS))
    answer()
    expect((await catalog)?.code).toContain('Bienvenue dans la boutique')
    // Then a `tms pull`: its refresh runs after the manifest's, and its line tells that both are done.
    await cache.writeLocale('fr-FR', 'published', {
      ...pulled.value.translations,
      [project.current.hashcodes.get('Welcome to the shop')!]: 'Bienvenue dans la nouvelle boutique',
    })
    server.watcher.emit('change', join(project.current.cacheDir, 'locales', 'fr-FR.published.json'))
    await expect.poll(() => lines.length, { timeout: 20_000 }).toBeGreaterThan(1)
    expect(lines.map((l) => l.split('\n')[0])).toEqual([
      'info [unplugin-tms] translations',
      'info [unplugin-tms] fr-FR catalog updated from the cache',
    ])
  } finally {
    await server.close()
    await proxy.close()
    await cache.writeLocale('fr-FR', 'published', pulled.value.translations)
  }
})

test('a sync that fails after the server listened is logged as an error and fails the catalog', async () => {
  writeFileSync(extra(), "import { t } from 'unplugin-tms/runtime'\nt('Not in the frozen cache')\n")
  const lines: string[] = []
  const server = await listening(project.current.options({ cache: 'frozen' }), lines)
  try {
    const failure = await server.transformRequest(catalogModuleId('fr-FR')).then(
      () => 'served',
      (error: Error) => error.message,
    )
    expect(failure).toContain("cache: 'frozen' and the message")
    expect(lines).toEqual([
      expect.stringMatching(/^error \[unplugin-tms\] cache: 'frozen' and the message "Not in/),
    ])
  } finally {
    await server.close()
  }
})

test('a catalog asked while a refresh starts a new build waits for that build, whose sync it then reads', async () => {
  // The dev server's own push rewrites the cache's manifest, and that change starts a new build
  // (dev.ts's refresh) while the first sync may still be finishing: a catalog made then from the new,
  // unsynced build would hold no translation.
  writeFileSync(extra(), "import { t } from 'unplugin-tms/runtime'\nt('Only in dev')\n")
  let answer!: () => void
  const proxy = await startProxy(project.current.emu.url, { hold: new Promise((r) => (answer = r)) })
  const options = project.current.options({ push: true, baseUrl: proxy.url })
  const session = new TmsSession(options)
  session.configure({ root: project.current.root })
  try {
    await session.start('serve')
    const first = session.openBuild
    const catalog = session.syncedLatest().then(() => session.build.catalogLiteralFor('fr-FR'))
    // The wait has taken the first start's sync; then the refresh's start, its extraction done.
    await new Promise((resolve) => setImmediate(resolve))
    await session.start('serve')
    const second = session.openBuild
    expect(second).not.toBe(first)
    answer()
    expect(await catalog).toContain('Bienvenue dans la boutique')
    expect(session.build).toBe(second)
  } finally {
    await released(session)
    await proxy.close()
  }
})

test("a file the watcher tells of runs the include globs again only if it is or was a source: the cache's own files do not", async () => {
  const session = new TmsSession(project.current.options({ cache: 'offline' }))
  session.configure({ root: project.current.root })
  try {
    await session.start('serve')
    const build = session.build
    const before = build.included
    // A memo the server writes into a cache directory inside its root, and a file no glob selects.
    await session.refreshIncluded(join(project.current.root, '.tms-cache/transform/app.v1.cache'))
    await session.refreshIncluded(join(project.current.root, 'notes.txt'))
    expect(build.included).toBe(before)
    writeFileSync(extra(), "import { t } from 'unplugin-tms/runtime'\nt('Created later')\n")
    await session.refreshIncluded(extra())
    expect(build.included).not.toBe(before)
    expect(build.included.has(extra())).toBe(true)
    rmSync(extra())
    await session.refreshIncluded(extra())
    expect(build.included.has(extra())).toBe(false)
    expect([...build.included].sort()).toEqual([...before].sort())
  } finally {
    await released(session)
  }
})

test('a module created after the start, and imported before the watcher tells of it, is rewritten if the include globs select it', async () => {
  const session = new TmsSession(project.current.options({ cache: 'offline' }))
  session.configure({ root: project.current.root })
  const excluded = join(project.current.root, 'src/extra.test.js')
  try {
    await session.start('serve')
    const code = "import { t } from 'unplugin-tms/runtime'\nt('Created later')\n"
    writeFileSync(extra(), code)
    writeFileSync(excluded, code)
    // No refresh of the include globs ran (a dev server's runs on its watcher's `add` event).
    expect(session.transform(code, extra())?.code).toContain('__tms_l(')
    expect(session.wants(extra())).toBe(true)
    expect(session.transform(code, excluded)).toBeNull()
    expect(session.transform(code, join(project.current.root, 'node_modules/pkg/index.js'))).toBeNull()
  } finally {
    await released(session)
    rmSync(excluded, { force: true })
  }
})
