import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test, vi } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { clearExtractionMemory } from '../../src/core/extract/index'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import type { Options } from '../../src/options'
import { ModuleUsage } from '../../src/plugin/module-usage'
import { TmsSession } from '../../src/plugin/session'
import { type Built, buildEsbuild, buildRollup, buildRspack, buildVite, buildWebpack } from './bundlers'
import { FRENCH_TEXT, memoFiles, PROJECT, renderInNode, suiteProject } from './helpers'

/**
 * The catalog memo (`<cacheDir>/catalogs/`): a production build with no network whose inputs are the
 * last build's takes each locale's catalog and sync outcome from it. Nothing the build outputs may
 * change: a build that the memo answers writes the same files as the build that wrote it, and after
 * each change of an input the output is the one a build without any memo makes.
 */

const project = suiteProject(true)
const offline = (extra: Options = {}): Options => project.current.options({ cache: 'offline', ...extra })
const catalogsDir = (): string => join(project.current.cacheDir, 'catalogs')

/** Every file of an output directory (the report, html and maps too), by its path inside it. */
function outputOf(built: Built): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.set(relative(built.outDir, path), readFileSync(path, 'utf8'))
    }
  }
  walk(built.outDir)
  return files
}

/** See {@link memoFiles}. */
const memos = (): Map<string, string> => memoFiles(catalogsDir())

/**
 * A rollup build over the memos the last build left, then one without any memo: the same output and
 * warnings. Returns the first, and whether the memos answered it (none was written again).
 */
async function sameAsWithoutMemo(options: Options): Promise<{ built: Built; answered: boolean }> {
  const before = existsSync(catalogsDir()) ? memos() : new Map()
  const built = await buildRollup(project.current.root, options, join(project.current.root, 'out-memo'))
  const after = memos()
  const answered = after.size > 0 && [...after].every(([name, ino]) => before.get(name) === ino)
  rmSync(catalogsDir(), { recursive: true, force: true })
  const fresh = await buildRollup(project.current.root, options, join(project.current.root, 'out-fresh'))
  expect(outputOf(built)).toEqual(outputOf(fresh))
  expect(built.warnings).toEqual(fresh.warnings)
  return { built, answered }
}

function edit(file: string, change: (text: string) => string): void {
  const path = join(project.current.root, 'src', file)
  writeFileSync(path, change(readFileSync(path, 'utf8')))
}

/**
 * A first build writes the memos (and the texts files of `kept` locales), a second is answered by
 * them: both outputs byte for byte equal.
 */
async function secondBuildFromMemo(
  build: (outDir: string) => Promise<Built>,
  locales = ['en-US', 'en-XA', 'fr-FR'],
  kept: string[] = [],
): Promise<Built> {
  rmSync(catalogsDir(), { recursive: true, force: true })
  const first = await build('out-first')
  const written = memos()
  const named = (l: string, end: string) =>
    expect.stringMatching(new RegExp(`^${l}\\.published\\.[0-9a-f]{12}\\.${end}$`))
  expect([...written.keys()].sort()).toEqual(
    locales.flatMap((l) => [named(l, 'memo'), ...(kept.includes(l) ? [named(l, 'memo\\.texts')] : [])]),
  )
  const second = await build('out-second')
  expect(memos()).toEqual(written)
  // The report (coverage per locale) is among the files compared.
  expect(outputOf(second).has('tms-report.json')).toBe(true)
  expect(outputOf(second)).toEqual(outputOf(first))
  expect(second.warnings).toEqual(first.warnings)
  for (const name of written.keys()) {
    expect(readFileSync(join(catalogsDir(), name), 'utf8')).not.toContain('demo-secret')
  }
  return second
}

test("a build the memos answer reads no message: the extraction cache's line of them is not parsed", async () => {
  const { root, cacheDir } = project.current
  rmSync(catalogsDir(), { recursive: true, force: true })
  const first = await buildRollup(root, offline(), join(root, 'out-first'))
  // As a new process: nothing of the first build's extraction in memory.
  clearExtractionMemory()
  const line = readFileSync(join(cacheDir, 'extract', 'extract.v1.cache'), 'utf8').split('\n')[2]!
  const parse = vi.spyOn(JSON, 'parse')
  try {
    const second = await buildRollup(root, offline(), join(root, 'out-second'))
    expect(parse.mock.calls.some(([text]) => text === line)).toBe(false)
    expect(outputOf(second)).toEqual(outputOf(first))
  } finally {
    parse.mockRestore()
  }
})

test("a build of the last build's modules finds its literals by their modules' key, reading no module's ids", async () => {
  const { root } = project.current
  rmSync(catalogsDir(), { recursive: true, force: true })
  const first = await buildRollup(root, offline(), join(root, 'out-first'))
  const read = vi.spyOn(ModuleUsage.prototype, 'usedIds')
  try {
    const second = await buildRollup(root, offline(), join(root, 'out-second'))
    expect(read).not.toHaveBeenCalled()
    expect(outputOf(second)).toEqual(outputOf(first))
    // A module changed since: its ids are read, and the output is a build's without memos.
    edit('greet.js', (text) => `${text}\n// changed\n`)
    await sameAsWithoutMemo(offline())
    expect(read).toHaveBeenCalled()
  } finally {
    read.mockRestore()
  }
}, 120_000)

test('rollup: the second offline build is answered by the memos, its output the same bytes', async () => {
  const root = project.current.root
  const second = await secondBuildFromMemo((out) => buildRollup(root, offline(), join(root, out)))
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)
}, 120_000)

test("esbuild: the catalogs of every id and of the bundle's ids are both answered by the memos", async () => {
  const root = project.current.root
  const second = await secondBuildFromMemo(async (out) => {
    const built = await buildEsbuild(root, offline())
    rmSync(join(root, out), { recursive: true, force: true })
    renameSync(built.outDir, join(root, out))
    return { ...built, outDir: join(root, out), entry: join(root, out, 'main.js') }
  })
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)
}, 120_000)

test("sourceCatalog: false: the target locales' catalogs are answered by their memos, the source locale has none", async () => {
  const root = project.current.root
  const options = offline({ sourceCatalog: false })
  const second = await secondBuildFromMemo(
    (out) => buildRollup(root, options, join(root, out)),
    ['en-XA', 'fr-FR'],
  )
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)
}, 120_000)

test("an app built in runtime mode, with and without sourceCatalog and in inline mode by turns keeps each one's memo: none is written again", async () => {
  const root = project.current.root
  rmSync(catalogsDir(), { recursive: true, force: true })
  const builds = [offline(), offline({ sourceCatalog: false }), offline({ mode: 'inline' })]
  for (const [i, options] of builds.entries()) await buildRollup(root, options, join(root, `out-turn-${i}`))
  const written = memos()
  for (const [i, options] of builds.entries()) {
    await buildRollup(root, options, join(root, `out-again-${i}`))
    expect(memos()).toEqual(written)
  }
}, 120_000)

test('vite: the second offline build is answered by the memos, its output the same bytes', async () => {
  const root = project.current.root
  await secondBuildFromMemo(async (out) => {
    const built = await buildVite(root, offline())
    // buildVite writes to one directory: each build's output is kept under its own name.
    rmSync(join(root, out), { recursive: true, force: true })
    renameSync(built.outDir, join(root, out))
    return { ...built, outDir: join(root, out) }
  })
}, 120_000)

test('webpack: the second offline build is answered by the memos, its output the same bytes', async () => {
  const root = project.current.root
  const second = await secondBuildFromMemo(async (out) => {
    const built = await buildWebpack(root, offline())
    rmSync(join(root, out), { recursive: true, force: true })
    renameSync(built.outDir, join(root, out))
    return { ...built, outDir: join(root, out), entry: join(root, out, 'main.mjs') }
  })
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)
}, 120_000)

test('rspack: the second offline build is answered by the memos, its output the same bytes', async () => {
  const root = project.current.root
  const second = await secondBuildFromMemo(async (out) => {
    const built = await buildRspack(root, offline())
    rmSync(join(root, out), { recursive: true, force: true })
    renameSync(built.outDir, join(root, out))
    return { ...built, outDir: join(root, out), entry: join(root, out, 'main.mjs') }
  })
  expect((await renderInNode(second.entry!)).fr).toEqual(FRENCH_TEXT)
}, 120_000)

test('a garbled or cut memo is a miss, never an error, and is written again', async () => {
  await buildRollup(project.current.root, offline(), join(project.current.root, 'out-memo'))
  for (const name of memos().keys()) {
    const file = join(catalogsDir(), name)
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, name.startsWith('fr') ? text.slice(0, -5) : `{"schema":1,${text}`)
  }
  const { built, answered } = await sameAsWithoutMemo(offline())
  expect(answered).toBe(false)
  expect(built.warnings).toEqual([])
  expect((await renderInNode(built.entry!)).fr).toEqual(FRENCH_TEXT)
  // Written again whole: the next build is answered.
  expect((await sameAsWithoutMemo(offline())).answered).toBe(true)
}, 120_000)

test('each changed input gives the output of a build without memo', async () => {
  const { root, cacheDir, hashcodes } = project.current
  await sameAsWithoutMemo(offline())

  // A translation edited in the cache (a `tms pull` elsewhere).
  const cache = new DiskCache(cacheDir, PROJECT)
  const read = await cache.readLocale('fr-FR', 'published')
  if (!read.hit) throw new Error('no French in the cache')
  const open = hashcodes.get('Open')!
  await cache.writeLocale('fr-FR', 'published', { ...read.value.translations, [open]: 'Ouvrir tout' })
  let step = await sameAsWithoutMemo(offline())
  expect(step.answered).toBe(false)
  expect((await renderInNode(step.built.entry!)).fr).toEqual([...FRENCH_TEXT.slice(0, 3), 'Ouvrir tout'])

  // Other modules in the bundle: the message of unused.js ships now.
  edit('main.js', (text) =>
    text
      .replace("import { greeting, welcome } from './greet.js'", "$&\nimport { orphan } from './unused.js'")
      .replace('openLabel()]', 'openLabel(), orphan()]'),
  )
  step = await sameAsWithoutMemo(offline())
  expect(step.answered).toBe(false)
  expect((await renderInNode(step.built.entry!)).fr[4]).toBe('Ce texte ne part jamais')

  // A message added: offline it has no translation, but its pseudo-translation ships.
  edit('greet.js', (text) => `${text}\nexport const bye = () => t('Goodbye for now')\n`)
  edit('main.js', (text) =>
    text
      .replace('{ greeting, welcome }', '{ bye, greeting, welcome }')
      .replace('orphan()]', 'orphan(), bye()]'),
  )
  step = await sameAsWithoutMemo(offline())
  expect(step.answered).toBe(false)
  const added = await renderInNode(step.built.entry!)
  expect(added.fr[5]).toBe('Goodbye for now')
  expect(added.pseudo[5]).toBe(pseudoLocalize('Goodbye for now', 'en-XA'))

  // Another pseudo-locale: its catalog is made, en-XA's memo still answers for en-XA.
  step = await sameAsWithoutMemo(offline({ pseudo: ['en-XA', 'ar-XB'] }))
  expect(readdirSync(catalogsDir()).some((name) => name.startsWith('ar-XB.published.'))).toBe(true)
  // Nothing changed since: answered, the manifest not even parsed, and (`push` asked of an offline
  // build) the warning about the message it has no record of given again.
  const unchanged = await sameAsWithoutMemo(offline({ pseudo: ['en-XA', 'ar-XB'], push: true }))
  expect(unchanged.answered).toBe(true)
  expect(unchanged.built.warnings).toEqual([expect.stringContaining('1 new message not pushed')])

  // A frozen cache fails on that message, whether the memos answer or not.
  const frozen = offline({ cache: 'frozen', pseudo: ['en-XA', 'ar-XB'] })
  const failure = (out: string) =>
    buildRollup(root, frozen, join(root, out)).then(
      () => 'built',
      (error: Error) => error.message,
    )
  const answered = await failure('out-frozen')
  rmSync(catalogsDir(), { recursive: true, force: true })
  expect(answered).toBe(await failure('out-frozen-fresh'))
  expect(answered).toContain(`cache: 'frozen' and the message "Goodbye for now" (src/greet.js:`)
}, 240_000)

test('a rejected translation is reported by every build, at its message’s place of that build', async () => {
  const { cacheDir, hashcodes } = project.current
  const cache = new DiskCache(cacheDir, PROJECT)
  const read = await cache.readLocale('fr-FR', 'published')
  if (!read.hit) throw new Error('no French in the cache')
  const hello = hashcodes.get('Hello {name}!')!
  await cache.writeLocale('fr-FR', 'published', { ...read.value.translations, [hello]: 'Bonjour !' })
  const rejected = (line: number) =>
    `translation of ${hello} for fr-FR rejected: it drops the placeholder {name}; the source text "Hello {name}!" (src/greet.js:${line}:35) is used`
  const first = await sameAsWithoutMemo(offline())
  expect(first.built.warnings).toEqual([expect.stringContaining(rejected(5))])
  // The message moves a line down: the memo's key holds no location, the warning names the new one.
  edit('greet.js', (text) => `// moved\n${text}`)
  const moved = await sameAsWithoutMemo(offline())
  expect(moved.answered).toBe(true)
  expect(moved.built.warnings).toEqual([expect.stringContaining(rejected(6))])
}, 120_000)

test('rollup, inline mode: the second build takes the checked translations from the memo, its copies the same bytes', async () => {
  const root = project.current.root
  // Every copy keeps its texts in its locale's memo, the source locale's and a pseudo-locale's too;
  // only the checked translations of a target locale have a texts file.
  const second = await secondBuildFromMemo(
    (out) => buildRollup(root, offline({ mode: 'inline' }), join(root, out)),
    ['en-US', 'en-XA', 'fr-FR'],
    ['fr-FR'],
  )
  const fr = readFileSync(join(second.outDir, 'fr-FR', 'main.js'), 'utf8')
  for (const text of ['Bienvenue dans la boutique', 'Ouvrir']) expect(fr).toContain(text)
  // The copies take their texts from the memos: French's kept translations are not decoded.
  const textsFile = [...memos().keys()].find((name) => name.endsWith('.memo.texts'))!
  const kept = readFileSync(join(catalogsDir(), textsFile), 'utf8').split('\n').slice(2).join('\n')
  const parse = vi.spyOn(JSON, 'parse')
  try {
    const third = await buildRollup(root, offline({ mode: 'inline' }), join(root, 'out-third'))
    expect(parse.mock.calls.some(([text]) => text === kept)).toBe(false)
    expect(outputOf(third)).toEqual(outputOf(second))
  } finally {
    parse.mockRestore()
  }
}, 120_000)

test("a dev server's memos: written once its changes pause, its next start answered by them, a pulled locale never served from one", async () => {
  rmSync(catalogsDir(), { recursive: true, force: true })
  const { root, cacheDir, hashcodes } = project.current
  const serve = async (): Promise<TmsSession> => {
    const session = new TmsSession(offline())
    session.configure({ root, devServer: true })
    await session.startAndSync('serve')
    return session
  }
  const first = await serve()
  const literal = first.build.catalogLiteralFor('fr-FR')
  expect(literal).toContain('"Bienvenue dans la boutique"')
  // The server never closes (Ctrl-C): its memos are on disk once its changes pause.
  const fr = /^fr-FR\.published\.[0-9a-f]{12}\.memo$/
  await expect
    .poll(() => existsSync(catalogsDir()) && [...memos().keys()].some((n) => fr.test(n)), {
      timeout: 20_000,
    })
    .toBe(true)
  const written = memos()

  // The next start reads no translation of French: the memo answers its check and its literal.
  const second = await serve()
  expect(second.build.sync?.translations.has('fr-FR')).toBe(false)
  expect(second.build.catalogLiteralFor('fr-FR')).toBe(literal)
  expect(second.build.sync?.translations.has('fr-FR')).toBe(false)

  // A `tms pull` while it runs: French checked again, its literal made of the new file.
  const cache = new DiskCache(cacheDir, PROJECT)
  const read = await cache.readLocale('fr-FR', 'published')
  if (!read.hit) throw new Error('no French in the cache')
  const welcome = hashcodes.get('Welcome to the shop')!
  await cache.writeLocale('fr-FR', 'published', {
    ...read.value.translations,
    [welcome]: 'Bienvenue dans la nouvelle boutique',
  })
  await second.recheck(['fr-FR'])
  const pulled = second.build.catalogLiteralFor('fr-FR')
  expect(pulled).toContain('"Bienvenue dans la nouvelle boutique"')
  // A build with the dev server's catalogs: the texts at the call sites, no source catalog.
  const fresh = new TmsSession(offline({ sourceCatalog: false }))
  fresh.configure({ root })
  await fresh.startAndSync('build')
  expect(pulled).toBe(fresh.build.catalogLiteralFor('fr-FR'))
  fresh.release()
  // What it forgot is not written: the memo of the old file stays as the first server wrote it.
  await new Promise((wake) => setTimeout(wake, 1500))
  second.release()
  first.release()
  expect(memos()).toEqual(written)
  await cache.writeLocale('fr-FR', 'published', read.value.translations)
}, 120_000)
