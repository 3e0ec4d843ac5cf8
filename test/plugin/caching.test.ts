import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildRollup, buildWebpack } from './bundlers'
import { FRENCH_TEXT, type Project, renderInNode, setupProject } from './helpers'

/**
 * The bundler's own caches never serve a translation older than the last pull: webpack's filesystem
 * cache keeps module builds across runs, so the catalog must not be one of them.
 */

let project: Project

beforeAll(async () => {
  project = await setupProject()
}, 60_000)

afterAll(async () => {
  await project?.close()
})

test('webpack filesystem cache: a translation published between two builds is in the second', async () => {
  const cacheDirectory = join(project.root, '.webpack-cache')
  const first = await buildWebpack(project.root, project.options(), 'production', cacheDirectory)
  expect((await renderInNode(first.entry!)).fr).toEqual(FRENCH_TEXT)
  // The second build starts from a filled cache.
  expect(readdirSync(cacheDirectory).length).toBeGreaterThan(0)

  await project.translate('Welcome to the shop', 'fr-FR', 'Bienvenue dans la boutique rénovée')
  const second = await buildWebpack(project.root, project.options(), 'production', cacheDirectory)
  expect((await renderInNode(second.entry!)).fr).toEqual([
    'Bienvenue dans la boutique rénovée',
    ...FRENCH_TEXT.slice(1),
  ])
})

test('an offline build serves the last pull from the disk cache', async () => {
  await project.translate('Open', 'fr-FR', 'Ouvrir maintenant')
  await buildRollup(project.root, project.options())
  // No network at all now: the cache holds the last pull.
  const offline = await buildRollup(
    project.root,
    project.options({ cache: 'offline' }),
    join(project.root, 'dist-offline'),
  )
  expect(offline.warnings).toEqual([])
  expect((await renderInNode(offline.entry!)).fr[3]).toBe('Ouvrir maintenant')
})
