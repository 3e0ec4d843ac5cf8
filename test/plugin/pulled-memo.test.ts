import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { buildRollup } from './bundlers'
import { FRENCH, FRENCH_TEXT, memoFiles, rendered, renderInNode, suiteProject } from './helpers'

/**
 * The catalog memo of a build with network (`<cacheDir>/catalogs/`): a pull that brought what the last
 * one did takes each locale's check and catalog from the memo; a pull that brought a changed
 * translation is checked again, and ships it. Nothing the build outputs may change: after each step the
 * output and warnings are those of a build without any memo.
 */

const project = suiteProject(true)
const catalogsDir = (): string => join(project.current.cacheDir, 'catalogs')

/** Every file of an output directory (the report, html and maps too), by its path inside it. */
function outputOf(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.set(relative(dir, path), readFileSync(path, 'utf8'))
    }
  }
  walk(dir)
  return files
}

/** See {@link memoFiles}. */
const memos = (): Map<string, string> => memoFiles(catalogsDir())

/** A build with network over the memos the last build left, then one without any: the same output and warnings. */
async function sameAsWithoutMemo(out: string): Promise<{ entry: string; warnings: string[] }> {
  const { root, options } = project.current
  const built = await buildRollup(root, options(), join(root, `${out}-memo`))
  const kept = memos()
  rmSync(catalogsDir(), { recursive: true, force: true })
  const fresh = await buildRollup(root, options(), join(root, `${out}-fresh`))
  expect(outputOf(built.outDir)).toEqual(outputOf(fresh.outDir))
  expect(built.warnings).toEqual(fresh.warnings)
  // The memos as the build over them left them, for the next step.
  expect(memos().size).toBe(kept.size)
  return { entry: built.entry!, warnings: built.warnings }
}

test('with network, an unchanged pull is answered by the memos; a changed translation is checked and shipped', async () => {
  const { root, options } = project.current
  rmSync(catalogsDir(), { recursive: true, force: true })
  const first = await buildRollup(root, options(), join(root, 'out-first'))
  const written = memos()
  expect([...written.keys()].sort()).toEqual(
    ['en-US', 'en-XA', 'fr-FR'].map((l) =>
      expect.stringMatching(new RegExp(`^${l}\\.published\\.[0-9a-f]{12}\\.memo$`)),
    ),
  )
  const second = await buildRollup(root, options(), join(root, 'out-second'))
  // Answered: no memo written again, and the same bytes.
  expect(memos()).toEqual(written)
  expect(outputOf(second.outDir)).toEqual(outputOf(first.outDir))
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)

  // A translator changes a translation: the pull brings it, the French memo misses, the output has it.
  await project.current.translate('Open', 'fr-FR', 'Ouvrir tout')
  const changed = await sameAsWithoutMemo('out-changed')
  expect((await renderInNode(changed.entry)).fr).toEqual(
    rendered((s) => (s === 'Open' ? 'Ouvrir tout' : FRENCH[s]!)),
  )

  // A rejected translation: its warning comes again from a build the memo answers.
  await project.current.translate('Hello {name}!', 'fr-FR', 'Bonjour !')
  const rejected = await sameAsWithoutMemo('out-rejected')
  const warning = rejected.warnings.find((w) => w.includes('rejected'))
  expect(warning).toContain('it drops the placeholder {name}')
  const before = memos()
  const again = await buildRollup(root, options(), join(root, 'out-again'))
  expect(memos()).toEqual(before)
  expect(again.warnings).toEqual(rejected.warnings)
  expect((await renderInNode(again.entry!)).fr).toEqual(
    rendered((s) => (s === 'Open' ? 'Ouvrir tout' : s === 'Hello {name}!' ? s : FRENCH[s]!)),
  )
}, 180_000)
