import { existsSync, readFileSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Options } from '../../src/options'
import tmsRollup from '../../src/rollup'
import { type Built, buildRolldown, buildRollup, buildVite, outputFiles, quietRollupInfo } from './bundlers'
import { FRENCH, fillCache, type Project, setupProject } from './helpers'

/**
 * Rollup, rolldown and vite write a catalog's own chunk as a file of bytes in generateBundle: the
 * chunk's code with its marker filled by `JSON.parse('…')` of the catalog memo's bytes (quotes and
 * backslashes escaped on the bytes), its name following its catalog. An output with source maps is
 * filled in renderChunk, as before.
 */

// A quote and a backslash: the two bytes the fill escapes.
const OPEN = "Ouvrir l'onglet \\ « Dossiers »"

let project: Project

beforeAll(async () => {
  project = await setupProject({ ...FRENCH, Open: OPEN })
  await fillCache(project)
}, 60_000)

afterAll(async () => {
  await project?.close()
})

async function buildRollupWithoutMaps(root: string, options: Options): Promise<Built> {
  const outDir = join(root, 'dist-rollup-nomap')
  rmSync(outDir, { recursive: true, force: true })
  const bundle = await rollup({
    input: join(root, 'src/main.js'),
    plugins: [tmsRollup(options)],
    ...quietRollupInfo,
  })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
  return { outDir, entry: join(outDir, 'main.js'), warnings: [] }
}

const BUILDS = {
  rollup: buildRollupWithoutMaps,
  rolldown: buildRolldown,
  vite: buildVite,
}

/** JSON text as the body of a single-quoted string. */
function quoted(json: string): string {
  return json.replaceAll('\\', '\\\\').replaceAll("'", "\\'")
}

/** The file of a locale's catalog: its path and text. */
function catalogFile(built: Built, locale: string): [string, string] {
  const files = [...outputFiles(built.outDir)].filter(([file]) => basename(file).startsWith(`tms-${locale}`))
  expect(files).toHaveLength(1)
  return files[0]!
}

describe.each(Object.entries(BUILDS))('%s', (_name, build) => {
  test("the catalog's file holds JSON.parse of its literal, escaped, and reads back every translation", async () => {
    const built = await build(project.root, project.options({ cache: 'offline' }))
    expect(built.warnings).toEqual([])
    const [file, text] = catalogFile(built, 'fr-FR')
    const catalog = (await import(pathToFileURL(file).href)).default as Record<string, string>
    expect(Object.values(catalog).sort()).toEqual(
      [
        'Bienvenue dans la boutique',
        'Bonjour {name} !',
        'Vous avez {count} articles dans votre panier',
        OPEN,
      ].sort(),
    )
    expect(text).toContain(`JSON.parse('${quoted(JSON.stringify(catalog))}')`)
    expect(text).not.toContain('__TMS_CATALOG__')
  })

  test("the file's name follows its catalog; the same catalog gives the same file", async () => {
    const names = async (): Promise<[string, string]> => {
      const built = await build(project.root, project.options())
      const [file, text] = catalogFile(built, 'fr-FR')
      const importers = [...outputFiles(built.outDir).values()].filter((code) =>
        code.includes(basename(file)),
      )
      expect(importers).toHaveLength(1)
      return [basename(file), text]
    }
    const [first, firstText] = await names()
    expect(await names()).toEqual([first, firstText])
    await project.translate('Open', 'fr-FR', `${OPEN} !`)
    try {
      const [changed, changedText] = await names()
      expect(changed).not.toBe(first)
      expect(changedText).toContain(quoted(JSON.stringify(`${OPEN} !`)))
    } finally {
      await project.translate('Open', 'fr-FR', OPEN)
      await fillCache(project)
    }
  })
})

test('an output with source maps has its catalog filled in renderChunk, with a map', async () => {
  const built = await buildRollup(project.root, project.options({ cache: 'offline' }))
  const [file, text] = catalogFile(built, 'fr-FR')
  expect(text).toContain(`JSON.parse('{`)
  expect(text).toContain(`//# sourceMappingURL=${basename(file)}.map`)
  expect(existsSync(`${file}.map`)).toBe(true)
  expect(JSON.parse(readFileSync(`${file}.map`, 'utf8')).file).toBe(basename(file))
})
