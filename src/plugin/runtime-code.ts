import { shippedCode } from './shipped-code'

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
  // Both runtimes are several modules (the server one imports the browser one): bundled into one
  // file, as tsdown makes them.
  const code = await shippedCode({
    built: BUILT[flavor],
    source: SOURCE[flavor],
    what: 'the runtime',
    platform: flavor === 'node' ? 'node' : 'browser',
    external: [/^node:/],
  })
  if (!/\bfunction _r\(/.test(code) || !/\bfunction _u\(/.test(code)) {
    throw new Error('[unplugin-tms] the runtime does not define _r/_u; the package is damaged, reinstall')
  }
  // The registration and the hot-update hook are appended to this code: its own source map comment
  // would then describe the wrong text.
  return code.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n')
}
