import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { DiskCache } from '../../src/core/cache'
import { extractMessages } from '../../src/core/extract/index'
import { jsString } from '../../src/core/js-string'
import { extractOptionsOf } from '../../src/core/pipeline'
import { metaDigest } from '../../src/core/sync'
import { type Options, resolveOptions } from '../../src/options'
import tmsRollup from '../../src/rollup'

/**
 * A temp app whose `src/main.js` exports one function per message (`messages[i](values)`) and the
 * runtime's setLocale, with an offline cache that holds each message's translation per locale: what a
 * CI cache looks like after a pull, without a service.
 */

export const PROJECT = 'icu-project'

export interface IcuProject {
  root: string
  options(extra?: Options): Options
  close(): void
}

/** A message of the app: its text, or its text and variant (a second message with the same text). */
export type IcuSource = string | { text: string; variant: string }

export async function setupIcuProject(
  sources: readonly IcuSource[],
  translationsOf: (source: string, locale: string, variant: string | null) => string | undefined,
  locales: readonly string[],
): Promise<IcuProject> {
  const root = mkdtempSync(join(tmpdir(), 'tms-icu-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'package.json'), '{ "name": "icu-app", "private": true, "type": "module" }\n')
  const calls = sources
    .map((s) =>
      typeof s === 'string'
        ? `  (v) => t(${jsString(s)}, v),`
        : `  (v) => t(${jsString(s.text)}, v, { variant: ${jsString(s.variant)} }),`,
    )
    .join('\n')
  writeFileSync(
    join(root, 'src/main.js'),
    `import { t, setLocale, getLocale } from 'unplugin-tms/runtime'\n\nexport const messages = [\n${calls}\n]\n\nexport { setLocale, getLocale }\n`,
  )
  const cacheDir = join(root, '.tms-cache')
  const options = (extra: Options = {}): Options => ({
    root,
    projectId: PROJECT,
    locales: [...locales],
    sourceLocale: 'en-US',
    cache: 'offline',
    cacheDir,
    report: false,
    ...extra,
  })
  const resolved = resolveOptions(options(), { command: 'build' })
  const { messages, diagnostics } = await extractMessages(extractOptionsOf(resolved))
  if (diagnostics.length > 0) throw new Error(diagnostics.map((d) => d.message).join('\n'))
  const cache = new DiskCache(cacheDir, PROJECT)
  const hashcodeOf = (i: number): string => i.toString(16).padStart(32, '0')
  await cache.updateManifest(
    Object.fromEntries(
      messages.map((m, i) => [
        m.key,
        {
          hashcode: hashcodeOf(i),
          parsed: m.parsed,
          variant: m.variant,
          meta: metaDigest(m, resolved.placeholder),
        },
      ]),
    ),
  )
  for (const locale of locales) {
    const translations: Record<string, string> = {}
    messages.forEach((m, i) => {
      const text = translationsOf(m.text, locale, m.variant)
      if (text !== undefined) translations[hashcodeOf(i)] = text
    })
    await cache.writeLocale(locale, 'published', translations)
  }
  return { root, options, close: () => rmSync(root, { recursive: true, force: true }) }
}

/** A rollup build of the project's `src/main.js` with the plugin into `outDir`: the warnings it logged. */
export async function buildWithWarnings(options: Options, outDir: string): Promise<string[]> {
  const warnings: string[] = []
  const bundle = await rollup({
    input: join(options.root!, 'src/main.js'),
    plugins: [tmsRollup(options)],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message)
    },
  })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
  return warnings
}
