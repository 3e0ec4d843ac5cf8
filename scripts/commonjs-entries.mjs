/**
 * The CommonJS doors of the plugin entries (`require('unplugin-tms/webpack')`), written after tsdown
 * into dist/. Each is a few lines over the ESM entry, loaded with Node's require(esm) (20.19 is our
 * floor): one copy of the code, so no state is ever split between an ESM and a CJS copy. A bundler
 * entry's `module.exports` is the plugin factory itself, with `.default` pointing at it too, so both
 * `require('unplugin-tms/webpack')(options)` and the `.default(options)` of transpiled configs work.
 * The decision is in docs/bundling.md#commonjs-configs.
 */
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

// The folder tsdown just built into (scripts/build.ts passes it before swapping it in), or dist/.
const dist = process.argv[2] ? pathToFileURL(`${process.argv[2]}/`) : new URL('../dist/', import.meta.url)
// nuxt: the module function, as Nuxt (or a CommonJS config) loads it.
const BUNDLERS = ['vite', 'webpack', 'rollup', 'esbuild', 'rspack', 'rolldown', 'nuxt']
const HEADER = '// The CommonJS entry: the ESM one through require(esm) (scripts/commonjs-entries.mjs).\n'

for (const entry of BUNDLERS) {
  writeFileSync(
    new URL(`${entry}.cjs`, dist),
    `${HEADER}'use strict'\nconst plugin = require('./${entry}.mjs').default\nplugin.default = plugin\nmodule.exports = plugin\n`,
  )
  writeFileSync(
    new URL(`${entry}.d.cts`, dist),
    `declare const plugin: typeof import('./${entry}.mjs', { with: { 'resolution-mode': 'import' } }).default & {\n` +
      `  default: typeof import('./${entry}.mjs', { with: { 'resolution-mode': 'import' } }).default\n}\nexport = plugin\n`,
  )
}
// next.config's helper: its named exports (`const { withTms } = require('unplugin-tms/next')`).
writeFileSync(new URL('next.cjs', dist), `${HEADER}'use strict'\nmodule.exports = require('./next.mjs')\n`)
writeFileSync(
  new URL('next.d.cts', dist),
  "declare const next: typeof import('./next.mjs', { with: { 'resolution-mode': 'import' } })\nexport = next\n",
)
// Turbopack's loader (next.config's turbopack.rules name this file): a loader is a CommonJS function.
writeFileSync(
  new URL('next-loader.cjs', dist),
  `${HEADER}'use strict'\nmodule.exports = require('./next-loader.mjs').default\n`,
)
// The root has no one factory: its namespace (unplugin, unpluginFactory, default).
writeFileSync(new URL('index.cjs', dist), `${HEADER}'use strict'\nmodule.exports = require('./index.mjs')\n`)
writeFileSync(
  new URL('index.d.cts', dist),
  "declare const tms: typeof import('./index.mjs', { with: { 'resolution-mode': 'import' } })\nexport = tms\n",
)
