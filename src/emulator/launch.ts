/**
 * The server side of `startEmulator`: it imports the HTTP libraries (fastify, @fastify/multipart,
 * yaml), so index.ts loads it only after checking they are installed.
 */
import { EmulatorContext } from './context'
import { buildServer } from './server'
import type { EmulatorOptions, RunningEmulator } from './types'

export async function launchEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const ctx = new EmulatorContext(options)
  const app = buildServer(ctx)
  ctx.restorePersisted()
  const host = options.host ?? '127.0.0.1'
  await app.listen({ port: options.port ?? 0, host })
  const address = app.server.address()
  if (address === null || typeof address === 'string')
    throw new Error('[unplugin-tms] emulator has no TCP address')
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  let closing: Promise<void> | null = null
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    close(): Promise<void> {
      closing ??= (async () => {
        ctx.timers.clear()
        await app.close()
        await ctx.placeholders.close()
        await ctx.persistence?.flush()
      })()
      return closing
    },
  }
}
