// A webpack loader for the React bundler test: the JSX left after the plugin's transform, compiled by esbuild.
const { transformSync } = require('esbuild')

module.exports = function jsxLoader(source) {
  return transformSync(source, { loader: 'jsx', jsx: 'automatic', format: 'esm' }).code
}
