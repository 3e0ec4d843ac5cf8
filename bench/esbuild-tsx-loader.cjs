// The dev-loop section's webpack loader for the app's TSX (bench/webpack-serve.mjs): esbuild strips the
// types and compiles JSX for React's automatic runtime, as a TypeScript loader would.
const { transformSync } = require('esbuild')

module.exports = function esbuildTsx(source) {
  const { code, map } = transformSync(source, {
    loader: 'tsx',
    jsx: 'automatic',
    sourcefile: this.resourcePath,
    sourcemap: 'external',
    format: 'esm',
  })
  this.callback(null, code, map)
}
