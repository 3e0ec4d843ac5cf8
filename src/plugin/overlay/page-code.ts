import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The overlay's page code (src/overlay/), served to the dev page only. The package ships it built
 * (`dist/overlay-page.mjs`, next to the plugin's chunk); this repository's tests run the plugin from
 * its sources and bundle it on first use.
 */

const BUILT = new URL('./overlay-page.mjs', import.meta.url)
const SOURCE = new URL('../../overlay/index.ts', import.meta.url)
/** The page code imports the app's runtime by this specifier: the same instance as the app's. */
const RUNTIME = 'unplugin-tms/runtime'

let cached: Promise<string> | undefined

export function overlayPageCode(): Promise<string> {
  cached ??= load()
  return cached
}

async function load(): Promise<string> {
  const built = fileURLToPath(BUILT)
  if (existsSync(built)) return readFile(built, 'utf8')
  const source = fileURLToPath(SOURCE)
  if (!existsSync(source)) {
    throw new Error(
      `[unplugin-tms] the dev overlay is missing: neither ${built} nor ${source} exists; reinstall`,
    )
  }
  const require = createRequire(import.meta.url)
  const { rolldown } = (await import(
    pathToFileURL(require.resolve('rolldown')).href
  )) as typeof import('rolldown')
  const build = await rolldown({
    input: source,
    platform: 'browser',
    external: [RUNTIME],
    logLevel: 'silent',
  })
  try {
    const { output } = await build.generate({ format: 'esm' })
    return output[0].code
  } finally {
    await build.close()
  }
}
