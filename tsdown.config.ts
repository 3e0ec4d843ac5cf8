import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vite: 'src/vite.ts',
    webpack: 'src/webpack.ts',
    rollup: 'src/rollup.ts',
    esbuild: 'src/esbuild.ts',
    rspack: 'src/rspack.ts',
    rolldown: 'src/rolldown.ts',
    runtime: 'src/runtime/index.ts',
    client: 'src/client/index.ts',
    emulator: 'src/emulator/index.ts',
    cli: 'src/cli/index.ts',
    // loaded by the extractor's worker threads (new URL('./extract-worker.mjs', import.meta.url))
    'extract-worker': 'src/core/extract/worker.ts',
  },
  format: 'esm',
  fixedExtension: true,
  platform: 'node',
  tsconfig: 'tsconfig.build.json',
  target: 'node20.19',
  // oxc's isolatedDeclaration API of the hoisted rolldown differs from the one tsdown 0.15 expects.
  dts: { oxc: false },
  clean: true,
  sourcemap: false,
})
