// The dev-loop section's webpack loader for the app's TSX (bench/webpack-serve.mjs): SWC strips the
// types, compiles JSX for React's automatic runtime in its development form, and adds React Refresh's
// registrations, as a webpack React app's development loader does (swc-loader or babel-loader with
// react-refresh/babel), so that an edited component updates in place instead of reloading the page.
const { transformSync } = require('@swc/core')

module.exports = function swcRefresh(source) {
  const { code, map } = transformSync(source, {
    filename: this.resourcePath,
    sourceMaps: true,
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic', development: true, refresh: true } },
    },
    module: { type: 'es6' },
  })
  this.callback(null, code, map && JSON.parse(map))
}
