import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * The runtime's JavaScript, embedded into the virtual runtime module of each build. Embedding (rather
 * than re-exporting the runtime file) keeps one module that both holds the runtime and registers the
 * catalogs: a re-export module is what webpack's `sideEffects: false` handling skips, and the
 * registration would be lost with it.
 */

let cached: Promise<string> | undefined

/** Published package: `dist/runtime.mjs` next to the plugin's chunk. */
const BUILT = new URL('./runtime.mjs', import.meta.url)
/** This repository's sources (tests run the plugin from `src/`). */
const SOURCE = new URL('../runtime/index.ts', import.meta.url)

export function runtimeCode(): Promise<string> {
  cached ??= load()
  return cached
}

async function load(): Promise<string> {
  const built = fileURLToPath(BUILT)
  let code: string
  if (existsSync(built)) {
    code = await readFile(built, 'utf8')
  } else {
    const source = fileURLToPath(SOURCE)
    if (!existsSync(source)) {
      throw new Error(
        `[unplugin-tms] the runtime is missing: neither ${built} nor ${source} exists; reinstall`,
      )
    }
    // Only when running from the repository's TypeScript sources, where esbuild is installed (the
    // runtime is several modules: bundled into one, as the package build does). Loaded through
    // createRequire so that the package build does not bundle it.
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild')
    code = esbuild.buildSync({
      entryPoints: [source],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    }).outputFiles[0]!.text
  }
  if (!/\bfunction _r\(/.test(code) || !/\bfunction _u\(/.test(code)) {
    throw new Error('[unplugin-tms] the runtime does not define _r/_u; the package is damaged, reinstall')
  }
  // The registration and the hot-update hook are appended to this code: its own source map comment
  // would then describe the wrong text.
  return code.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n')
}
