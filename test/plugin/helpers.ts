import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import { pseudoLocalize } from '../../src/core/model/pseudo'
import { runPipeline } from '../../src/core/pipeline'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { type Options, resolveOptions } from '../../src/options'
import { connectService } from '../../src/service'
import { control } from '../helpers/sync'

export const FIXTURE_APP: string = fileURLToPath(new URL('../fixtures/plugin/app', import.meta.url))
export const PROJECT = 'demo-project'

/** The French the emulator's translators publish for the fixture app. */
export const FRENCH: Record<string, string> = {
  'Welcome to the shop': 'Bienvenue dans la boutique',
  'Hello {name}!': 'Bonjour {name} !',
  'You have {count} items in your cart': 'Vous avez {count} articles dans votre panier',
  Open: 'Ouvrir',
  'This text is never shipped': 'Ce texte ne part jamais',
}

/** What `render()` of the fixture app returns, from the source texts (or their translations). */
export function rendered(text: (source: string) => string): string[] {
  return [
    text('Welcome to the shop'),
    text('Hello {name}!').replace('{name}', 'Ada'),
    text('You have {count} items in your cart').replace('{count}', '3'),
    text('Open'),
  ]
}

export const SOURCE_TEXT: string[] = rendered((s) => s)
export const FRENCH_TEXT: string[] = rendered((s) => FRENCH[s]!)
export const PSEUDO_TEXT: string[] = rendered((s) => pseudoLocalize(s, 'en-XA'))

export interface Project {
  emu: RunningEmulator
  /** A copy of the fixture app in a temp directory (outputs and cache go there). */
  root: string
  cacheDir: string
  /** Plugin options for a build of the copy against the emulator. */
  options(extra?: Options): Options
  /** Source text (plus variant) -> hashcode, as the first push returned them. */
  hashcodes: Map<string, string>
  /** Publishes a translation in the emulator, as a translator would. */
  translate(source: string, locale: string, translation: string): Promise<void>
  close(): Promise<void>
}

/**
 * The emulator with the fixture app's strings pushed, authorized and translated to French: what a
 * project looks like after its first CI build and a round with the translators. Another `app` is
 * copied instead into a temp directory under `parent`.
 */
export async function setupProject(
  translations: Record<string, string> = FRENCH,
  app: string = FIXTURE_APP,
  parent: string = tmpdir(),
): Promise<Project> {
  const emu = await startEmulator({ port: 0 })
  const root = mkdtempSync(join(parent, 'tms-plugin-'))
  cpSync(app, root, { recursive: true })
  const cacheDir = join(root, '.tms-cache')
  const options = (extra: Options = {}): Options => ({
    root,
    baseUrl: emu.url,
    projectId: PROJECT,
    userIdentifier: 'demo-user',
    userSecret: 'demo-secret',
    locales: ['fr-FR'],
    pseudo: true,
    cacheDir,
    ...extra,
  })
  const seeded = await runPipeline({
    options: resolveOptions(options(), { command: 'build' }),
    logger: { info() {}, warn() {} },
    push: true,
    pull: false,
    connect: connectService(),
  })
  const hashcodes = new Map<string, string>()
  for (const m of seeded.extraction.messages) {
    const hashcode = seeded.sync.hashcodes.get(m.key)
    if (hashcode) hashcodes.set(m.text, hashcode)
  }
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  const translate = async (source: string, locale: string, translation: string): Promise<void> => {
    const hashcode = hashcodes.get(source)
    if (!hashcode) throw new Error(`no hashcode for ${JSON.stringify(source)}`)
    await control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
      hashcode,
      localeId: locale,
      translation,
      published: true,
    })
  }
  for (const [source, text] of Object.entries(translations)) await translate(source, 'fr-FR', text)
  return {
    emu,
    root,
    cacheDir,
    options,
    hashcodes,
    translate,
    async close() {
      await emu.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/**
 * A build's pull fills the project's cache (what dev servers and watchers read); the request log then
 * starts empty.
 */
export async function fillCache(project: Project): Promise<void> {
  await runPipeline({
    options: resolveOptions(project.options(), { command: 'build' }),
    logger: { info() {}, warn() {} },
    connect: connectService(),
  })
  await fetch(`${project.emu.url}/_emulator/requests`, { method: 'DELETE' })
}

/**
 * The suite's project: set up before its tests (the cache filled too with `cached`), closed after them.
 * Read `current` inside the tests.
 */
export function suiteProject(cached = false): { readonly current: Project } {
  const holder = {} as { current: Project }
  beforeAll(async () => {
    holder.current = await setupProject()
    if (cached) await fillCache(holder.current)
  }, 60_000)
  afterAll(async () => {
    await holder.current?.close()
  })
  return holder
}

const run = promisify(execFile)

export interface Rendered {
  source: string[]
  fr: string[]
  pseudo: string[]
  /** Whether anything in a translation ran as code (the hostile translations try to set it). */
  pwned: boolean
}

/**
 * The fixture app's text in each locale, from a Node run of a bundle's entry module. The app awaits
 * its first locale, the source locale, as the README's start does (a production build's source
 * catalog).
 */
export async function renderInNode(entry: string): Promise<Rendered> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
    await app.setLocale(app.getLocale())
    const out = { source: app.render() }
    await app.setLocale('fr-FR')
    out.fr = app.render()
    await app.setLocale('en-XA')
    out.pseudo = app.render()
    out.pwned = globalThis.pwned !== undefined
    process.stdout.write(JSON.stringify(out))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 })
  return JSON.parse(stdout)
}

/**
 * An app rendering one message per module; `tms-ids\0\0Save 144024` and `...322135` share `F3OWHU`.
 * A module already written is left alone, so the bundler has no reason to transform it again.
 */
export function idsApp(dir: string, texts: string[]): void {
  mkdirSync(join(dir, 'src'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{"name":"tms-ids","private":true,"type":"module"}')
  texts.forEach((text, i) => {
    const file = join(dir, 'src', `m${i}.js`)
    if (!existsSync(file)) {
      writeFileSync(file, `import { t } from 'unplugin-tms/runtime'\nexport default () => t('${text}')\n`)
    }
  })
  writeFileSync(
    join(dir, 'src/main.js'),
    `import { getLocale, setLocale } from 'unplugin-tms/runtime'\n${texts.map((_, i) => `import m${i} from './m${i}.js'\n`).join('')}export function render() { return [${texts.map((_, i) => `m${i}()`).join(', ')}] }\nexport { getLocale, setLocale }\n`,
  )
}

/**
 * The catalog memo files of `dir` (a cache's `catalogs`) with their inode and time of change: a memo
 * that answered is not written again. The record of the cache files' digests beside them is not a
 * memo, nor is a file still being written (a temporary one, renamed once complete).
 */
export function memoFiles(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .filter((name) => !name.startsWith('digests.json') && !name.endsWith('.tmp'))
      .map((name) => {
        const stat = statSync(join(dir, name), { bigint: true })
        return [name, `${stat.ino}:${stat.mtimeNs}`]
      }),
  )
}

/**
 * The plugins with what each call of their `hook` is asked about written to `asked`: resolveId's
 * specifier, transform's module id. An object hook only (its handler beside the filter the bundler
 * applies first), as the plugin's are.
 */
export function recording<P extends object>(
  plugins: P[],
  hook: 'resolveId' | 'transform',
  asked: string[],
): P[] {
  return plugins.map((plugin) => {
    const object = (plugin as Record<string, unknown>)[hook] as
      | { handler: (this: unknown, first: string, ...rest: unknown[]) => unknown }
      | undefined
    if (!object || typeof object !== 'object') return plugin
    return {
      ...plugin,
      [hook]: {
        ...object,
        handler(this: unknown, first: string, ...rest: unknown[]) {
          asked.push(hook === 'transform' ? String(rest[0]) : first)
          return object.handler.call(this, first, ...rest)
        },
      },
    }
  })
}
