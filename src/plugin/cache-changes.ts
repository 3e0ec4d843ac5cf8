import { relative, sep } from 'node:path'
import type { ResolvedOptions } from '../options'

/**
 * What a change of the disk cache while a dev server or a watch runs asks of the plugin: a target
 * locale's translations file (a `tms pull`) has that locale checked again; the manifest (the messages'
 * records: strings pushed) a new build start from the cache. vite's dev server learns of the change from
 * its watcher (dev.ts), webpack's and rspack's watch from the files the compiler says changed
 * (webpack-like.ts).
 */

const CACHE_FILE = /^(?:manifest\.json|locales[\\/][^\\/]+\.json)$/
const LOCALE_FILE = /^locales[\\/]([^\\/]+)\.(published|pending)\.json$/

/** `file` relative to the cache directory when it is one of the cache's files the plugin reads, else undefined. */
export function cacheFileOf(file: string, options: ResolvedOptions): string | undefined {
  const rel = relative(options.cacheDir, file)
  return rel.startsWith(`..${sep}`) || !CACHE_FILE.test(rel) ? undefined : rel
}

/**
 * The target locales whose cache file is among `files` (relative to the cache directory), none for a
 * file of another locale or retrieval type; undefined when the manifest changed (the messages' records).
 */
export function changedLocales(files: readonly string[], options: ResolvedOptions): string[] | undefined {
  const locales = new Set<string>()
  for (const file of files) {
    const name = LOCALE_FILE.exec(file)
    if (!name) return undefined
    if (name[2] === options.retrievalType && options.locales.includes(name[1]!)) locales.add(name[1]!)
  }
  return [...locales]
}

/**
 * What a watch rebuild redoes, given the files changed since the last build (absolute paths): `keep`
 * the build when no cache file changed (an edited module is transformed again and a new message gets
 * its id there, as in vite's dev server), the locales to check again when only translations changed,
 * `start` a new build otherwise (the manifest changed).
 */
export function rebuildPlan(
  modified: Iterable<string>,
  options: ResolvedOptions,
): 'keep' | 'start' | string[] {
  const files: string[] = []
  for (const file of modified) {
    const rel = cacheFileOf(file, options)
    if (rel !== undefined) files.push(rel)
  }
  if (files.length === 0) return 'keep'
  const locales = changedLocales(files, options)
  if (locales === undefined) return 'start'
  return locales.length === 0 ? 'keep' : locales
}
