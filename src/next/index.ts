import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Options } from '../options'
import { offline, syncOnce } from './sync'
import { turbopackConfig, writeGeneratedModules } from './turbopack'
import type { NextConfigFunction, NextConfigInput } from './types'
import { webpackWithTms } from './webpack'

export type { NextConfigFunction, NextConfigInput, NextConfigObject } from './types'

/** Next's phases in which a bundler runs (`next dev`, `next build`); `next start` only reads the config. */
const BUNDLING_PHASES: Record<string, 'build' | 'serve'> = {
  'phase-production-build': 'build',
  'phase-development-server': 'serve',
}

/** Set once the sync has run in this process tree: Next reads the config again in its workers. */
const SYNCED = 'UNPLUGIN_TMS_NEXT_SYNCED'

/**
 * next.config with unplugin-tms: the plugin in Next's webpack (and rspack) compilers, or Turbopack's
 * loader and generated runtime and catalog modules when Next runs Turbopack (`next dev` and `next
 * build` of Next 16 unless `--webpack`; `--turbopack` on Next 15).
 *
 * @example
 * // next.config.mjs
 * import { withTms } from 'unplugin-tms/next'
 * export default withTms({ reactStrictMode: true }, { locales: ['fr-FR', 'de-DE'] })
 */
export function withTms(nextConfig: NextConfigInput = {}, options: Options = {}): NextConfigFunction {
  return async (phase, context) => {
    const own = typeof nextConfig === 'function' ? await nextConfig(phase, context) : nextConfig
    const command = BUNDLING_PHASES[phase]
    if (command === undefined) return own
    const root = options.root ?? process.cwd()
    const turbopack = Boolean(process.env.TURBOPACK)
    const first = process.env[SYNCED] === undefined
    // The sync once per `next build` or `next dev`; its workers read the cache it filled.
    const session =
      first || turbopack ? await syncOnce(first ? options : offline(options), root, command) : undefined
    process.env[SYNCED] = '1'
    if (!turbopack) return { ...own, webpack: webpackWithTms(own.webpack, offline(options)) }
    const dir = await writeGeneratedModules(session!, root)
    const loader = join(new URL('.', import.meta.url).pathname, 'next-loader.cjs')
    return {
      ...own,
      turbopack: turbopackConfig(own.turbopack, {
        root,
        dir,
        loader,
        options: offline(options),
        nextMajor: nextMajor(root),
      }),
    }
  }
}

/** The major of the app's Next, from its package.json (16 when it cannot be read: the newest form). */
function nextMajor(root: string): number {
  try {
    const require = createRequire(join(root, 'package.json'))
    const { version } = require('next/package.json') as { version: string }
    return Number(version.split('.')[0])
  } catch {
    return 16
  }
}
