import type { Options } from '../options'
import { toText } from '../plugin/problems'
import { TmsSession } from '../plugin/session'

/**
 * The one sync of a Next.js build, when next.config is read: extraction, push and pull as the options
 * ask. Next then runs several compilers (server, edge, client) or Turbopack's loaders in worker
 * processes; each reads the cache this sync left (`cache: 'offline'`, no push), so the server and
 * the browser hold the same translations, as the Vite SSR docs ask of two builds.
 */
export async function syncOnce(
  options: Options,
  root: string,
  command: 'build' | 'serve',
): Promise<TmsSession> {
  const session = new TmsSession(options)
  session.configure({ root })
  const outcome = await session.startAndSync(command)
  for (const line of outcome.info) console.log(`[unplugin-tms] ${line}`)
  const errors = outcome.problems.filter((p) => p.severity === 'error')
  for (const p of outcome.problems) if (p.severity !== 'error') console.warn(toText(p))
  if (errors.length > 0) throw new Error(errors.map(toText).join('\n'))
  return session
}

/** The options every compiler and loader of the build runs with: the cache the sync filled, no network. */
export function offline(options: Options): Options {
  return { ...options, cache: 'offline', push: false }
}
