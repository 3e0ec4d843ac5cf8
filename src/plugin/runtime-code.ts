import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The runtime's JavaScript, embedded into the virtual runtime module of each build. Embedding (rather
 * than re-exporting the runtime file) keeps one module that both holds the runtime and registers the
 * catalogs: a re-export module is what webpack's `sideEffects: false` handling skips, and the
 * registration would be lost with it.
 *
 * Two flavors: the browser runtime, and for server builds (vite's SSR) the server runtime, which adds
 * a locale per request on AsyncLocalStorage (src/runtime/node.ts). Browser bundles never see the second.
 */
export type RuntimeFlavor = 'browser' | 'node'

const cached = new Map<RuntimeFlavor, Promise<string>>()

/** Published package: `dist/runtime.mjs` and `dist/runtime-node.mjs` next to the plugin's chunk. */
const BUILT: Record<RuntimeFlavor, URL> = {
  browser: new URL('./runtime.mjs', import.meta.url),
  node: new URL('./runtime-node.mjs', import.meta.url),
}
/** This repository's sources (tests run the plugin from `src/`). */
const SOURCE: Record<RuntimeFlavor, URL> = {
  browser: new URL('../runtime/index.ts', import.meta.url),
  node: new URL('../runtime/node.ts', import.meta.url),
}

export function runtimeCode(flavor: RuntimeFlavor = 'browser'): Promise<string> {
  let code = cached.get(flavor)
  if (!code) {
    code = load(flavor)
    cached.set(flavor, code)
  }
  return code
}

async function load(flavor: RuntimeFlavor): Promise<string> {
  const built = fileURLToPath(BUILT[flavor])
  let code: string
  if (existsSync(built)) {
    code = await readFile(built, 'utf8')
  } else {
    const source = fileURLToPath(SOURCE[flavor])
    if (!existsSync(source)) {
      throw new Error(
        `[unplugin-tms] the runtime is missing: neither ${built} nor ${source} exists; reinstall`,
      )
    }
    code = await bundle(source, flavor)
  }
  if (!/\bfunction _r\(/.test(code) || !/\bfunction _u\(/.test(code)) {
    throw new Error('[unplugin-tms] the runtime does not define _r/_u; the package is damaged, reinstall')
  }
  // The registration and the hot-update hook are appended to this code: its own source map comment
  // would then describe the wrong text.
  return code.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n')
}

// Only when running from the repository's TypeScript sources, where the devDependencies are installed.
// Found through createRequire so that the package build does not bundle them.
const require = createRequire(import.meta.url)

/** Both runtimes are several modules (the server one imports the browser one): bundled into one file, as tsdown makes them. */
async function bundle(source: string, flavor: RuntimeFlavor): Promise<string> {
  const entry = pathToFileURL(require.resolve('rolldown')).href
  const { rolldown } = (await import(entry)) as typeof import('rolldown')
  const build = await rolldown({
    input: source,
    platform: flavor === 'node' ? 'node' : 'browser',
    external: [/^node:/],
    logLevel: 'silent',
  })
  try {
    const { output } = await build.generate({ format: 'esm' })
    return output[0].code
  } finally {
    await build.close()
  }
}
