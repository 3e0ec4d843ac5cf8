// Builds this example with Vite (its vite.config.ts): the client bundle into dist/client, then the
// server bundle into dist/server. TMS_* variables point it at a service or the emulator.
import { fileURLToPath } from 'node:url'
import { build as viteBuild } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

export async function build({ outDir = `${root}dist` } = {}) {
  const configFile = `${root}vite.config.ts`
  await viteBuild({ root, configFile, logLevel: 'warn', build: { outDir: `${outDir}/client` } })
  await viteBuild({
    root,
    configFile,
    logLevel: 'warn',
    build: { ssr: 'src/entry-server.tsx', outDir: `${outDir}/server` },
  })
  return `${outDir}/client`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
