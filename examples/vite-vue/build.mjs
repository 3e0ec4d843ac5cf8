// Builds this example with Vite (its vite.config.ts); TMS_* variables point it at a service or the emulator.
import { fileURLToPath } from 'node:url'
import { build as viteBuild } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

export async function build() {
  await viteBuild({ root, configFile: `${root}vite.config.ts`, logLevel: 'warn' })
  return `${root}dist`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
