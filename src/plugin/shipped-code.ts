import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Code the plugin hands to the page as text (the runtimes, the dev overlay's page code): the published
 * package ships it built next to the plugin's chunk; this repository's tests run the plugin from its
 * TypeScript sources, so there it is bundled from them on first use.
 */
export interface ShippedCode {
  /** The built file in the package. */
  built: URL
  /** Its entry among this repository's sources. */
  source: URL
  /** What it is, for the error when both are missing ("the runtime"). */
  what: string
  platform: 'browser' | 'node'
  /** What the bundle leaves as imports. */
  external: (string | RegExp)[]
}

/** The code's text: the built file when the package has it, else its sources bundled with rolldown. */
export async function shippedCode(code: ShippedCode): Promise<string> {
  const built = fileURLToPath(code.built)
  if (existsSync(built)) return readFile(built, 'utf8')
  const source = fileURLToPath(code.source)
  if (!existsSync(source)) {
    throw new Error(
      `[unplugin-tms] ${code.what} is missing: neither ${built} nor ${source} exists; reinstall`,
    )
  }
  // Only when running from the repository's sources, where the devDependencies are installed; found
  // through createRequire so that the package build does not bundle rolldown.
  const require = createRequire(import.meta.url)
  const { rolldown } = (await import(
    pathToFileURL(require.resolve('rolldown')).href
  )) as typeof import('rolldown')
  const build = await rolldown({
    input: source,
    platform: code.platform,
    external: code.external,
    logLevel: 'silent',
  })
  try {
    const { output } = await build.generate({ format: 'esm' })
    return output[0].code
  } finally {
    await build.close()
  }
}
