import { svelte } from '@sveltejs/vite-plugin-svelte'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'
import shared from './tms.config.mjs'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the example script points them at the emulator).
export default defineConfig({
  // The plugin's hooks wait on the service (push, pull); rolldown would count that as plugin time.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  plugins: [
    // Before Svelte's compiler: it rewrites the t(...) calls of the component source, markup included.
    tms(shared),
    svelte(),
  ],
})
