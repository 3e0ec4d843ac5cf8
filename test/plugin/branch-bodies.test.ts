import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { jsString } from '../../src/core/js-string'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import type { Options } from '../../src/options'
import { control, PROJECT, requestsTo } from '../helpers/sync'
import { buildRollup } from './bundlers'

/**
 * A plural and a select whose branch bodies are one word each, built with rollup against the emulator
 * over HTTP: the strings created keep the bodies as text (the app's regex would have read them as
 * placeholders `{0}`, `{1}`, so no translation could ever pass), a translator's French reaches the
 * built catalog, and a message the regex reads right keeps the hashcode it always had.
 */

const NAMESPACE = 'branch-app'
const PLURAL = '{count, plural, one {file} other {files}}'
const SELECT = '{gender, select, male {He} female {She} other {They}} should get reading!'
const HELLO = 'Hello {name}!'
const AGREED = '{count, plural, one {# file} other {# files}} in {folder}'
/** One-word bodies beside a real placeholder: its own spec is a regex of `{name}` alone. */
const INVITED = '{gender, select, male {He} other {They}} invited {name}'

const FRENCH: Record<string, string> = {
  [PLURAL]: '{count, plural, one {fichier} other {fichiers}}',
  [SELECT]: '{gender, select, male {Il} female {Elle} other {Iel}} devrait lire !',
  [HELLO]: 'Bonjour {name} !',
  [AGREED]: '{count, plural, one {# fichier} other {# fichiers}} dans {folder}',
  [INVITED]: '{gender, select, male {Il} other {Iel}} a invité {name}',
}

let emu: RunningEmulator
let root: string

beforeAll(async () => {
  emu = await startEmulator({ port: 0 })
  root = mkdtempSync(join(tmpdir(), 'tms-branch-bodies-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'package.json'), `{ "name": "${NAMESPACE}", "private": true, "type": "module" }\n`)
  const calls = [
    `t(${jsString(PLURAL)}, { count: 1 })`,
    `t(${jsString(PLURAL)}, { count: 3 })`,
    `t(${jsString(SELECT)}, { gender: 'male' })`,
    `t(${jsString(SELECT)}, { gender: 'female' })`,
    `t(${jsString(HELLO)}, { name: 'Ada' })`,
    `t(${jsString(AGREED)}, { count: 2, folder: 'Docs' })`,
    `t(${jsString(INVITED)}, { gender: 'male', name: 'Ada' })`,
  ]
  writeFileSync(
    join(root, 'src/main.js'),
    `import { t, setLocale } from 'unplugin-tms/runtime'\n\nexport function render() {\n  return [\n    ${calls.join(',\n    ')},\n  ]\n}\n\nexport { setLocale }\n`,
  )
}, 60_000)

afterAll(async () => {
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

const options = (): Options => ({
  root,
  baseUrl: emu.url,
  projectId: PROJECT,
  userIdentifier: 'demo-user',
  userSecret: 'demo-secret',
  locales: ['fr-FR'],
  cacheDir: join(root, '.tms-cache'),
  push: true,
  report: false,
})

interface StateString {
  hashcode: string
  stringText: string
  parsedStringText: string
  namespace: string | null
}

async function strings(): Promise<Map<string, StateString>> {
  const state = (await control(emu, 'GET', '/_emulator/state')) as {
    projects: { projectId: string; strings: StateString[] }[]
  }
  const project = state.projects.find((p) => p.projectId === PROJECT)!
  return new Map(project.strings.map((s) => [s.stringText, s]))
}

/** DESIGN.md's hashcode: md5 of namespace, variant and parsed text, NUL between them. */
const md5 = (namespace: string, variant: string, parsed: string): string =>
  createHash('md5').update(`${namespace}\u0000${variant}\u0000${parsed}`).digest('hex')

const run = promisify(execFile)

async function renderFrench(entry: string): Promise<{ source: string[]; fr: string[] }> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    await app.setLocale('en-US')
    const source = app.render()
    await app.setLocale('fr-FR')
    process.stdout.write(JSON.stringify({ source, fr: app.render() }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 })
  return JSON.parse(stdout)
}

test('one-word branch bodies stay text on the service, their translations reach the build, other hashcodes stay', async () => {
  const first = await buildRollup(root, options())
  expect(first.warnings).toEqual([
    '[plugin unplugin-tms] 5 strings await authorization on the service (fr-FR 5) and get no translation until authorized: authorize them in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings',
  ])
  // One create-strings request per placeholder spec: the app's (HELLO, AGREED), none (PLURAL, SELECT),
  // and INVITED's own regex.
  expect(await requestsTo(emu, 'POST /strings-api/v2/projects/:projectId')).toBe(3)
  const created = await strings()
  expect([...created.values()].map((s) => [s.stringText, s.parsedStringText, s.namespace]).sort()).toEqual(
    [
      // The bodies are text: the translator sees them, and nothing stands in their place.
      [PLURAL, PLURAL, NAMESPACE],
      [SELECT, SELECT, NAMESPACE],
      // Read as before: the same parsed text, so the same string.
      [HELLO, 'Hello {0}!', NAMESPACE],
      [AGREED, '{count, plural, one {# file} other {# files}} in {0}', NAMESPACE],
      // Created with the regex `\{name\}`: the service finds the one real placeholder.
      [INVITED, '{gender, select, male {He} other {They}} invited {0}', NAMESPACE],
    ].sort(),
  )
  // The hashcodes of messages the regex reads right are the ones the service always gave them.
  expect(created.get(HELLO)!.hashcode).toBe(md5(NAMESPACE, '', 'Hello {0}!'))
  expect(created.get(AGREED)!.hashcode).toBe(
    md5(NAMESPACE, '', '{count, plural, one {# file} other {# files}} in {0}'),
  )
  expect(created.get(PLURAL)!.hashcode).toBe(md5(NAMESPACE, '', PLURAL))

  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  for (const [source, translation] of Object.entries(FRENCH)) {
    const answer = (await control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
      hashcode: created.get(source)!.hashcode,
      localeId: 'fr-FR',
      translation,
      published: true,
    })) as { published: string }
    // The service keeps the translation as the translator wrote it.
    expect(answer.published).toBe(translation)
  }

  const second = await buildRollup(root, options())
  expect(second.warnings).toEqual([])
  expect(await renderFrench(second.entry!)).toEqual({
    source: [
      'file',
      'files',
      'He should get reading!',
      'She should get reading!',
      'Hello Ada!',
      '2 files in Docs',
      'He invited Ada',
    ],
    fr: [
      'fichier',
      'fichiers',
      'Il devrait lire !',
      'Elle devrait lire !',
      'Bonjour Ada !',
      '2 fichiers dans Docs',
      'Il a invité Ada',
    ],
  })
  // The second build created nothing: every string is the one the first build made.
  expect([...(await strings()).keys()].sort()).toEqual(Object.keys(FRENCH).sort())
}, 120_000)
