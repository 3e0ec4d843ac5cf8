import { defineConfig } from 'astro/config'
import tms from 'unplugin-tms/vite'
import shared from './tms.config.mjs'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the tests point them at the emulator). TMS_CACHE=offline
// builds from the translations already in .tms-cache, without the service.
export default defineConfig({
  output: 'static',
  vite: {
    plugins: [
      tms({
        ...shared,
        ...(process.env.TMS_CACHE === 'offline' ? { cache: 'offline', push: false } : {}),
      }),
    ],
  },
})
