import { fileURLToPath } from 'node:url'
import vite from '../vite'
import type { NuxtLike, NuxtModuleOptions, TmsNuxtModule } from './types'

export type { NuxtLike, NuxtModuleOptions, NuxtPluginEntry, TmsNuxtModule } from './types'

const META = { name: 'unplugin-tms', configKey: 'tms' }

/**
 * Where the module's plugins run: before Nuxt's router plugin (order -20ish), which resolves the first
 * route and runs its middleware, so the app's middleware already sees the request's locale.
 */
const FIRST = -1000

/**
 * The Nuxt module: the plugin in Nuxt's Vite (the server build gets the server runtime, the client
 * build the browser one), a server plugin that renders each request in its locale and time zone, and a
 * client plugin that hydrates in the ones the server rendered in. A plain module function, as Nuxt
 * accepts: no @nuxt/kit dependency for three additions to the config.
 *
 * @example
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: [['unplugin-tms/nuxt', { locales: ['fr-FR', 'de-DE'] }]],
 * })
 */
const tmsModule: TmsNuxtModule = Object.assign(
  (inline: NuxtModuleOptions, nuxt: NuxtLike): void => {
    const fromConfig = nuxt.options[META.configKey] as NuxtModuleOptions | undefined
    const { timeZoneCookie = 'tz', timeZone, ...plugin } = { ...fromConfig, ...inline }
    nuxt.options.vite.plugins ??= []
    nuxt.options.vite.plugins.push(vite(plugin))
    // What the server plugin reads at request time (runtimeConfig is Nuxt's way to hand a module's
    // settings to its runtime code); public, as the client plugin writes the cookie.
    nuxt.options.runtimeConfig.public.tms = { timeZoneCookie, timeZone: timeZone ?? null }
    nuxt.options.plugins.unshift(
      { src: fileURLToPath(new URL('./nuxt-request.mjs', import.meta.url)), mode: 'server', order: FIRST },
      { src: fileURLToPath(new URL('./nuxt-page.mjs', import.meta.url)), mode: 'client', order: FIRST },
    )
  },
  { meta: META, getMeta: () => Promise.resolve(META) },
)

export default tmsModule
