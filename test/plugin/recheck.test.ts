import { writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { resolveOptions } from '../../src/options'
import { planOf, rebuildPlan } from '../../src/plugin/cache-changes'
import { TmsSession } from '../../src/plugin/session'
import { PROJECT, suiteProject } from './helpers'

/**
 * A dev server's refresh after a `tms pull` that changed only target locales' cache files: those
 * locales are checked again for the current build (`TmsSession.recheck`), which must give what a new
 * build start on the same cache gives: the same catalogs, report and warnings.
 */

const project = suiteProject(true)

test('a pull of one locale, rechecked, gives the catalogs, report and warnings of a new start', async () => {
  const { root, cacheDir, hashcodes } = project.current
  const options = project.current.options({ cache: 'offline', pseudo: true })
  const session = new TmsSession(options)
  session.configure({ root })
  await session.startAndSync('serve')
  const untouched = session.build.catalogLiteralFor('en-XA')
  // What a page in French imported before the pull.
  const before = session.build.catalogLiteralFor('fr-FR')
  session.build.catalogFor('fr-FR')

  const cache = new DiskCache(cacheDir, PROJECT)
  const read = await cache.readLocale('fr-FR', 'published')
  if (!read.hit) throw new Error('no French in the cache')
  const welcome = hashcodes.get('Welcome to the shop')!
  const hello = hashcodes.get('Hello {name}!')!
  await cache.writeLocale('fr-FR', 'published', {
    ...read.value.translations,
    [welcome]: 'Bienvenue dans la nouvelle boutique',
    // Drops its placeholder: refused, the source text shows.
    [hello]: 'Bonjour !',
  })
  const outcome = await session.recheck(['fr-FR'])
  // The catalogs learn which ids the pull changed: theirs are made again, the others kept.
  const idsOf = (...texts: string[]) => {
    const keys = session.build.startMessages.filter((m) => texts.includes(m.text)).map((m) => m.key)
    return new Set([...session.build.ids.sources].filter(([, s]) => keys.includes(s.key)).map(([id]) => id))
  }
  const pulled = idsOf('Welcome to the shop', 'Hello {name}!')
  expect(pulled.size).toBe(2)
  expect(session.build.idsChangedSince('fr-FR', 0)).toEqual(pulled)
  expect(session.build.idsChangedSince('en-XA', 0)).toEqual(new Set())

  const fresh = new TmsSession(options)
  fresh.configure({ root })
  const started = await fresh.startAndSync('serve')
  const literal = session.build.catalogLiteralFor('fr-FR')
  expect(literal).toBe(fresh.build.catalogLiteralFor('fr-FR'))
  expect(literal).not.toBe(before)
  expect(literal).toContain('"Bienvenue dans la nouvelle boutique"')
  expect(literal).not.toContain('Bonjour !')
  expect(session.build.catalogFor('fr-FR')).toEqual(fresh.build.catalogFor('fr-FR'))
  expect(session.build.catalogLiteralFor('en-XA')).toBe(untouched)
  expect(session.build.report).toEqual(fresh.build.report)
  expect(outcome?.problems).toEqual(started.problems)
  expect(outcome?.problems.map((p) => p.message)).toEqual([
    expect.stringContaining(`translation of ${hello} for fr-FR rejected: it drops the placeholder {name}`),
  ])
  fresh.release()

  // A second pull: the recheck keeps the checks of the translations as they were (its memo), and
  // still gives what a new start gives: the refused one corrected, the other changed again.
  await cache.writeLocale('fr-FR', 'published', {
    ...read.value.translations,
    [welcome]: 'Bienvenue encore',
    [hello]: 'Salut {name} !',
  })
  const second = await session.recheck(['fr-FR'])
  expect(session.build.idsChangedSince('fr-FR', 1)).toEqual(pulled)
  expect(session.build.idsChangedSince('fr-FR', 0)).toEqual(pulled)
  expect(session.build.idsChangedSince('fr-FR', 2)).toEqual(new Set())
  const again = new TmsSession(options)
  again.configure({ root })
  const restarted = await again.startAndSync('serve')
  expect(session.build.catalogLiteralFor('fr-FR')).toBe(again.build.catalogLiteralFor('fr-FR'))
  expect(session.build.catalogLiteralFor('fr-FR')).toContain('"Salut {name} !"')
  expect(session.build.catalogFor('fr-FR')).toEqual(again.build.catalogFor('fr-FR'))
  expect(session.build.report).toEqual(again.build.report)
  expect(second?.problems).toEqual(restarted.problems)
  expect(second?.problems).toEqual([])
  session.release()
  again.release()
}, 120_000)

test('a locale whose file no longer reads is not rechecked: the refresh starts anew', async () => {
  const { root, cacheDir } = project.current
  const session = new TmsSession(project.current.options({ cache: 'offline' }))
  session.configure({ root })
  expect(await session.recheck(['fr-FR'])).toBeUndefined()
  await session.startAndSync('serve')
  const cache = new DiskCache(cacheDir, PROJECT)
  const read = await cache.readLocale('fr-FR', 'published')
  if (!read.hit) throw new Error('no French in the cache')
  const file = cache.localeFile('fr-FR', 'published')
  writeFileSync(file, '{ not json')
  try {
    expect(await session.recheck(['fr-FR'])).toBeUndefined()
  } finally {
    await cache.writeLocale('fr-FR', 'published', read.value.translations)
    session.release()
  }
}, 120_000)

test('which cache files a recheck answers: target locales of the retrieval type, not the manifest', () => {
  const options = resolveOptions(
    { locales: ['fr-FR', 'de-DE'], root: '/app', cache: 'offline' },
    { command: 'serve', env: {} },
  )
  expect(planOf(['locales/fr-FR.published.json'], options)).toEqual(['fr-FR'])
  expect(
    planOf(
      ['locales/de-DE.published.json', 'locales/fr-FR.published.json', 'locales/de-DE.published.json'],
      options,
    ),
  ).toEqual(['de-DE', 'fr-FR'])
  // Another retrieval type's file, a locale the app does not build: nothing to make again.
  expect(planOf(['locales/fr-FR.pending.json', 'locales/it-IT.published.json'], options)).toBe('keep')
  // The manifest holds the messages' records (a push, a first pull): a new start.
  expect(planOf(['locales/fr-FR.published.json', 'manifest.json'], options)).toBe('start')
})

test("what a webpack or rspack watch's rebuild redoes, from the files its compiler says changed", () => {
  const options = resolveOptions(
    { locales: ['fr-FR', 'de-DE'], root: '/app', cache: 'offline' },
    { command: 'serve', env: {} },
  )
  const cache = (file: string): string => `/app/.tms-cache/${file}`
  // Source files, and cache files the plugin does not read: the build is kept.
  expect(rebuildPlan(['/app/src/a.js', '/app/src'], options)).toBe('keep')
  expect(rebuildPlan([cache('locales/fr-FR.pending.json'), cache('extract/extract.v1.cache')], options)).toBe(
    'keep',
  )
  // A pull: its locales are checked again, whatever else changed.
  expect(rebuildPlan([cache('locales/de-DE.published.json'), '/app/src/a.js'], options)).toEqual(['de-DE'])
  // New strings recorded: a new build start.
  expect(rebuildPlan([cache('manifest.json'), cache('locales/fr-FR.published.json')], options)).toBe('start')
})
