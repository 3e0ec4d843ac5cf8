import type { Options } from '../options'
import { toText } from '../plugin/problems'
import { TmsSession } from '../plugin/session'

/**
 * The loader Turbopack runs on the app's script files (next.config's `turbopack.rules`, written by
 * withTms): message calls become lookups by id, as the plugin's transform does. It runs in Turbopack's
 * Node worker processes, each with its own session: the extraction at its first file gives every
 * message the id the generated catalogs use (ids come from the message keys, not from the order files
 * are met), and the translations come from the cache the sync at config time filled (`cache:
 * 'offline'`). A message typed while `next dev` runs gets its id here but has no translation until
 * the dev server restarts: it shows its source text.
 */

/** The part of webpack's loader context Turbopack provides that this loader uses. */
interface LoaderContext {
  resourcePath: string
  getOptions(): { root: string; options: Options }
  async(): (error: Error | null, code?: string, map?: unknown) => void
  emitWarning(error: Error): void
  emitError(error: Error): void
}

const NODE_MODULES = /[\\/]node_modules[\\/]/
const sessions = new Map<string, Promise<TmsSession>>()

function sessionFor(root: string, options: Options): Promise<TmsSession> {
  const key = JSON.stringify([root, options])
  let made = sessions.get(key)
  if (!made) {
    const session = new TmsSession(options)
    session.configure({ root })
    made = session.start(process.env.NODE_ENV === 'production' ? 'build' : 'serve').then(() => session)
    // A failed start is tried again by the next file, not remembered.
    made.catch(() => sessions.delete(key))
    sessions.set(key, made)
  }
  return made
}

export default function tmsLoader(this: LoaderContext, source: string): void {
  const callback = this.async()
  // Next 15's rules have no condition to keep packages out: they pass through here.
  if (NODE_MODULES.test(this.resourcePath)) {
    callback(null, source)
    return
  }
  const { root, options } = this.getOptions()
  sessionFor(root, options).then(
    (session) => {
      const result = session.transform(source, this.resourcePath)
      if (!result) {
        callback(null, source)
        return
      }
      for (const p of result.problems) {
        if (p.severity === 'error') this.emitError(new Error(toText(p)))
        else this.emitWarning(new Error(toText(p)))
      }
      callback(null, result.code, result.map ?? undefined)
    },
    (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
  )
}
