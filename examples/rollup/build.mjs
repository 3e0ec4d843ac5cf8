// Builds this example with Rollup and the plugin; TMS_* variables point it at a service or the emulator.
import { fileURLToPath } from 'node:url'
import { rollup } from 'rollup'
import tms from 'unplugin-tms/rollup'
import shared from './tms.config.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

export async function build() {
  const bundle = await rollup({
    input: `${root}src/main.js`,
    plugins: [
      tms({
        root,
        ...shared,
      }),
    ],
  })
  await bundle.write({ dir: `${root}dist`, format: 'es' })
  await bundle.close()
  return `${root}dist`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
