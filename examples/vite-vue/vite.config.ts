import vue from '@vitejs/plugin-vue'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'
import shared from './tms.config.mjs'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the demo script points them at the emulator).
export default defineConfig({
  // The plugin's hooks wait on the service (push, pull): rolldown counts that wait as plugin time and
  // may warn about it on a slow network or a busy machine; nothing in this app could act on it.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  plugins: [vue(), tms(shared)],
})
