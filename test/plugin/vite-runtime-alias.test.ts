import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Plugin } from 'vite'
import { afterEach, expect, test } from 'vitest'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsVite from '../../src/vite'
import { idsApp, renderInNode } from './helpers'

/**
 * A vite production build resolves each module's `unplugin-tms/runtime` with vite's own alias, to a
 * file that re-exports the build's runtime module (src/plugin/runtime-proxy.mjs): the plugin's
 * resolveId, which rolldown calls from JavaScript, is asked once for the runtime module rather than
 * once per module that imports it. The app still has one runtime, the build's, its catalogs registered.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

test("a production build's modules reach the runtime module through vite's alias, not the plugin's resolveId", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-alias-'))
  const texts = ['Save 144024', 'Open the door', 'Close the door']
  idsApp(root, texts)
  const asked: string[] = []
  const plugins = (
    tmsVite({ root, locales: ['fr-FR'], pseudo: true, cache: 'offline', push: false }) as Plugin[]
  ).map((plugin): Plugin => {
    const hook = plugin.resolveId
    if (!hook || typeof hook !== 'object') return plugin
    return {
      ...plugin,
      resolveId: {
        ...hook,
        handler(id, ...rest) {
          asked.push(id)
          return hook.handler.call(this, id, ...rest)
        },
      },
    }
  })
  const outDir = join(root, 'dist')
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: {
      outDir,
      minify: false,
      lib: { entry: join(root, 'src/main.js'), formats: ['es'], fileName: () => 'main.js' },
    },
  })
  // Four modules import the runtime (the three messages' and main.js); the proxy imports it once.
  expect(asked.filter((id) => id === 'unplugin-tms/runtime')).toEqual([])
  expect(asked.filter((id) => id === '\0tms/runtime.js')).toEqual(['\0tms/runtime.js'])
  const rendered = await renderInNode(join(outDir, 'main.js'))
  expect(rendered.source).toEqual(texts)
  expect(rendered.fr).toEqual(texts)
  expect(rendered.pseudo).toEqual(texts.map((t) => pseudoLocalize(t, 'en-XA')))
})
