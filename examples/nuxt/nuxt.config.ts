import shared from './tms.config.mjs'

const LOCALES = ['en-US', ...shared.locales, ...shared.pseudo]

// The unplugin-tms module: the plugin in Nuxt's Vite (the server build gets the server runtime), each
// request rendered in its locale and in the user's time zone (the `tz` cookie the browser writes), the
// page hydrated in the same. TMS_CACHE=offline builds from the translations a `tms pull` left in .tms-cache.
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  telemetry: false,
  modules: [
    [
      'unplugin-tms/nuxt',
      {
        ...shared,
        ...(process.env.TMS_CACHE === 'offline' ? { cache: 'offline', push: false } : {}),
        // The first visit's zone (the server's cookie is not set yet) and `nuxi generate`'s.
        timeZone: 'UTC',
      },
    ],
  ],
  hooks: {
    // `nuxi generate` (Nitro's static mode) writes every locale's page (the links from them are crawled
    // too). Not `nuxi build`: a route listed in `nitro.prerender.routes` is prerendered there as well and
    // then served as a file, the same page for every user, in no one's time zone.
    'nitro:config'(nitro) {
      if (!nitro.static) return
      nitro.prerender = {
        ...nitro.prerender,
        routes: [...(nitro.prerender?.routes ?? []), ...LOCALES.map((l) => `/${l}`)],
      }
    },
  },
})
