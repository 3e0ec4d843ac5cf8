import react from '@vitejs/plugin-react'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'
import shared from './tms.config.mjs'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the demo script points them at the emulator).
export default defineConfig({
  // The plugin's hooks wait on the service (push, pull): rolldown counts that wait as plugin time and,
  // past 1 s of a 3 s build (a slow network or a busy machine), prints a PLUGIN_TIMINGS warning about
  // it that no change to this app could act on.
  // es2022: src/main.tsx awaits its first setLocale at the top level, which the default target of vite 5
  // and 6 predates (vite 7 and later default to a target that has it).
  build: { target: 'es2022', rolldownOptions: { checks: { bundlerTimings: false } } },
  plugins: [react(), tms(shared)],
})
