// `npm run example:<name>`: builds examples/<name> against a fresh emulator and prints its report.
import { fileURLToPath } from 'node:url'
import { clearCache, printReport, withDemoEmulator } from './demo-emulator.mjs'

const name = process.argv[2]
const examples = ['vite-react', 'vite-vue', 'vite-svelte', 'vite-ssr-react', 'webpack', 'rollup', 'esbuild']
if (!examples.includes(name)) {
  console.error(`usage: node scripts/example.mjs <${examples.join('|')}>`)
  process.exit(2)
}
const root = fileURLToPath(new URL(`../examples/${name}/`, import.meta.url))
await withDemoEmulator(async ({ control }) => {
  await clearCache(root)
  const { build } = await import(`../examples/${name}/build.mjs`)
  console.log(`\nbuilding examples/${name}`)
  await printReport(await build(), control)
})
