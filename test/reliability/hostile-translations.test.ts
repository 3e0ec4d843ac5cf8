import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { control, untilIdle } from '../helpers/sync'
import { makeApp, PROJECT, rollupBuild, SECRET, storedStrings, USER } from './helpers'

/**
 * Translations a compromised or careless service could send, beyond the quote and `</script>` cases
 * of test/plugin/hostile.test.ts: lone surrogates, markup, a dropped and an added placeholder, and a
 * 100 KB text made of everything that could end a string literal. The bundle must hold them as plain
 * text, byte for byte (lone surrogates included), run none of them, and use the source text where a
 * placeholder does not match.
 */

const SOURCES = ['Surrogates', 'Markup {name}', 'Dropped {name}', 'Added', 'Long', 'Breakout {name}']
// Markup is written with attributes or a space in its tags (`</script >` ends a script element as
// `</script>` does): an exact `<tag>` is a rich-text placeholder the source lacks, rejected before a chunk.
const ESCAPES = `'"\`\\\${}</script ><!--\u2028\u2029\n\r\0`
const LONG = `${ESCAPES}${'x'.repeat(1000)}`.repeat(100)
const FRENCH: Record<string, string> = {
  Surrogates: 'lone high \uD800, lone low \uDC00, reversed \uDC00\uD800, a pair 😀',
  'Markup {name}':
    '<img src=x onerror="globalThis.pwned=1"><b class="x">{name}</b ><script type="module">globalThis.pwned=2</script >',
  'Dropped {name}': 'Sans le nom',
  Added: 'Ajouté {extra}',
  Long: LONG,
  'Breakout {name}': `"); globalThis.pwned = 3; ("{name}\${globalThis.pwned = 4}\`; globalThis.pwned = 5; \``,
}

let emu: RunningEmulator
let root: string

beforeAll(async () => {
  emu = await startEmulator()
  const calls = SOURCES.map((s) => `t(${JSON.stringify(s)}, { name: '<i>Ada</i>' })`)
  root = makeApp(
    {
      'src/main.js': [
        "import { t, setLocale } from 'unplugin-tms/runtime'",
        'export { setLocale }',
        `export const render = () => [${calls.join(', ')}]`,
      ].join('\n'),
    },
    { locales: ['fr-FR'] },
  )
})
afterAll(async () => {
  await emu?.close()
})

it('hostile translations arrive as exact text, run nothing, and mismatched placeholders fall back', async () => {
  const options = {
    baseUrl: emu.url,
    projectId: PROJECT,
    userIdentifier: USER,
    userSecret: SECRET,
    locales: ['fr-FR'],
  }
  await rollupBuild(root, options)
  const stored = await storedStrings(emu)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  await untilIdle(emu)
  for (const [source, translation] of Object.entries(FRENCH)) {
    const hashcode = stored.find((s) => s.stringText === source)!.hashcode
    await control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
      hashcode,
      localeId: 'fr-FR',
      translation,
      published: true,
    })
  }

  const built = await rollupBuild(root, options)
  const rejected = built.warnings.filter((w) => w.includes('rejected'))
  expect(rejected).toHaveLength(2)
  expect(rejected.join('\n')).toContain('it drops the placeholder {name}; the source text "Dropped {name}"')
  expect(rejected.join('\n')).toContain(
    'it has the placeholder {extra}, which the source does not; the source text "Added"',
  )

  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(join(built.outDir, 'main.js')).href)})
    await app.setLocale('fr-FR')
    process.stdout.write(JSON.stringify({ fr: app.render(), pwned: globalThis.pwned ?? null }))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    maxBuffer: 64 * 1024 * 1024,
  })
  const out = JSON.parse(stdout) as { fr: string[]; pwned: unknown }
  expect(out.pwned).toBe(null)
  expect(out.fr).toEqual([
    FRENCH.Surrogates,
    FRENCH['Markup {name}']!.replace('{name}', '<i>Ada</i>'),
    'Dropped <i>Ada</i>',
    'Added',
    LONG,
    FRENCH['Breakout {name}']!.replace('{name}', '<i>Ada</i>'),
  ])
  expect(LONG.length).toBeGreaterThan(100_000)

  // The cache keeps lone surrogates exactly too (JSON escapes them), so an offline build ships the same.
  const cached = await new DiskCache(join(root, '.tms-cache'), PROJECT).readLocale('fr-FR', 'published')
  expect(cached.hit && Object.values(cached.value.translations)).toContain(FRENCH.Surrogates)
})
