// Builds this example with esbuild and the plugin; TMS_* variables point it at a service or the emulator.
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import tms from 'unplugin-tms/esbuild'
import shared from './tms.config.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

export async function build() {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/main.js'],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'dist',
    minify: true,
    plugins: [
      tms({
        root,
        ...shared,
      }),
    ],
  })
  return `${root}dist`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
