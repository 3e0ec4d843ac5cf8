/**
 * The slice of Next.js's config this integration reads and writes. Next is not a dependency of this
 * package (an app brings its own, 15 or 16), so its types are not imported: these are the fields as
 * both majors spell them.
 */
export interface NextConfigObject {
  webpack?: ((config: WebpackConfigLike, context: NextWebpackContext) => WebpackConfigLike) | null
  turbopack?: TurbopackConfigLike
  [key: string]: unknown
}

/** What `next.config` may export: the object, or a function of the phase that returns it. */
export type NextConfigInput =
  | NextConfigObject
  | ((
      phase: string,
      context: { defaultConfig: NextConfigObject },
    ) => NextConfigObject | Promise<NextConfigObject>)

/** The function `withTms` returns, which Next calls with the phase once the config is loaded. */
export type NextConfigFunction = (
  phase: string,
  context: { defaultConfig: NextConfigObject },
) => Promise<NextConfigObject>

/** Next's second argument of `webpack(config, context)`: which compiler this is. */
export interface NextWebpackContext {
  isServer: boolean
  dev: boolean
  nextRuntime?: 'nodejs' | 'edge'
  [key: string]: unknown
}

export interface WebpackConfigLike {
  plugins?: unknown[]
  [key: string]: unknown
}

export interface TurbopackConfigLike {
  rules?: Record<string, unknown>
  resolveAlias?: Record<string, unknown>
  [key: string]: unknown
}
