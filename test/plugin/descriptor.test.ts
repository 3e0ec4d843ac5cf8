/**
 * Messages defined outside a render: a module-level `msg(...)` descriptor built by real bundlers and run
 * in Node follows `setLocale` (runtime mode, `sourceCatalog`, each copy of an inline build), while a
 * module-level `t(...)` stays in the source locale and the build warns of it, with its position.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildRolldown, buildRollup, buildWebpack } from './bundlers'
import { type Project, setupProject } from './helpers'

const APP = fileURLToPath(new URL('../fixtures/plugin/descriptor-app', import.meta.url))
const FRENCH: Record<string, string> = {
  Red: 'Rouge',
  'Hello {name}!': 'Bonjour {name} !',
  'Bye {0}': 'Au revoir {0}',
  Blue: 'Bleu',
}
const SOURCE = ['Red', 'Red', 'Hello Ada!', 'Bye Ada', 'Blue']
/** The frozen `t('Blue')` stays as the module loaded it: in the source locale. */
const SWITCHED = ['Rouge', 'Rouge', 'Bonjour Ada !', 'Au revoir Ada', 'Blue']
const WARNING =
  't(...) runs once, when the module is evaluated, so its text stays in the locale of that moment and no setLocale changes it; define the message with msg() from unplugin-tms/runtime (same arguments) and call it where it is rendered (docs/messages.md, "Messages defined outside a render")'

let project: Project
beforeAll(async () => {
  project = await setupProject(FRENCH, APP)
}, 60_000)
afterAll(async () => {
  await project?.close()
})

/**
 * `render()` of the built app before and after `setLocale('fr-FR')`, in a Node process of its own;
 * `first`: a locale set before the first render.
 */
async function renderBeforeAndAfter(
  entry: string,
  first?: string,
): Promise<{ before: string[]; after: string[] }> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    ${first ? `await app.setLocale(${JSON.stringify(first)})` : ''}
    const before = app.render()
    await app.setLocale('fr-FR')
    process.stdout.write(JSON.stringify({ before, after: app.render() }))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    timeout: 20_000,
  })
  return JSON.parse(stdout)
}

describe('a module-level descriptor in a real build', () => {
  test('rollup, texts at the call sites: the descriptor follows setLocale, the module-level t() does not and is warned of', async () => {
    const built = await buildRollup(project.root, project.options({ sourceCatalog: false }))
    expect(await renderBeforeAndAfter(built.entry!)).toEqual({ before: SOURCE, after: SWITCHED })
    const file = relative(process.cwd(), join(project.root, 'src/colors.js'))
    // Rollup prints the column 0-based.
    expect(built.warnings).toEqual([`[plugin unplugin-tms] ${file} (9:22): ${WARNING}`])
  })

  test('rolldown by default (the source catalog): the descriptor holds only the id and follows setLocale; the module-level t() keeps its id', async () => {
    const built = await buildRolldown(project.root, project.options())
    const { before, after } = await renderBeforeAndAfter(built.entry!, 'en-US')
    // Evaluated before any catalog was loaded, `t('Blue')` holds its id for good.
    expect(before.slice(0, 4)).toEqual(SOURCE.slice(0, 4))
    expect(after.slice(0, 4)).toEqual(SWITCHED.slice(0, 4))
    expect(before[4]).toMatch(/^[\w-]{6}$/)
    expect(after[4]).toBe(before[4])
    expect(built.warnings).toHaveLength(1)
  })

  test('webpack: the warning carries the file, line, column and code frame', async () => {
    const built = await buildWebpack(project.root, project.options({ sourceCatalog: false }))
    expect(await renderBeforeAndAfter(built.entry!)).toEqual({ before: SOURCE, after: SWITCHED })
    expect(built.warnings).toHaveLength(1)
    // webpack puts its own line first (`Module Warning (from <the loader>):`).
    expect(built.warnings[0]!.split('\n').slice(1)).toEqual([
      `[unplugin-tms] src/colors.js:9:23: ${WARNING}`,
      '  7 | ',
      '  8 | // Evaluated once, as the module loads: the build warns, and it stays in the source locale.',
      "> 9 | export const frozen = t('Blue')",
      '    |                       ^',
    ])
  })

  test('rollup, inline mode: each copy holds its own text, and no warning (each copy is one locale)', async () => {
    const built = await buildRollup(project.root, project.options({ mode: 'inline' }))
    const french = join(built.outDir, 'fr-FR', 'main.js')
    expect(existsSync(french)).toBe(true)
    const script = `
      const app = await import(${JSON.stringify(pathToFileURL(french).href)})
      process.stdout.write(JSON.stringify(app.render()))
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
    expect(JSON.parse(stdout)).toEqual(['Rouge', 'Rouge', 'Bonjour Ada !', 'Au revoir Ada', 'Bleu'])
    expect(built.warnings).toEqual([])
  })
})
