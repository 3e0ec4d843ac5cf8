import { join } from 'node:path'
import { createServer } from 'vite'
import { expect, test } from 'vitest'
import { CACHE_DEBOUNCE_MS } from '../../src/plugin/cache-changes'
import tmsVite from '../../src/vite'
import { suiteProject } from './helpers'
import { recordingLogger } from './vite-logger'

/**
 * A closed dev server runs nothing more of the plugin: a cache change seen just before the close (its
 * debounce still pending) neither reloads the catalogs nor logs. The server is in middleware mode, as
 * frameworks embed vite: no http server whose close could stop the debounce.
 */

const suite = suiteProject(true)

test('a cache change pending when the dev server closes reloads nothing and logs nothing', async () => {
  const project = suite.current
  const lines: string[] = []
  const server = await createServer({
    root: project.root,
    configFile: false,
    customLogger: recordingLogger(lines),
    plugins: [tmsVite(project.options({ cache: 'offline' }))],
    server: { middlewareMode: true, ws: false },
    appType: 'custom',
  })
  // The build has started (the transform waits for it): the cache watch is live.
  const greet = await server.transformRequest('/src/greet.js')
  expect(greet?.code).toContain('__tms_l(')
  // What chokidar reports when `tms pull` writes the cache.
  server.watcher.emit('change', join(project.cacheDir, 'locales', 'fr-FR.published.json'))
  // Node fires timers of one duration in the order they were set: when this one fires, the plugin's
  // debounce, set by the change above, has fired too, unless the close stopped it.
  const debounced = new Promise((resolve) => setTimeout(resolve, CACHE_DEBOUNCE_MS))
  await server.close()
  const closedAt = lines.length
  await debounced
  // A refresh that began is over within the same turn: its failure is logged from microtasks.
  await new Promise((resolve) => setImmediate(resolve))
  expect(lines.slice(closedAt)).toEqual([])
  // The only line of the server's life: the report of its build start.
  expect(lines.map((l) => l.split('\n')[0])).toEqual(['info [unplugin-tms] translations'])
})
