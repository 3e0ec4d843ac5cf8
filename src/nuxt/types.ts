/**
 * The slice of Nuxt this integration reads and writes. Nuxt is not a dependency of this package (an
 * app brings its own), so neither its types nor @nuxt/kit are imported: these are the fields as Nuxt 3
 * and 4 spell them.
 */
import type { Options } from '../options'

/** `modules: [['unplugin-tms/nuxt', options]]`, or the `tms` key of nuxt.config: the plugin's options and two of the module's. */
export interface NuxtModuleOptions extends Options {
  /**
   * The cookie the browser writes its time zone to (`Intl.DateTimeFormat().resolvedOptions().timeZone`),
   * which the server renders the next page's dates in; `false` renders every page in `timeZone`.
   * @default 'tz'
   * @example false
   */
  timeZoneCookie?: string | false
  /**
   * The zone of a page when the request names none (first visit, `nuxi generate`'s pages).
   * @default the server's own zone
   * @example 'UTC'
   */
  timeZone?: string
}

/** A plugin entry of `nuxt.options.plugins` as Nuxt reads it. */
export interface NuxtPluginEntry {
  src: string
  mode?: 'server' | 'client' | 'all'
  /** Lower runs first; Nuxt's own plugins sit between -50 and 0, an app's at 0. */
  order?: number
}

/** The Nuxt object a module receives: its resolved options and its hooks. */
export interface NuxtLike {
  options: {
    vite: { plugins?: unknown[]; [key: string]: unknown }
    plugins: (string | NuxtPluginEntry)[]
    runtimeConfig: { public: Record<string, unknown>; [key: string]: unknown }
    [key: string]: unknown
  }
}

/** A Nuxt module as Nuxt installs it: a function of its options and Nuxt, with its metadata. */
export interface TmsNuxtModule {
  (options: NuxtModuleOptions, nuxt: NuxtLike): void
  meta: { name: string; configKey: string }
  getMeta(): Promise<{ name: string; configKey: string }>
}
