// `npm run demo`: the main job end to end, on loopback only. Starts the embedded emulator, builds
// examples/vite-react with the plugin (extract, push into a job, authorize, the emulator's
// auto-translator publishes from its translation memory, pull, inject, pseudo-locales), prints the
// coverage report and the requests the build made, then stops everything it started.
// `npm run demo -- --serve` also serves the built app (with its locale switcher) until Ctrl-C.
import { fileURLToPath } from 'node:url'
import { build } from '../examples/vite-react/build.mjs'
import { clearCache, printReport, withDemoEmulator } from './demo-emulator.mjs'

const root = fileURLToPath(new URL('../examples/vite-react/', import.meta.url))
const serve = process.argv.includes('--serve')

await withDemoEmulator(async ({ control }) => {
  await clearCache(root)
  console.log('\nbuilding examples/vite-react: fr-FR, de-DE, ja-JP and the pseudo-locales en-XA, ar-XB')
  const outDir = await build()
  const report = await printReport(outDir, control)
  const untranslated = Object.entries(report.locales).filter(([, c]) => c.missing > 0)
  if (untranslated.length > 0)
    throw new Error(`demo: untranslated messages in ${untranslated.map(([l]) => l).join(', ')}`)
  if (!serve) {
    console.log(
      '\nbuilt into examples/vite-react/dist. See it with a locale switcher: npm run demo -- --serve',
    )
    return
  }
  const { preview } = await import('vite')
  const server = await preview({
    root,
    configFile: `${root}vite.config.ts`,
    preview: { host: '127.0.0.1', port: 4173 },
  })
  console.log(
    `\nserving the built app at ${server.resolvedUrls.local[0]} (switch the locale at the top); Ctrl-C stops`,
  )
  await new Promise((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await server.close()
})
