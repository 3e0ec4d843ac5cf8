import { join } from 'node:path'
import { defineConfig } from 'tsdown'

const shared = {
  format: 'esm',
  fixedExtension: true,
  platform: 'node',
  tsconfig: 'tsconfig.build.json',
  target: 'node20.19',
  // oxc's isolatedDeclaration API of the hoisted rolldown differs from the one tsdown 0.15 expects.
  dts: { oxc: false },
  sourcemap: false,
} as const

export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      vite: 'src/vite.ts',
      webpack: 'src/webpack.ts',
      rollup: 'src/rollup.ts',
      esbuild: 'src/esbuild.ts',
      rspack: 'src/rspack.ts',
      rolldown: 'src/rolldown.ts',
      next: 'src/next.ts',
      nuxt: 'src/nuxt.ts',
      'next-loader': 'src/next/loader.ts',
      runtime: 'src/runtime/index.ts',
      client: 'src/client/index.ts',
      emulator: 'src/emulator/index.ts',
      cli: 'src/cli/index.ts',
      // loaded by the extractor's worker threads (new URL('./extract-worker.mjs', import.meta.url))
      'extract-worker': 'src/core/extract/worker.ts',
    },
    // The Nuxt module's runtime plugins, as source: the app's Nuxt builds them (src/nuxt/index.ts).
    // And the runtime's proxy of a vite production build (src/plugin/virtual-plugin.ts).
    copy: (options) => [
      ...['request', 'page'].map((plugin) => ({
        from: `src/nuxt/${plugin}-plugin.mjs`,
        to: join(options.outDir, `nuxt-${plugin}.mjs`),
      })),
      { from: 'src/plugin/runtime-proxy.mjs', to: join(options.outDir, 'runtime-proxy.mjs') },
    ],
    clean: true,
  },
  // A build of its own: in the one above, the code it shares with runtime.mjs would become a shared
  // chunk, and each runtime file must be whole, as the plugin embeds its text in a virtual module.
  { ...shared, entry: { 'runtime-node': 'src/runtime/node.ts' }, clean: false },
  // The React binding, whole and apart: it imports the runtime by its bare specifier, which the plugin
  // resolves to the build's one runtime module (an app, its lookups and the binding share one locale).
  {
    ...shared,
    platform: 'browser',
    target: 'es2022',
    entry: { react: 'src/react/index.ts' },
    external: ['react', 'unplugin-tms/runtime'],
    clean: false,
  },
  // unplugin-tms/vue: vue and the runtime stay imports, so the app's bundle holds one of each (the
  // plugin resolves unplugin-tms/runtime to the app's runtime module).
  {
    ...shared,
    platform: 'browser',
    target: 'es2022',
    entry: { vue: 'src/vue/index.ts' },
    external: ['vue', 'unplugin-tms/runtime'],
    clean: false,
  },
  // The Svelte binding, with its component as source beside it (dist/T.svelte): the app's own
  // Svelte compiles it, as with any Svelte library. The runtime stays an import the plugin resolves.
  {
    ...shared,
    platform: 'neutral',
    target: 'es2022',
    entry: { svelte: 'src/svelte/index.ts' },
    external: [/\.svelte$/, /^svelte(\/|$)/, 'unplugin-tms/runtime'],
    // Into the build's own folder: `npm run build` builds into a new one and swaps (scripts/build.ts).
    copy: (options) => [{ from: 'src/svelte/T.svelte', to: join(options.outDir, 'T.svelte') }],
    clean: false,
  },
  // The dev overlay's page code, whole: the vite dev server serves its text as a virtual module
  // (src/plugin/overlay/page-code.ts); no build of an app ever includes it.
  {
    ...shared,
    platform: 'browser',
    target: 'es2022',
    dts: false,
    entry: { 'overlay-page': 'src/overlay/index.ts' },
    clean: false,
  },
])
