import { sveltekit } from '@sveltejs/kit/vite'
import tms from 'unplugin-tms/vite'
import { defineConfig } from 'vite'
import shared from './tms.config.mjs'

// SvelteKit builds its server and its client with this one config: both get the plugin, the server
// build the server runtime (a locale per request). TMS_CACHE=offline builds from the translations a
// `tms pull` left in .tms-cache, without the service: the same text in both builds.
export default defineConfig({
  plugins: [
    tms({ ...shared, ...(process.env.TMS_CACHE === 'offline' ? { cache: 'offline', push: false } : {}) }),
    sveltekit(),
  ],
  // This repository's node_modules holds another major of `cookie` at its top (SvelteKit's own is
  // nested under it), which Node would give the server bundle: bundle SvelteKit's. An app needs none of it.
  ssr: { noExternal: ['cookie'] },
})
