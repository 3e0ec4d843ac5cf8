/**
 * What a dev-loop server answers at RETAINED_ROUTE: the memory it retains after two full collections
 * (it runs with `node --expose-gc`, bench/dev-server.ts), the heap in use plus what V8 accounts outside
 * it (Buffers, strings' backing stores), in bytes. The bench's vite configs add `retainedMemoryPlugin()`,
 * bench/webpack-serve.mjs the route; plain JavaScript so that both load it as it is.
 */
export const RETAINED_ROUTE = '/__bench_retained'

export function answerRetained(_req, res) {
  globalThis.gc()
  globalThis.gc()
  const m = process.memoryUsage()
  res.end(String(m.heapUsed + m.external))
}

export function retainedMemoryPlugin() {
  return {
    name: 'bench-retained',
    configureServer(server) {
      server.middlewares.use(RETAINED_ROUTE, answerRetained)
    },
  }
}
