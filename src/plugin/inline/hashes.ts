import { createHash } from 'node:crypto'
import { escapeRegex } from '../../core/escape-regex'

/**
 * Content hashes in the file names of a locale copy. A file whose content differs from what the
 * bundler hashed (it holds translated text, or names another renamed file) gets a new hash computed
 * from its own content and from the content of every file it references, directly or not, as rollup
 * does for chunks that import each other in a cycle. So two copies share a hashed name only when the
 * files are byte for byte the same, and a file no locale changes keeps the bundler's name.
 */

/** The hash in a rollup/rolldown chunk name: where `preliminaryFileName` has its placeholder. */
export function hashFromPreliminary(fileName: string, preliminary: string | undefined): string | undefined {
  if (!preliminary || preliminary === fileName) return undefined
  const parts = preliminary.split(/!~\{[\w$]+\}~/)
  if (parts.length !== 2) return undefined
  const [head, tail] = parts as [string, string]
  if (!fileName.startsWith(head) || !fileName.endsWith(tail)) return undefined
  const hash = fileName.slice(head.length, fileName.length - tail.length)
  return /^[\w-]{4,}$/.test(hash) ? hash : undefined
}

/**
 * The hash in an asset name made from a rollup-style pattern (`assets/[name]-[hash][extname]`), or
 * undefined when the pattern has no `[hash]` or the name does not match it.
 */
export function hashFromPattern(fileName: string, pattern: string): string | undefined {
  if (!pattern.includes('[hash')) return undefined
  let source = '^'
  let hashGroups = 0
  for (const piece of pattern.split(/(\[[a-z]+(?::\d+)?\])/)) {
    const m = /^\[([a-z]+)(?::(\d+))?\]$/.exec(piece)
    if (!m) source += escapeRegex(piece)
    else if (m[1] === 'hash') {
      // rollup's and rolldown's default length is 8.
      source += `([\\w-]{${m[2] ?? 8}})`
      hashGroups++
    } else if (m[1] === 'extname') source += '(?:\\.[^./]*)?'
    else if (m[1] === 'ext') source += '[^./]*'
    else source += '.*?'
  }
  if (hashGroups !== 1) return undefined
  return new RegExp(`${source}$`).exec(fileName)?.[1]
}

/** A digest of one file's content (as the copy has it before its references are renamed). */
export function contentDigest(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('base64url')
}

/**
 * The digest of a file made from a bundler's file (`base`, its digest) by replacing fixed ranges with
 * `replacements`, in order. Their lengths go in first, so the joined text reads back one way only.
 * `joined` is the joined text as UTF-8, when the caller has it.
 */
export function replacementsDigest(
  base: string,
  replacements: readonly string[],
  joined?: Uint8Array,
): string {
  return createHash('sha256')
    .update(`${base}\0${replacements.map((r) => r.length).join(',')}\0`)
    .update(joined ?? replacements.join(''))
    .digest('base64url')
}

/**
 * A new hash of the same length and alphabet as `old`: hex when the bundler used hex (webpack), else
 * base64url (rollup, rolldown, vite). `digests` are the file's own digest first, then those of the
 * files it references, directly or not, in a stable order.
 */
export function newHash(old: string, digests: readonly string[]): string {
  const h = createHash('sha256')
  for (const d of digests) h.update(d).update('\0')
  const encoding = /^[0-9a-f]+$/.test(old) ? 'hex' : 'base64url'
  let digest = h.digest(encoding)
  // Same length as the old hash, so renaming a reference never moves the code around it.
  while (digest.length < old.length) digest += createHash('sha256').update(digest).digest(encoding)
  return digest.slice(0, old.length)
}
