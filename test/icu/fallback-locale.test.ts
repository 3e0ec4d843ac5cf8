import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { rollup } from 'rollup'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Options } from '../../src/options'
import tmsRollup from '../../src/rollup'
import { type IcuProject, setupIcuProject } from './project'

/**
 * A message without a usable translation shows its source text, formatted with the source locale's
 * plural rules: in ko-KR (whose only cardinal category is `other`) an English source must still say
 * "1 file", in runtime mode (the call site's text), with `sourceCatalog` (the catalog's stand-in) and in
 * each inline copy.
 */

const SOURCE = 'You have {count, plural, one {# file} other {# files}}'
const TRANSLATED = '{count, plural, other {# fichiers}} pour {who}'
const SOURCE_2 = '{count, plural, one {# fichier} other {# fichiers}} pour {who}'
const COUNTS = [1, 2]

let project: IcuProject

beforeAll(async () => {
  // ko-KR has no translation of SOURCE; fr-FR has one of SOURCE_2 (which keeps fr-FR's rules).
  project = await setupIcuProject(
    [SOURCE, SOURCE_2],
    (text, locale) => (locale === 'fr-FR' && text === SOURCE_2 ? TRANSLATED : undefined),
    ['ko-KR', 'fr-FR'],
  )
}, 60_000)

afterAll(() => project?.close())

async function build(options: Options, outDir: string): Promise<void> {
  const bundle = await rollup({ input: join(options.root!, 'src/main.js'), plugins: [tmsRollup(options)] })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
}

type App = {
  messages: ((v: object) => string)[]
  setLocale(locale: string): Promise<void>
}

const load = async (file: string): Promise<App> => import(pathToFileURL(file).href)
const format = (app: App, i: number): string[] =>
  COUNTS.map((count) => app.messages[i]!({ count, who: 'Ada' }))

test('runtime mode: the call site text formats in en-US while the page is in ko-KR', async () => {
  const out = join(project.root, 'dist-runtime')
  await build(project.options(), out)
  const app = await load(join(out, 'main.js'))
  await app.setLocale('ko-KR')
  expect(format(app, 0)).toEqual(['You have 1 file', 'You have 2 files'])
  await app.setLocale('fr-FR')
  expect(format(app, 1)).toEqual(['1 fichiers pour Ada', '2 fichiers pour Ada'])
}, 60_000)

test("sourceCatalog: the catalog's stand-in source message keeps en-US rules in ko-KR", async () => {
  const out = join(project.root, 'dist-source-catalog')
  await build(project.options({ sourceCatalog: true }), out)
  const app = await load(join(out, 'main.js'))
  await app.setLocale('ko-KR')
  expect(format(app, 0)).toEqual(['You have 1 file', 'You have 2 files'])
}, 60_000)

test('inline mode: the ko-KR copy formats the source text with en-US rules', async () => {
  const out = join(project.root, 'dist-inline')
  await build(project.options({ mode: 'inline' }), out)
  expect(format(await load(join(out, 'ko-KR', 'main.js')), 0)).toEqual([
    'You have 1 file',
    'You have 2 files',
  ])
  expect(format(await load(join(out, 'fr-FR', 'main.js')), 1)).toEqual([
    '1 fichiers pour Ada',
    '2 fichiers pour Ada',
  ])
}, 60_000)
