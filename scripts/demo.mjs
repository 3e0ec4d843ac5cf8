// The demo grows with the product: for now it proves the package builds and its entries load.
const entries = [
  '',
  '/vite',
  '/webpack',
  '/rollup',
  '/esbuild',
  '/rspack',
  '/rolldown',
  '/runtime',
  '/client',
  '/emulator',
]
for (const entry of entries) await import(`unplugin-tms${entry}`)
console.log(`unplugin-tms: ${entries.length} entries load`)
