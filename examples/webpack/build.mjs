// Builds this example with webpack and the plugin; TMS_* variables point it at a service or the emulator.
import { fileURLToPath } from 'node:url'
import tms from 'unplugin-tms/webpack'
import webpack from 'webpack'
import shared from './tms.config.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

export const config = {
  mode: 'production',
  context: root,
  entry: './src/main.js',
  output: { path: `${root}dist`, filename: 'main.js', module: true, chunkFormat: 'module', clean: true },
  experiments: { outputModule: true },
  plugins: [
    tms({
      root,
      ...shared,
    }),
  ],
}

export async function build() {
  const stats = await new Promise((resolve, reject) =>
    webpack(config).run((error, result) => (error ? reject(error) : resolve(result))),
  )
  if (stats.hasErrors()) throw new Error(stats.toString('errors-only'))
  return `${root}dist`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
