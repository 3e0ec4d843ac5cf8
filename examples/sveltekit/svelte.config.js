import adapter from '@sveltejs/adapter-node'

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    // `node build` serves the app; the pages marked `prerender` are written per locale at build time.
    adapter: adapter({ out: 'build' }),
  },
}
