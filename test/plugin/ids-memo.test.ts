import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { afterEach, expect, test } from 'vitest'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import { longId } from '../../src/plugin/ids'
import { TmsSession } from '../../src/plugin/session'
import tmsRollup from '../../src/rollup'
import { idsApp, renderInNode } from './helpers'

/**
 * The ids memo (`.tms-cache/ids/`): a build start whose messages did not change reads each key's long
 * id instead of hashing it, one that added a message hashes that one only, and the ids (so the output)
 * are the ones hashing makes. Each build is a new plugin instance, as a new `vite build` process is.
 */

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

const options = (dir: string) => ({
  root: dir,
  locales: ['fr-FR'],
  pseudo: true,
  cache: 'offline' as const,
  push: false,
})

/** A production rollup build into `out`: file name -> content of every file written. */
async function build(dir: string, out: string): Promise<Map<string, string>> {
  const bundle = await rollup({
    input: join(dir, 'src/main.js'),
    plugins: [tmsRollup(options(dir))],
    onLog() {},
  })
  await bundle.write({ dir: join(dir, out), format: 'es' })
  await bundle.close()
  const files = readdirSync(join(dir, out)).sort()
  return new Map(files.map((f) => [f, readFileSync(join(dir, out, f), 'utf8')]))
}

/** A build start of a new session: how many keys it hashed, and its ids by message text. */
async function start(dir: string): Promise<{ hashed: number; ids: Map<string, string> }> {
  const session = new TmsSession(options(dir))
  await session.start('build')
  await session.synced()
  const { build } = session
  // The table of ids is made when first asked (a transform's miss, a catalog): here, before the build ends.
  const ids = new Map([...build.plainIds].map(([key, id]) => [key.split('\u0000')[2]!, id]))
  await session.memosWritten()
  session.release()
  return { hashed: build.idsMemo!.hashed, ids }
}

const key = (text: string): string => `tms-ids\u0000\u0000${text}`

test('a build start reads the ids of unchanged messages from the memo and hashes only an added one', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await start(root)
  expect(cold.hashed).toBe(2)
  const warm = await start(root)
  expect(warm.hashed).toBe(0)
  expect(warm.ids).toEqual(cold.ids)
  expect(cold.ids).toEqual(
    new Map([
      ['Open the door', longId(key('Open the door')).slice(0, 6)],
      ['Save 144024', 'F3OWHU'],
    ]),
  )
  // The added message shares F3OWHU with a remembered one: both take their long ids, the third keeps its own.
  idsApp(root, ['Save 144024', 'Open the door', 'Save 322135'])
  const added = await start(root)
  expect(added.hashed).toBe(1)
  expect(added.ids).toEqual(
    new Map([
      ['Open the door', cold.ids.get('Open the door')],
      ['Save 144024', 'F3OWHUeY'],
      ['Save 322135', 'F3OWHUHO'],
    ]),
  )
  // The memo written then holds the three: the next start hashes none.
  expect((await start(root)).hashed).toBe(0)
})

test('the ids a warm build ships are the memo’s, and its output is the cold build’s', async () => {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-memo-'))
  idsApp(root, ['Save 144024', 'Open the door'])
  const cold = await build(root, 'dist-cold')
  const warm = await build(root, 'dist-warm')
  expect(warm).toEqual(cold)
  // A memo giving another long id to a key (its digest made again, as if the hash gave it) is what the
  // next build ships: the memo, not a hash, gave the ids.
  const dir = join(root, '.tms-cache', 'ids')
  const [name] = readdirSync(dir)
  const [, header, longs, keys] = readFileSync(join(dir, name!), 'utf8').split('\n')
  const at = (JSON.parse(keys!) as string[]).indexOf(key('Open the door'))
  const changed = `${longs!.slice(0, at * 8)}ZZZZZZZZ${longs!.slice(at * 8 + 8)}`
  const body = `${header}\n${changed}\n${keys}`
  writeFileSync(join(dir, name!), `${createHash('sha1').update(body).digest('hex')}\n${body}`)
  const marked = await build(root, 'dist-marked')
  const id = longId(key('Open the door')).slice(0, 6)
  expect(cold.get('main.js')).toContain(`"${id}"`)
  expect(marked.get('main.js')).toContain('"ZZZZZZ"')
  expect(marked.get('main.js')).not.toContain(`"${id}"`)
  expect((await renderInNode(join(root, 'dist-marked', 'main.js'))).pseudo).toEqual([
    pseudoLocalize('Save 144024', 'en-XA'),
    pseudoLocalize('Open the door', 'en-XA'),
  ])
  // A byte changed without its digest: a miss, and the ids are hashed again.
  writeFileSync(join(dir, name!), readFileSync(join(dir, name!), 'utf8').replace('ZZZZZZZZ', 'YYYYYYYY'))
  expect(await build(root, 'dist-again')).toEqual(cold)
})
