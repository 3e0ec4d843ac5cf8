import react from '@vitejs/plugin-react'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'

// projectId, baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL,
// TMS_USER_IDENTIFIER and TMS_USER_SECRET (the demo script points them at the emulator).
export default defineConfig({
  plugins: [
    react(),
    tms({
      locales: ['fr-FR', 'de-DE', 'ja-JP'],
      pseudo: ['en-XA', 'ar-XB'],
      job: { name: 'vite-react example', authorize: true },
    }),
  ],
})
