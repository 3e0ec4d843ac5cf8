import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runPipeline } from '../../src/core/pipeline'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { type Options, resolveOptions } from '../../src/options'
import { connectService } from '../../src/service'
import tmsVite from '../../src/vite'
import { control } from '../helpers/sync'
import { buildRollup } from '../plugin/bundlers'

/**
 * Rich text end to end: an app with tagged messages pushed to the emulator (tags are placeholders of
 * the string), translated there, pulled by real builds (rollup in runtime mode; rollup and vite in
 * inline mode), and formatted in Node with tag functions returning objects (an array comes back) and
 * strings (a string comes back).
 */

const PROJECT = 'demo-project'
const run = promisify(execFile)

const SOURCES = {
  terms: 'Read the <link>terms</link>',
  files: '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <link>the folder</link>',
  renamed: 'Press <key>Enter</key> to go on',
  nested: 'See <link>the <b>new</b> terms</link>',
}
const FRENCH = {
  terms: 'Lisez les <link>conditions</link>',
  files: '{count, plural, one {<b>#</b> fichier} other {<b>#</b> fichiers}} dans <link>le dossier</link>',
  // A tag the source does not have: rejected, the source text is used.
  renamed: 'Appuyez sur <kbd>Entrée</kbd> pour continuer',
  // `<b>` moved out of `<link>`: rejected.
  nested: 'Voir <link>les conditions</link> <b>nouvelles</b>',
}

let emu: RunningEmulator
let root: string
const hashcodes = new Map<string, string>()

function options(extra: Options = {}): Options {
  return {
    root,
    baseUrl: emu.url,
    projectId: PROJECT,
    userIdentifier: 'demo-user',
    userSecret: 'demo-secret',
    locales: ['fr-FR'],
    cacheDir: join(root, '.tms-cache'),
    report: false,
    ...extra,
  }
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 })
  root = mkdtempSync(join(tmpdir(), 'tms-rich-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'package.json'), '{ "name": "rich-app", "private": true, "type": "module" }\n')
  const calls = Object.entries(SOURCES).map(
    ([name, text]) => `export const ${name} = (v) => t(${JSON.stringify(text)}, v)\n`,
  )
  writeFileSync(
    join(root, 'src/main.js'),
    `import { t, setLocale } from 'unplugin-tms/runtime'\n${calls.join('')}export { setLocale }\n`,
  )
  const seeded = await runPipeline({
    options: resolveOptions(options(), { command: 'build' }),
    logger: { info() {}, warn() {} },
    push: true,
    pull: false,
    connect: connectService(),
  })
  for (const m of seeded.extraction.messages) hashcodes.set(m.text, seeded.sync.hashcodes.get(m.key)!)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  for (const [name, translation] of Object.entries(FRENCH)) {
    await control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
      hashcode: hashcodes.get(SOURCES[name as keyof typeof SOURCES]),
      localeId: 'fr-FR',
      translation,
      published: true,
    })
  }
}, 60_000)

afterAll(async () => {
  await emu?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

/**
 * Runs a built app in Node (after setLocale(locale) when given): each message with object-returning
 * and with string-returning tag functions.
 */
async function formatAll(entry: string, locale?: string): Promise<Record<string, unknown>> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    const objects = {
      link: (chunks) => ({ a: chunks }),
      b: (chunks) => ({ strong: chunks }),
      key: (chunks) => ({ kbd: chunks }),
    }
    const strings = {
      link: (chunks) => '<a href="/terms">' + chunks.join('') + '</a>',
      b: (chunks) => '**' + chunks.join('') + '**',
      key: (chunks) => '[' + chunks.join('') + ']',
    }
    const all = (values) => ({
      terms: app.terms(values),
      one: app.files({ ...values, count: 1 }),
      many: app.files({ ...values, count: 1234 }),
      renamed: app.renamed(values),
      nested: app.nested(values),
      untagged: app.terms({}),
    })
    ${locale ? `await app.setLocale(${JSON.stringify(locale)})` : ''}
    process.stdout.write(JSON.stringify({ objects: all(objects), strings: all(strings) }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 })
  return JSON.parse(stdout)
}

/** What the app gives in the source locale. */
const SOURCE_OUTPUT = {
  objects: {
    terms: ['Read the ', { a: ['terms'] }],
    one: [{ strong: ['1'] }, ' file in ', { a: ['the folder'] }],
    many: [{ strong: ['1,234'] }, ' files in ', { a: ['the folder'] }],
    renamed: ['Press ', { kbd: ['Enter'] }, ' to go on'],
    nested: ['See ', { a: ['the ', { strong: ['new'] }, ' terms'] }],
    untagged: 'Read the terms',
  },
  strings: {
    terms: 'Read the <a href="/terms">terms</a>',
    one: '**1** file in <a href="/terms">the folder</a>',
    many: '**1,234** files in <a href="/terms">the folder</a>',
    renamed: 'Press [Enter] to go on',
    nested: 'See <a href="/terms">the **new** terms</a>',
    untagged: 'Read the terms',
  },
}

/** What the app gives in French: the two rejected translations give the source's. */
const FRENCH_OUTPUT = {
  objects: {
    terms: ['Lisez les ', { a: ['conditions'] }],
    one: [{ strong: ['1'] }, ' fichier dans ', { a: ['le dossier'] }],
    many: [{ strong: ['1\u202f234'] }, ' fichiers dans ', { a: ['le dossier'] }],
    renamed: ['Press ', { kbd: ['Enter'] }, ' to go on'],
    nested: ['See ', { a: ['the ', { strong: ['new'] }, ' terms'] }],
    untagged: 'Lisez les conditions',
  },
  strings: {
    terms: 'Lisez les <a href="/terms">conditions</a>',
    one: '**1** fichier dans <a href="/terms">le dossier</a>',
    many: '**1\u202f234** fichiers dans <a href="/terms">le dossier</a>',
    renamed: 'Press [Enter] to go on',
    nested: 'See <a href="/terms">the **new** terms</a>',
    untagged: 'Lisez les conditions',
  },
}

/** The two rejections, each once per build (rollup prefixes a plugin's warnings with its name). */
const REJECTIONS = (prefix = '[plugin unplugin-tms] '): string[] => [
  `${prefix}translation of ${hashcodes.get(SOURCES.renamed)} for fr-FR rejected: it has the tag <kbd>, which the source does not; the source text "Press <key>Enter</key> to go on" (src/main.js:4:31) is used until the translation is corrected on the service`,
  `${prefix}translation of ${hashcodes.get(SOURCES.nested)} for fr-FR rejected: it has the tag <b> outside any tag where the source has it inside <link>; the source text "See <link>the <b>new</b> terms</link>" (src/main.js:5:30) is used until the translation is corrected on the service`,
]

describe('rich text in runtime mode (rollup, the emulator)', () => {
  test('each tag open and close is a placeholder of the string on the service', async () => {
    const state = (await control(emu, 'GET', '/_emulator/state')) as {
      projects: { projectId: string; strings: { stringText: string; parsedStringText: string }[] }[]
    }
    const strings = state.projects.find((p) => p.projectId === PROJECT)!.strings
    const parsed = Object.fromEntries(strings.map((s) => [s.stringText, s.parsedStringText]))
    expect(parsed).toEqual({
      'Read the <link>terms</link>': 'Read the {0}terms{1}',
      '{count, plural, one {<b>#</b> file} other {<b>#</b> files}} in <link>the folder</link>':
        '{count, plural, one {{0}#{1} file} other {{2}#{3} files}} in {4}the folder{5}',
      'Press <key>Enter</key> to go on': 'Press {0}Enter{1} to go on',
      'See <link>the <b>new</b> terms</link>': 'See {0}the {1}new{2} terms{3}',
    })
  })

  test('a translated message with tags formats to the exact array or string; wrong tags fall back to the source', async () => {
    const built = await buildRollup(root, options())
    expect(built.warnings).toEqual(REJECTIONS())
    expect(await formatAll(built.entry!, 'en-US')).toEqual(SOURCE_OUTPUT)
    expect(await formatAll(built.entry!, 'fr-FR')).toEqual(FRENCH_OUTPUT)
  }, 120_000)
})

describe('rich text in inline mode (the copy of each locale formats its own tagged messages)', () => {
  test('rollup', async () => {
    const outDir = join(root, 'dist-rollup-inline')
    const built = await buildRollup(root, options({ mode: 'inline' }), outDir)
    expect(built.warnings).toEqual(REJECTIONS())
    expect(readdirSync(outDir).sort()).toEqual(['en-US', 'fr-FR'])
    expect(await formatAll(join(outDir, 'en-US/main.js'))).toEqual(SOURCE_OUTPUT)
    expect(await formatAll(join(outDir, 'fr-FR/main.js'))).toEqual(FRENCH_OUTPUT)
  }, 120_000)

  test('vite', async () => {
    const outDir = join(root, 'dist-vite-inline')
    const warnings: string[] = []
    await viteBuild({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [tmsVite(options({ mode: 'inline' }))],
      build: {
        outDir,
        emptyOutDir: true,
        minify: true,
        rollupOptions: {
          input: join(root, 'src/main.js'),
          preserveEntrySignatures: 'exports-only',
          output: { entryFileNames: '[name].js' },
          onLog: (level, log) => {
            if (level === 'warn') warnings.push(log.message)
          },
        },
      },
    })
    expect(warnings).toEqual(REJECTIONS(''))
    expect(await formatAll(join(outDir, 'en-US/main.js'))).toEqual(SOURCE_OUTPUT)
    expect(await formatAll(join(outDir, 'fr-FR/main.js'))).toEqual(FRENCH_OUTPUT)
  }, 120_000)
})
