import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, createServer } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import tmsVite from '../../src/vite'
import { onFreePort } from '../helpers/listen'
import {
  filesUnder,
  MARKER_CHARACTER,
  OVERLAY_CODE,
  type OverlayProject,
  setupOverlayProject,
} from './project'

/**
 * The review overlay exists in `vite serve` only: a production build of the same app holds no
 * marker character, none of the overlay's code and no trace of its endpoints.
 */

let project: OverlayProject

beforeAll(async () => {
  project = await setupOverlayProject()
}, 120_000)

afterAll(async () => {
  await project?.close()
})

test('the dev server serves the overlay: the names this check looks for are in its modules', async () => {
  const server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    server: { host: '127.0.0.1', port: 0 },
  })
  try {
    await onFreePort(() => server.listen())
    const url = server.resolvedUrls!.local[0]!
    const served = [
      await (await fetch(`${url}@id/__x00__tms/runtime.js`)).text(),
      await (await fetch(`${url}@id/__x00__tms/overlay.js`)).text(),
    ].join('\n')
    expect(OVERLAY_CODE.filter((name) => !served.includes(name))).toEqual([])
  } finally {
    await server.close()
  }
})

test('TMS_DEV_OVERLAY=0 leaves the overlay out of the dev server', async () => {
  process.env.TMS_DEV_OVERLAY = '0'
  const server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    server: { host: '127.0.0.1', port: 0 },
  })
  try {
    await onFreePort(() => server.listen())
    const url = server.resolvedUrls!.local[0]!
    const runtime = await (await fetch(`${url}@id/__x00__tms/runtime.js`)).text()
    expect(runtime).toContain('function _l(')
    expect(OVERLAY_CODE.filter((name) => runtime.includes(name))).toEqual([])
    const endpoint = await fetch(`${url}__tms/overlay/message`, { method: 'POST', body: '{}' })
    await endpoint.arrayBuffer()
    expect(endpoint.status).not.toBe(403)
  } finally {
    delete process.env.TMS_DEV_OVERLAY
    await server.close()
  }
})

test('a production build of the same app has no marker character and no overlay code in any output file', async () => {
  const outDir = join(project.root, 'dist')
  await build({
    root: project.root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(project.options())],
    build: { outDir, minify: false },
  })
  const files = filesUnder(outDir)
  // The app and a catalog chunk per locale (fr-FR, de-DE, en-XA), and the page.
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(4)
  expect(files.some((f) => f.endsWith('index.html'))).toBe(true)
  const found: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    if (MARKER_CHARACTER.test(text)) found.push(`${file}: a marker character`)
    for (const name of OVERLAY_CODE) if (text.includes(name)) found.push(`${file}: ${name}`)
  }
  expect(found).toEqual([])
  // The texts are there, as the app wrote them: the build did include the messages.
  const code = files
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
  expect(code).toContain('Bienvenue dans la boutique')
  expect(code).toContain('Welcome to the shop')
})
