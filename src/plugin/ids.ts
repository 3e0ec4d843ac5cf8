import { hash } from 'node:crypto'

/**
 * The short id a message call is rewritten to, and the key of its translation in a catalog chunk.
 *
 * Derived from the message key alone (not from its position in a sorted list), so that adding one
 * message changes no other id: unchanged modules keep their transformed code, the bundler's caches
 * stay valid, and chunk hashes of modules that did not change stay the same. 48 bits: with 10,000
 * messages the chance of a collision is about 1 in 5 million, and one is detected at build start.
 */
export function messageId(key: string, spelling?: readonly string[]): string {
  // A call site that spells the placeholders differently from the message (`{user}` where the
  // message has `{name}`) needs its own id in the catalog, re-spelled to what its values object holds.
  // One-shot hash: a build makes an id per message, and a Hash object per id cost 4x as much.
  const text = spelling ? `${key}\u0001${spelling.join('\u0001')}` : key
  return hash('sha256', text, 'base64url').slice(0, 8)
}

/** Same length arrays with the same strings in order. */
export function sameSpelling(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i])
}
