import { join } from 'node:path'
import { build as viteBuild } from 'vite'
import { afterEach, expect, test, vi } from 'vitest'
import { Build } from '../../src/plugin/build'
import tmsVite from '../../src/vite'
import { suiteProject } from './helpers'

/**
 * A production build makes its catalogs while the bundler renders its chunks, not between buildEnd and
 * renderStart: there rolldown links and then calls every plugin's hooks on the main thread, which the
 * catalogs' work would hold up. A plugin after ours records when its hooks run, and the first catalog
 * literal made is set among them.
 */

const project = suiteProject(true)

afterEach(() => {
  vi.restoreAllMocks()
})

test('a vite build makes its catalogs after the last renderStart and before the chunks that hold them', async () => {
  const events: string[] = []
  const made = Build.prototype.storedCatalogLiteralFor
  vi.spyOn(Build.prototype, 'storedCatalogLiteralFor').mockImplementation(function (this: Build, ...args) {
    if (!events.includes('catalog')) events.push('catalog')
    return made.apply(this, args)
  })
  const recorder = {
    name: 'recorder',
    enforce: 'post' as const,
    buildEnd: () => void events.push('buildEnd'),
    renderStart: () => void events.push('renderStart'),
    renderChunk: () => {
      if (!events.includes('renderChunk')) events.push('renderChunk')
      return null
    },
  }
  await viteBuild({
    root: project.current.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.current.options({ cache: 'offline' })), recorder],
    build: { outDir: join(project.current.root, 'dist-timing'), emptyOutDir: true },
  })
  expect(events).toEqual(['buildEnd', 'renderStart', 'catalog', 'renderChunk'])
})
