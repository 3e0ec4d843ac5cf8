/** The Nuxt module: `modules: ['unplugin-tms/nuxt']` in nuxt.config (src/nuxt/index.ts). */
export {
  default,
  type NuxtLike,
  type NuxtModuleOptions,
  type NuxtPluginEntry,
  type TmsNuxtModule,
} from './nuxt/index'
