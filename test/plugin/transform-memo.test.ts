import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { afterEach, expect, test } from 'vitest'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import tmsRollup from '../../src/rollup'
import { idsApp, renderInNode } from './helpers'

/**
 * The transform memo (`.tms-cache/transform/`): a production build takes the transform of each module
 * whose content and ids did not change from the last build, and ships what a build without it ships.
 * Each build is a new plugin instance, as a new `vite build` process is.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** A production rollup build into `out`: file name -> content of every file written. */
async function build(dir: string, out: string): Promise<Map<string, string>> {
  const options = { root: dir, locales: ['fr-FR'], pseudo: true, cache: 'offline' as const, push: false }
  const bundle = await rollup({ input: join(dir, 'src/main.js'), plugins: [tmsRollup(options)], onLog() {} })
  await bundle.write({ dir: join(dir, out), format: 'es' })
  await bundle.close()
  const files = readdirSync(join(dir, out)).sort()
  return new Map(files.map((f) => [f, readFileSync(join(dir, out, f), 'utf8')]))
}

/** The one memo file of the app's build settings. */
function memoFile(dir: string): string {
  const files = readdirSync(join(dir, '.tms-cache', 'transform'))
  expect(files).toHaveLength(1)
  return join(dir, '.tms-cache', 'transform', files[0]!)
}

test("a warm build takes an unchanged module's transform from the memo, and ships what the cold one shipped", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await build(root, 'dist-cold')
  const warm = await build(root, 'dist-warm')
  expect(warm).toEqual(cold)
  // The memo is what the warm build read: an entry changed on disk (its content hash kept) is shipped.
  const memo = readFileSync(memoFile(root), 'utf8')
  expect(memo.split('\n').filter((l) => l.includes('m1.js'))).toHaveLength(1)
  writeFileSync(memoFile(root), memo.replace("'Open the door'", "'Open the memo'"))
  const marked = await build(root, 'dist-marked')
  expect(marked.get('main.js')).toBe(cold.get('main.js')!.replace("'Open the door'", "'Open the memo'"))
  // A changed module is transformed again.
  writeFileSync(
    join(root, 'src/m1.js'),
    readFileSync(join(root, 'src/m1.js'), 'utf8').replace('door', 'gate'),
  )
  const changed = await build(root, 'dist-changed')
  expect((await renderInNode(join(root, 'dist-changed', 'main.js'))).source).toEqual([
    'Save 144024',
    'Open the gate',
  ])
  expect(changed.get('main.js')).toContain("'Open the gate'")
})

test("a message added elsewhere that takes a module's short id makes that module's memo a miss", async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-memo-'))
  idsApp(root, ['Save 144024'])
  const first = await build(root, 'dist-1')
  expect(first.get('main.js')!.match(/F3OWHU\w*/g)).toEqual(['F3OWHU'])
  // m0.js is unchanged, but its message now shares 6 characters with m1's: both take 8.
  idsApp(root, ['Save 144024', 'Save 322135'])
  const warm = await build(root, 'dist-2')
  rmSync(join(root, '.tms-cache', 'transform'), { recursive: true })
  const cold = await build(root, 'dist-3')
  expect(warm).toEqual(cold)
  expect(warm.get('main.js')!.match(/F3OWHU\w*/g)).toEqual(['F3OWHUeY', 'F3OWHUHO'])
  expect((await renderInNode(join(root, 'dist-2', 'main.js'))).pseudo).toEqual([
    pseudoLocalize('Save 144024', 'en-XA'),
    pseudoLocalize('Save 322135', 'en-XA'),
  ])
})
