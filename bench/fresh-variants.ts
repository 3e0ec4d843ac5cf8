/**
 * The builds the fresh-process section times (bench/sections/fresh-process.ts): the plain build, the
 * floor rows, unplugin-tms's modes and the peers, each a vite config of the same generated app.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, type Stats, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FreshTool, SOURCE_LOCALE, TARGET_LOCALES } from './fresh-app'
import { repo } from './fresh-runner'

export const PROJECT = 'demo-project'

export interface Variant {
  key: string
  label: string
  /** The name in the size table. */
  short?: string
  tool: FreshTool
  /** The vite config's body: imports, then `export default`. */
  config: string
  /** Run before each of its builds. */
  before?: () => void
  /** Run after each of its builds, failed or not. */
  after?: () => void
}

export const react = "import react from '@vitejs/plugin-react'\n"
/** A copy of the warm cache whose catalog memos are deleted before each build of the no-memo variant. */
export const NO_MEMO_CACHE = '.tms-cache-no-memo'

/** What every unplugin-tms build of the section is given (and the seeded cache is made with). */
export const TMS_OPTIONS = {
  // The app's own: every variant keys its catalog memos the same way.
  sourceLocale: SOURCE_LOCALE,
  locales: [...TARGET_LOCALES],
  projectId: PROJECT,
  namespace: 'bench-fresh',
  report: false,
}

/** A copy of the warm cache that the builds after an edit keep up with (see `editedBuilds`). */
export const EDITED_CACHE = '.tms-cache-edited'
/** A copy of the warm cache whose kept inline copies are removed before each build (see `tms-inline-made`). */
export const INLINE_MADE_CACHE = '.tms-cache-inline-made'

/** The warm builds' cache: the seeded one, no request. */
export const OFFLINE = { cacheDir: '.tms-cache', cache: 'offline' } as const

export function tmsConfig(options: Record<string, unknown>): string {
  return `${react}import tms from 'unplugin-tms/vite'
export default { plugins: [react(), tms(${JSON.stringify({ ...TMS_OPTIONS, ...options })})] }\n`
}

/** The Node of the builds, as [major, minor]. */
export function nodeVersionOf(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
}

/**
 * Lingui as a user of this Node gets it. Lingui 6 needs Node >= 22.19 (its CLI imports `fs.globSync`);
 * its vite plugin transforms macros natively (`macroTransform`, a Rust binary that npm installs only on
 * such a Node). On an older Node, Lingui 5 (its last release for Node 20) with its SWC macro plugin
 * through `@vitejs/plugin-react-swc`.
 */
function linguiVariant(node: string): Variant {
  const [major, minor] = nodeVersionOf(node).slice(1).split('.').map(Number) as [number, number]
  if (major < 22 || (major === 22 && minor < 19)) {
    return {
      key: 'lingui',
      short: 'Lingui 5, SWC macro',
      label:
        'Lingui 5 (its last release for Node 20), SWC macro (`@lingui/swc-plugin` in `@vitejs/plugin-react-swc`), .po catalogs compiled by its vite plugin',
      tool: 'lingui',
      config: `import react from '@vitejs/plugin-react-swc'\nimport { lingui } from 'lingui-vite-plugin-5'\nexport default { plugins: [react({ plugins: [['@lingui/swc-plugin', {}]] }), lingui()] }\n`,
    }
  }
  let native = true
  try {
    execFileSync(
      node,
      ['-e', "import('@lingui/native-tools').then(() => process.exit(0), () => process.exit(1))"],
      {
        cwd: join(repo, 'node_modules', '@lingui', 'vite-plugin'),
        stdio: 'ignore',
      },
    )
  } catch {
    native = false
  }
  return native
    ? {
        key: 'lingui',
        short: 'Lingui 6, native macro',
        label:
          'Lingui 6, native macro (`lingui({ macroTransform: true })`), .po catalogs compiled by its vite plugin',
        tool: 'lingui',
        config: `${react}import { lingui } from '@lingui/vite-plugin'\nexport default { plugins: [react(), lingui({ macroTransform: true })] }\n`,
      }
    : {
        key: 'lingui',
        short: 'Lingui 6 through Babel',
        label:
          'Lingui 6 through Babel (`@rolldown/plugin-babel`; its native macro is not installed here), .po catalogs compiled by its vite plugin',
        tool: 'lingui',
        config: `${react}import babel from '@rolldown/plugin-babel'\nimport { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'\nexport default { plugins: [react(), lingui(), babel({ presets: [linguiTransformerBabelPreset()] })] }\n`,
      }
}

export function variants(network: string, node: string, tmsRoot: string): Variant[] {
  return [
    {
      key: 'plain',
      label: 'plain vite build (@vitejs/plugin-react, no i18n plugin)',
      tool: 'tms',
      config: `${react}export default { plugins: [react()] }\n`,
    },
    {
      key: 'empty-hook',
      label: 'floor: a plugin with an empty transform hook on every module',
      tool: 'tms',
      config: `${react}export default { plugins: [react(), { name: 'empty-hook', transform() { return null } }] }\n`,
    },
    {
      key: 'filtered-hook',
      label: "floor: a transform hook whose filter (vite 8's hook filter) skips every module",
      tool: 'tms',
      config: `${react}export default { plugins: [react(), { name: 'filtered-hook', transform: { filter: { id: /\\.no-such-extension$/ }, handler() { return null } } }] }\n`,
    },
    {
      key: 'echo-hook',
      label:
        "floor: a transform hook that returns every app module's code, changed by one line break (no source map)",
      tool: 'tms',
      config: `${react}export default { plugins: [react(), { name: 'echo-hook', transform(code, id) { return id.includes('/src/') ? { code: code + '\\n', map: null } : null } }] }\n`,
    },
    {
      key: 'tms-runtime',
      short: 'unplugin-tms, runtime mode (default options: the source catalog)',
      label: 'unplugin-tms, runtime mode, default options (the source catalog), warm cache, offline',
      tool: 'tms',
      config: tmsConfig(OFFLINE),
    },
    {
      key: 'tms-no-memo',
      label:
        'unplugin-tms, runtime mode, warm cache, offline, no catalog memo (as after a pull changed the translations)',
      tool: 'tms',
      config: tmsConfig({ ...OFFLINE, cacheDir: NO_MEMO_CACHE }),
      before: () => rmSync(join(tmsRoot, NO_MEMO_CACHE, 'catalogs'), { recursive: true, force: true }),
    },
    {
      key: 'tms-edited',
      label:
        "unplugin-tms, runtime mode, warm cache, offline, one message edited since the variant's last build (a component's heading)",
      tool: 'tms',
      config: tmsConfig({ ...OFFLINE, cacheDir: EDITED_CACHE }),
      ...editedBuilds(tmsRoot),
    },
    {
      key: 'tms-text-sites',
      short: 'unplugin-tms, runtime mode, `sourceCatalog: false`',
      label:
        'unplugin-tms, runtime mode, `sourceCatalog: false` (texts at the call sites), warm cache, offline',
      tool: 'tms',
      config: tmsConfig({ ...OFFLINE, sourceCatalog: false }),
    },
    {
      key: 'tms-inline',
      short: 'unplugin-tms, inline mode (the fr-FR copy; no catalog)',
      label: `unplugin-tms, inline mode, ${TARGET_LOCALES.length} locales, warm cache, offline`,
      tool: 'tms',
      config: tmsConfig({ ...OFFLINE, mode: 'inline' }),
    },
    {
      key: 'tms-inline-made',
      label: `unplugin-tms, inline mode, ${TARGET_LOCALES.length} locales, warm cache, offline, every copy made (none kept: as after a change to the output)`,
      tool: 'tms',
      config: tmsConfig({ ...OFFLINE, cacheDir: INLINE_MADE_CACHE, mode: 'inline' }),
      before: () => rmSync(join(tmsRoot, INLINE_MADE_CACHE, 'inline'), { recursive: true, force: true }),
    },
    {
      key: 'tms-network',
      label: 'unplugin-tms, runtime mode, warm cache, network on (the emulator on 127.0.0.1)',
      tool: 'tms',
      config: tmsConfig({
        cacheDir: '.tms-cache-network',
        baseUrl: network,
        userIdentifier: 'demo-user',
        userSecret: 'demo-secret',
      }),
    },
    linguiVariant(node),
    {
      key: 'formatjs',
      short: '`@formatjs/vite-plugin` + react-intl',
      label:
        '`@formatjs/vite-plugin` (ids, `removeDefaultMessage`, pre-parsed messages) + react-intl, compiled JSON catalogs',
      tool: 'formatjs',
      config: `${react}import formatjs from '@formatjs/vite-plugin'\nexport default { plugins: [react(), formatjs({ idInterpolationPattern: '[sha512:contenthash:base64:6]', removeDefaultMessage: true, ast: true })] }\n`,
    },
    {
      key: 'paraglide',
      short: 'Paraglide 2',
      label: 'Paraglide 2 (`paraglideVitePlugin`, compiles the inlang project at build start)',
      tool: 'paraglide',
      config: `${react}import { paraglideVitePlugin } from '@inlang/paraglide-js'\nexport default { plugins: [react(), paraglideVitePlugin({ project: './project.inlang', outdir: './src/paraglide' })] }\n`,
    },
  ]
}

/**
 * A warm build after a developer changed one message: before each build, component 1's heading reads
 * one of two texts in turn, so that it differs from what the variant's last build (and its own cache,
 * `EDITED_CACHE`) saw; after it, the file is as it was, its modification time too, so that the other
 * variants' caches still hold it.
 */
export function editedBuilds(root: string): Pick<Variant, 'before' | 'after'> {
  const file = join(root, 'src', 'm', 'm1.tsx')
  let original: { text: string; stat: Stats } | undefined
  let builds = 0
  return {
    before() {
      const text = readFileSync(file, 'utf8')
      original = { text, stat: statSync(file) }
      const edited = text.replace(/<h2>\{t\("([^"]*)"\)\}/, (_, heading: string) => {
        return `<h2>{t("${heading} (edit ${builds++ % 2})")}`
      })
      if (edited === text) throw new Error(`fresh-process: no heading message to edit in ${file}`)
      writeFileSync(file, edited)
    },
    after() {
      if (original === undefined) return
      writeFileSync(file, original.text)
      utimesSync(file, original.stat.atime, original.stat.mtime)
    },
  }
}
