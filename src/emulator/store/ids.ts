import { createHash, randomBytes } from 'node:crypto'

/**
 * The uid a user is known by in records (`createdByUserUid`, `reportedByUserUid`): stable for a
 * user identifier, so authorship survives a restart, and not the identifier itself, which callers
 * must not learn from a record.
 */
export function userUid(userIdentifier: string): string {
  return createHash('sha256').update(`user\u0000${userIdentifier}`).digest('hex').slice(0, 12)
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** A random 12-character lowercase id, the form of job, issue and comment uids. */
export function shortUid(): string {
  const bytes = randomBytes(12)
  let out = ''
  // 256 % 36 leaves a small bias; these ids only need to be unique, not uniform.
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length]
  return out
}
