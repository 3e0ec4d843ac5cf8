import react from '@astrojs/react'
import { defineConfig } from 'astro/config'
import tms from 'unplugin-tms/vite'
import { TIME_ZONE } from './src/locales.ts'
import shared from './tms.config.mjs'

/**
 * The page's locale and zone set before any island hydrates: Astro imports the `before-hydration`
 * script ahead of every island's component and waits for it (its top-level await included), whatever
 * the island's directive. The islands' first render is then the server's: in the page's locale (from
 * `<html lang>`, its catalog loaded) and in the zone the server wrote dates in (src/middleware.ts). A
 * `<script>` in the layout has no such order: islands hydrated before its catalog had loaded.
 */
const localeBeforeHydration = {
  name: 'tms-locale-before-hydration',
  hooks: {
    'astro:config:setup': ({ injectScript }) => {
      injectScript(
        'before-hydration',
        [
          "import { setLocale, setTimeZone } from 'unplugin-tms/runtime'",
          `setTimeZone(${JSON.stringify(TIME_ZONE)})`,
          'await setLocale(document.documentElement.lang)',
        ].join('\n'),
      )
    },
  },
}

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the tests point them at the emulator). TMS_CACHE=offline
// builds from the translations already in .tms-cache, without the service.
export default defineConfig({
  output: 'static',
  integrations: [react(), localeBeforeHydration],
  vite: {
    plugins: [
      tms({
        ...shared,
        ...(process.env.TMS_CACHE === 'offline' ? { cache: 'offline', push: false } : {}),
      }),
    ],
  },
})
