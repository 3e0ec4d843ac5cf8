import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { expect, test } from 'vitest'
import { rollupLikeHooks } from '../../src/plugin/rollup-like'
import { TmsSession } from '../../src/plugin/session'
import tmsRollup from '../../src/rollup'
import { FRENCH_TEXT, renderInNode, suiteProject } from './helpers'

/**
 * A finished build lets go of what its start made (messages, catalogs, lookups): rolldown, and vite
 * through it, keep every finished build's plugin contexts, so a process that builds many times would
 * keep all of it. The next build start makes it again.
 */

const suite = suiteProject(true)

/** The slice of rollup's plugin context the build start uses. */
const context = {
  warn() {},
  error(log: unknown): never {
    throw log
  },
  info() {},
  addWatchFile() {},
  emitFile: () => '',
  getModuleIds: () => [][Symbol.iterator](),
  meta: {},
}

test('the session is released when the last open build closes, and made again by the next start', async () => {
  const session = new TmsSession(suite.current.options({ cache: 'offline' }))
  const hooks = rollupLikeHooks(session, { command: 'build' })
  // A build's start, its sync (push, pull), which buildEnd and the catalogs wait for, and a catalog
  // of every id, which looks up the ids of every file.
  const start = async (): Promise<void> => {
    await (hooks.buildStart as (this: unknown) => Promise<void>).call(context)
    await session.synced()
    expect(session.build.catalogFor('fr-FR').size).toBeGreaterThan(0)
  }
  // What the open build holds; a closed one holds nothing, and asking for it says so.
  const held = (): number[] => [
    session.build.messages.size,
    session.build.idSources.size,
    session.build.fileIds.size,
  ]

  await start()
  const full = held()
  expect(full[0]).toBe(5)
  expect(full[1]).toBeGreaterThan(0)
  expect(session.build.catalogFor('fr-FR').size).toBeGreaterThan(0)
  // Two builds open at once (two outputs or environments of one plugin): the first close keeps all.
  await start()
  hooks.closeBundle()
  expect(held()).toEqual(full)
  hooks.closeBundle()
  expect(() => session.build).toThrow('no build has started')
  expect(session.openBuild).toBeUndefined()
  // A stray close (no build open) changes nothing, and the next start makes everything again.
  hooks.closeBundle()
  await start()
  expect(held()).toEqual(full)
  expect(session.build.catalogFor('fr-FR').size).toBeGreaterThan(0)
})

test('one plugin instance builds again after a closed build, with the same output', async () => {
  const plugin = tmsRollup(suite.current.options({ cache: 'offline' }))
  const outputs: string[] = []
  for (const run of [1, 2]) {
    const outDir = join(suite.current.root, `dist-release-${run}`)
    const bundle = await rollup({
      input: join(suite.current.root, 'src/main.js'),
      plugins: [plugin],
      onLog() {},
    })
    await bundle.write({ dir: outDir, format: 'es' })
    await bundle.close()
    outputs.push(readFileSync(join(outDir, 'main.js'), 'utf8'))
    expect((await renderInNode(join(outDir, 'main.js'))).fr).toEqual(FRENCH_TEXT)
  }
  expect(outputs[1]).toBe(outputs[0])
})
