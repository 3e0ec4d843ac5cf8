import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * webpack 5.110 and later import an ES module loader (unplugin's loaders are `.mjs`) through a function
 * they make with `eval` during the first such load and keep for the life of the process. Made there, its
 * scope holds that load's callback, and through it the loader context and the whole first compilation:
 * a watch keeps its first compilation's module graph after every rebuild (about 20 MiB of the dev
 * server's heap at 2,000 modules; webpack-dev-server with only CommonJS loaders lets it go). Having
 * webpack make that function first from a load of nothing, before a watch's first compilation, leaves
 * it holding nothing of a compilation. Earlier webpack (loader-runner 4) makes no such function, and
 * rspack loads loaders its own way: for them this does nothing.
 */
export function makeLoaderImportEarly(webpack: unknown): void {
  const cache = createRequire(import.meta.url).cache
  const main = Object.values(cache).find((m) => m?.exports === webpack)?.filename
  if (!main) return
  const file = join(dirname(main), 'loaders', 'loadLoader.js')
  if (!existsSync(file)) return
  const loadLoader = createRequire(main)(file) as unknown
  if (typeof loadLoader !== 'function') return
  // No file at that path: the import fails and the callback drops the error; only the function stays.
  const nothing = { type: 'module', path: join(dirname(main), 'loaders', 'unplugin-tms-no-loader.mjs') }
  try {
    loadLoader(nothing, () => {})
  } catch {
    // A webpack whose loadLoader reads other fields: it keeps what it kept before.
  }
}
