import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { build, type Plugin } from 'vite'
import { afterEach, expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { idsApp, recording } from './helpers'

/**
 * vite 8 calls a JavaScript transform hook from rolldown's threads for each module its filter lets
 * through, and for every module when it has none: each call crosses into JavaScript, whatever it
 * returns. A production build asks the plugin's transforms about the modules that mention a message
 * or the runtime alone; the dev server's hooks are not in a build.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

test("a vite production build calls the plugin's transforms for the modules that mention a message or the runtime alone", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-calls-'))
  idsApp(root, ['Open the door', 'Close the door'])
  writeFileSync(join(root, 'src/other.js'), 'export const other = 1\n')
  writeFileSync(
    join(root, 'src/entry.js'),
    "import { other } from './other.js'\nexport { render } from './main.js'\nexport { other }\n",
  )
  const asked: string[] = []
  const plugins = recording(
    tmsVite({ root, locales: ['fr-FR'], cache: 'offline', push: false }) as Plugin[],
    'transform',
    asked,
  )
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: {
      outDir: join(root, 'dist'),
      minify: false,
      lib: { entry: join(root, 'src/entry.js'), formats: ['es'], fileName: () => 'entry.js' },
    },
  })
  // The app's modules that mention the runtime, once each (main.js imports it, with no message); the
  // rest are the plugin's own: its runtime module, and the proxy vite's alias gives (from src/ here,
  // where an install's is under node_modules and filtered out).
  const app = asked.filter((id) => id.startsWith(root!)).map((id) => relative(root!, id))
  expect(app.sort()).toEqual(['src/m0.js', 'src/m1.js', 'src/main.js'])
  expect(
    asked
      .filter((id) => !id.startsWith(root!))
      .map((id) => id.replace(/.*\/src\//, 'src/'))
      .sort(),
  ).toEqual(['\0tms/runtime.js', 'src/plugin/runtime-proxy.mjs'])
})
