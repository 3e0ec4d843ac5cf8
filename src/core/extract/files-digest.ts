/**
 * The identity of a set of per-file results (each file's path and content hash), which the extraction
 * cache's merged line records: the merge it holds is reused while the same results are asked for.
 */
import type { CachedFile } from './types'

/** Identity of a set of per-file results, for the merged line. */
export function filesDigest(cachedFiles: readonly CachedFile[]): string {
  // A run asks up to three times for the same list (merged line, disk state, write): made once.
  let digest = digests.get(cachedFiles)
  if (digest === undefined) {
    digest = digestOf(cachedFiles)
    digests.set(cachedFiles, digest)
  }
  return digest
}

const digests = new WeakMap<readonly CachedFile[], string>()

function digestOf(cachedFiles: readonly CachedFile[]): string {
  let s = ''
  for (const e of cachedFiles) s += `${e.result.file}\u0000${e.hash}\n`
  return `${cachedFiles.length}:${s.length}:${hashString(s)}`
}

function hashString(s: string): string {
  // FNV-1a over UTF-16 units, twice with different seeds: cheap, and a collision only costs a merge.
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`
}
