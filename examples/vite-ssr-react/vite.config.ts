import react from '@vitejs/plugin-react'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'
import shared from './tms.config.mjs'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the example script and the tests point them at the emulator).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tms({
      ...shared,
      // The server build reads the translations the client build just pulled: both bundles then hold
      // the same text, and hydration finds what the server rendered.
      ...(isSsrBuild ? { cache: 'offline' as const, push: false } : {}),
    }),
  ],
}))
