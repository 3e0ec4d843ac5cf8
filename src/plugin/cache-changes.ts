import { relative, sep } from 'node:path'
import type { ResolvedOptions } from '../options'

/**
 * What a change of the disk cache while a dev server or a watch runs asks of the plugin: a target
 * locale's translations file (a `tms pull`) has that locale checked again; the manifest (the messages'
 * records: strings pushed) a new build start from the cache. vite's dev server learns of the change from
 * its watcher (dev.ts), webpack's and rspack's dev servers from their own watch of the locale files
 * (pull-channel.ts), both through {@link CacheChanges}; a watch without a dev server from the files
 * the compiler says changed (webpack-like.ts).
 */

const CACHE_FILE = /^(?:manifest\.json|locales[\\/][^\\/]+\.json)$/
const LOCALE_FILE = /^locales[\\/]([^\\/]+)\.(published|pending)\.json$/

/** `file` relative to the cache directory when it is one of the cache's files the plugin reads, else undefined. */
export function cacheFileOf(file: string, options: ResolvedOptions): string | undefined {
  const rel = relative(options.cacheDir, file)
  return rel.startsWith(`..${sep}`) || !CACHE_FILE.test(rel) ? undefined : rel
}

/** What a dev server or a watch redoes: keep its build, check these locales again, or start anew. */
export type RefreshPlan = 'keep' | 'start' | string[]

/**
 * The plan for cache `files` that changed (relative to the cache directory, each a `cacheFileOf`):
 * `keep` the build when none is a file the build reads (another retrieval type's, a locale the app does
 * not build), the target locales to check again when only translations changed (a `tms pull`), `start`
 * a new build when the manifest changed (the messages' records: strings pushed).
 */
export function planOf(files: readonly string[], options: ResolvedOptions): RefreshPlan {
  const locales = new Set<string>()
  for (const file of files) {
    const name = LOCALE_FILE.exec(file)
    if (!name) return 'start'
    if (name[2] === options.retrievalType && options.locales.includes(name[1]!)) locales.add(name[1]!)
  }
  return locales.size === 0 ? 'keep' : [...locales]
}

/**
 * What a watch rebuild redoes, given the files changed since the last build (absolute paths): the
 * cache files' plan (`planOf`); with no cache file among them the build is kept, an edited module
 * transformed again and a new message given its id there, as in vite's dev server.
 */
export function rebuildPlan(modified: Iterable<string>, options: ResolvedOptions): RefreshPlan {
  const files: string[] = []
  for (const file of modified) {
    const rel = cacheFileOf(file, options)
    if (rel !== undefined) files.push(rel)
  }
  return planOf(files, options)
}

/**
 * How long a dev server waits for a burst of cache writes to end: `tms pull` replaces each file by one
 * rename, one event per file; a file changed during a refresh is in the next. Part of every pull's time
 * to screen.
 */
export const CACHE_DEBOUNCE_MS = 20

/**
 * A dev server's changes of the cache, from its own source of file events (vite's watcher, or
 * fs.watch of the locales folder): each burst's plan handed to `refresh` once the burst ended, one
 * refresh at a time (a change during a refresh is in the next), none once closed.
 */
export class CacheChanges {
  private readonly optionsOf: () => ResolvedOptions | undefined
  private readonly refresh: (plan: 'start' | string[]) => Promise<void>
  private readonly failed: (error: Error) => void
  /** The cache files (relative to the cache directory) changed since the last refresh began. */
  private readonly files = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private refreshing = Promise.resolve()
  private closed = false

  /** `optionsOf`: the build's options once it started (before that, no change is the plugin's). */
  constructor(
    optionsOf: () => ResolvedOptions | undefined,
    refresh: (plan: 'start' | string[]) => Promise<void>,
    failed: (error: Error) => void,
  ) {
    this.optionsOf = optionsOf
    this.refresh = refresh
    this.failed = failed
  }

  /** A file changed (an absolute path): a cache file's change waits for the end of its burst. */
  changed(file: string): void {
    const options = this.optionsOf()
    const rel = options && cacheFileOf(file, options)
    if (rel === undefined || this.closed) return
    this.files.add(rel)
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.queue(), CACHE_DEBOUNCE_MS)
  }

  close(): void {
    this.closed = true
    clearTimeout(this.timer)
  }

  private queue(): void {
    this.refreshing = this.refreshing
      .then(() => {
        const options = this.optionsOf()
        if (this.closed || !options) return
        const plan = planOf([...this.files], options)
        this.files.clear()
        if (plan !== 'keep') return this.refresh(plan)
      })
      .catch((error: Error) => {
        if (!this.closed) this.failed(error)
      })
  }
}
