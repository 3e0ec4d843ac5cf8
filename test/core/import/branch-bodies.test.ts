import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ImportInput, runImport } from '../../../src/core/import/run'
import { type Options, resolveOptions } from '../../../src/options'
import { connectImport } from '../../../src/service'
import { useEmulator } from '../../helpers/emulator'
import { control, PROJECT } from '../../helpers/sync'

/**
 * `tms import` of catalogs holding a select and a plural with one-word branch bodies (react-intl's
 * `{gender, select, male {He} ...}`), against the emulator over HTTP through the files API: the
 * strings are created and uploaded with the messages' own placeholder spec, so the service takes the
 * translations instead of refusing them for lacking `{He}`, `{She}`, `{They}`.
 */

const emu = useEmulator()
const SELECT = '{gender, select, male {He} female {She} other {They}} should get reading!'
const PLURAL = '{count, plural, one {file} other {files}}'
const HELLO = 'Hello, {name}!'
/** One-word bodies beside a real placeholder: uploaded in a file whose regex is `\{name\}`. */
const INVITED = '{gender, select, male {He} other {They}} invited {name}'
const FRENCH = {
  [SELECT]: '{gender, select, male {Il} female {Elle} other {Iel}} devrait lire !',
  [PLURAL]: '{count, plural, one {fichier} other {fichiers}}',
  [HELLO]: 'Bonjour, {name} !',
  [INVITED]: '{gender, select, male {Il} other {Iel}} a invité {name}',
}

let root: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tms-import-branches-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'package.json'), '{ "name": "reading-app", "private": true }\n')
  writeFileSync(
    join(root, 'src/Reading.tsx'),
    [
      "import { t } from 'unplugin-tms/runtime'",
      `export const reading = (gender: string) => t(${JSON.stringify(SELECT)}, { gender })`,
      `export const files = (count: number) => t(${JSON.stringify(PLURAL)}, { count })`,
      `export const hello = (name: string) => t(${JSON.stringify(HELLO)}, { name })`,
      `export const invited = (gender: string, name: string) => t(${JSON.stringify(INVITED)}, { gender, name })`,
      '',
    ].join('\n'),
  )
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

function input(files: ImportInput['files'], from: ImportInput['from']): ImportInput {
  const options: Options = {
    root,
    baseUrl: emu.url,
    projectId: PROJECT,
    userIdentifier: 'demo-user',
    userSecret: 'demo-secret',
    locales: ['fr-FR'],
    cacheDir: join(root, `.tms-cache-${from}`),
  }
  return {
    options: resolveOptions(options, { command: 'cli', env: {} }),
    from,
    files,
    state: 'published',
    overwrite: false,
    dryRun: false,
    batchSize: 1000,
    logger: { info() {}, warn() {} },
    connect: connectImport(),
  }
}

async function published(): Promise<Record<string, string | null>> {
  const state = (await control(emu, 'GET', '/_emulator/state')) as {
    projects: {
      projectId: string
      strings: { stringText: string; translations: Record<string, { published: string | null }> }[]
    }[]
  }
  const strings = state.projects.find((p) => p.projectId === PROJECT)!.strings
  return Object.fromEntries(
    strings.map((s) => [s.stringText, s.translations['fr-FR']?.published ?? null]).sort(),
  )
}

describe('tms import of one-word branch bodies', () => {
  it("brings a FormatJS catalog's select and plural translations in", async () => {
    const en = {
      'reading.prompt': { defaultMessage: SELECT },
      'files.count': { defaultMessage: PLURAL },
      'hello.name': { defaultMessage: HELLO },
      'invited.by': { defaultMessage: INVITED },
    }
    const fr = {
      'reading.prompt': FRENCH[SELECT],
      'files.count': FRENCH[PLURAL],
      'hello.name': FRENCH[HELLO],
      'invited.by': FRENCH[INVITED],
    }
    const report = await runImport(
      input(
        [
          { file: 'lang/en.json', text: JSON.stringify(en, null, 2) },
          { file: 'lang/fr.json', text: JSON.stringify(fr, null, 2) },
        ],
        'formatjs',
      ),
    )
    expect({ refused: report.refused, unmatched: report.unmatched, errors: report.serviceErrors }).toEqual({
      refused: [],
      unmatched: [],
      errors: [],
    })
    expect(report.locales['fr-FR']).toEqual({ matched: 4, imported: 4 })
    expect(await published()).toEqual(FRENCH)
  })

  it("brings a Lingui catalog's select translation in", async () => {
    const po = (language: string, pairs: [string, string][]) =>
      [
        'msgid ""',
        'msgstr ""',
        `"Language: ${language}\\n"`,
        '',
        ...pairs.flatMap(([id, str]) => [`msgid ${JSON.stringify(id)}`, `msgstr ${JSON.stringify(str)}`, '']),
      ].join('\n')
    const report = await runImport(
      input(
        [
          { file: 'locales/en/messages.po', text: po('en', [[SELECT, SELECT]]) },
          { file: 'locales/fr/messages.po', text: po('fr', [[SELECT, FRENCH[SELECT]]]) },
        ],
        'lingui',
      ),
    )
    expect({ refused: report.refused, errors: report.serviceErrors }).toEqual({ refused: [], errors: [] })
    expect(report.locales['fr-FR']).toEqual({ matched: 1, imported: 1 })
    expect((await published())[SELECT]).toBe(FRENCH[SELECT])
  })
})
