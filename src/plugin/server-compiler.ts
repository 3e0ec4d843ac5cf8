/**
 * Whether a webpack or rspack compiler builds for a server, whose runtime gets a locale per request
 * (the server runtime, src/runtime/node.ts) rather than the browser's one locale per page.
 *
 * A compiler targets Node when its `target` names node (`'node'`, `'node18.17'`, `'async-node'`,
 * `['node', 'es2022']`, `'electron-main'`) or its `externalsPresets.node` is on (Next.js's server
 * compiler has both). Next.js's edge compiler (`name: 'edge-server'`, middleware and edge routes)
 * targets `web` but runs on a server too, with `node:async_hooks` provided by Next's edge runtime.
 */
interface LikeCompilerOptions {
  name?: string
  target?: unknown
  externalsPresets?: { node?: boolean }
}

const NODE_TARGET = /^(?:node|async-node|electron-main|electron-preload)/

export function isServerCompiler(options: LikeCompilerOptions | undefined): boolean {
  if (!options) return false
  if (options.externalsPresets?.node === true) return true
  if (options.name === 'edge-server') return true
  const targets = Array.isArray(options.target) ? options.target : [options.target]
  return targets.some((t) => typeof t === 'string' && NODE_TARGET.test(t))
}
