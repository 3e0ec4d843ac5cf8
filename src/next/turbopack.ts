import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { Options } from '../options'
import type { TmsSession } from '../plugin/session'
import { literalCatalogModule } from '../plugin/virtual'
import type { TurbopackConfigLike } from './types'

/**
 * Turbopack has no plugin API: it runs webpack loaders (in Node worker processes) and resolves
 * aliases, nothing more. So what the plugin's virtual modules hold elsewhere is written as real files
 * when next.config is read, and Turbopack reaches them through `resolveAlias`:
 *
 * - `runtime.server.mjs` (the server runtime, a locale per request) and `runtime.browser.mjs`, each
 *   the runtime's code with one loader per locale that imports
 * - `catalog-<locale>.mjs`, the locale's catalog: every message of the app (a loader cannot know which
 *   modules a chunk ends up with, so a catalog is not trimmed to its chunk as with the other bundlers).
 *
 * `unplugin-tms/runtime` resolves to the first on the server and the second in the browser, and the
 * loader (src/next/loader.ts) rewrites message calls into lookups by the ids this build assigned.
 */

/** Where the generated modules go: in the project, which Turbopack only reads from; out of `.next`, which `next build` empties after reading the config. */
export const GENERATED_DIR: string = join('node_modules', '.cache', 'unplugin-tms', 'next')

/** The file of a locale's catalog module. */
function catalogFile(locale: string): string {
  return `catalog-${locale}.mjs`
}

/** Writes a file whole or not at all: a dev server's Turbopack may read it while it is written. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, text)
  await rename(temp, file)
}

/** Writes the runtime modules and one catalog module per locale of the session's build. */
export async function writeGeneratedModules(session: TmsSession, root: string): Promise<string> {
  const dir = join(root, GENERATED_DIR)
  await mkdir(dir, { recursive: true })
  const catalogSpecifier = (locale: string): string => `./${catalogFile(locale)}`
  const how = { hot: false, chunkNames: false, catalogSpecifier }
  await writeWhole(join(dir, 'runtime.server.mjs'), await session.runtimeModule({ ...how, server: true }))
  await writeWhole(join(dir, 'runtime.browser.mjs'), await session.runtimeModule(how))
  for (const locale of session.build.locales) {
    await writeWhole(
      join(dir, catalogFile(locale)),
      literalCatalogModule(session.build.catalogLiteralFor(locale)),
    )
  }
  return dir
}

/** The module extensions whose files the loader reads (Turbopack's rules are per file name glob). */
const SCRIPT_EXTENSIONS = ['js', 'jsx', 'ts', 'tsx', 'mjs', 'cjs']

/**
 * The `turbopack` config with the loader on the app's script files and the runtime alias, merged over
 * the app's own. A rule the app has for the same glob keeps its loaders; ours runs first (Turbopack,
 * as webpack, runs a rule's loaders from the last), on the source as written.
 */
export function turbopackConfig(
  own: TurbopackConfigLike | undefined,
  how: { root: string; dir: string; loader: string; options: Options; nextMajor: number },
): TurbopackConfigLike {
  const loader = { loader: how.loader, options: { root: how.root, options: jsonOptions(how.options) } }
  const rules: Record<string, unknown> = { ...own?.rules }
  for (const ext of SCRIPT_EXTENSIONS) {
    const glob = `*.${ext}`
    rules[glob] = withLoader(rules[glob], loader, glob, how.nextMajor)
  }
  const toDir = `./${relative(how.root, how.dir).split(sep).join('/')}`
  return {
    ...own,
    rules,
    resolveAlias: {
      ...own?.resolveAlias,
      'unplugin-tms/runtime': {
        browser: `${toDir}/runtime.browser.mjs`,
        default: `${toDir}/runtime.server.mjs`,
      },
    },
  }
}

type LoaderItem = { loader: string; options: Record<string, unknown> }

/**
 * Our loader added to an app's rule for `glob`, or a rule of its own. Next 16 takes a condition, so
 * packages (`foreign`: node_modules) never reach the loader; Next 15 has none, and the loader passes
 * them through at once (they are never in `include`).
 */
function withLoader(existing: unknown, loader: LoaderItem, glob: string, nextMajor: number): unknown {
  if (existing === undefined) {
    const rule = { loaders: [loader] }
    return nextMajor >= 16 ? { ...rule, condition: { not: 'foreign' } } : rule
  }
  if (Array.isArray(existing)) return [...existing, loader]
  const rule = existing as { loaders?: unknown[] }
  if (Array.isArray(rule.loaders)) return { ...rule, loaders: [...rule.loaders, loader] }
  throw new Error(
    `[unplugin-tms] next.config's turbopack.rules["${glob}"] has a form withTms cannot add its loader to: give it a "loaders" list`,
  )
}

/**
 * Turbopack hands a loader its options as JSON. Options that JSON cannot carry (a RegExp
 * `placeholderFormat`, a function) belong in tms.config.*, which the loader reads itself.
 */
function jsonOptions(options: Options): Record<string, unknown> {
  const text = JSON.stringify(options, (key, value: unknown) => {
    if (value instanceof RegExp || typeof value === 'function') {
      throw new Error(
        `[unplugin-tms] withTms option "${key}" cannot be handed to Turbopack's loader (it is not JSON): set it in tms.config.* instead, which the loader reads`,
      )
    }
    return value
  })
  return JSON.parse(text ?? '{}') as Record<string, unknown>
}
