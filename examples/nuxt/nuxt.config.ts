import tms from 'unplugin-tms/vite'
import shared from './tms.config.mjs'

const LOCALES = ['en-US', ...shared.locales, ...shared.pseudo]

// Nuxt builds its server and its client with Vite: both get the plugin, the server build the server
// runtime. TMS_CACHE=offline builds from the translations a `tms pull` left in .tms-cache.
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  telemetry: false,
  vite: {
    plugins: [
      tms({ ...shared, ...(process.env.TMS_CACHE === 'offline' ? { cache: 'offline', push: false } : {}) }),
    ],
  },
  // `nuxi generate` writes these pages, every locale's (the links from them are crawled too).
  nitro: { prerender: { routes: LOCALES.map((locale) => `/${locale}`) } },
})
