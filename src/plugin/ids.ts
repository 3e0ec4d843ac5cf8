import { hash } from 'node:crypto'

/**
 * The short id a message call is rewritten to, and the key of its translation in a catalog chunk.
 *
 * An id is the start of a base64url SHA-256 of the message key: 6 characters (36 bits), as Lingui's
 * and FormatJS's, since random characters do not compress and 2 more per message were the whole size
 * gap of a 20,000-message catalog. It depends on the message key (and, rarely, on whether another key
 * shares its start: below), not on a position in a sorted list or on the order modules are
 * transformed, so adding a message changes no other id: unchanged
 * modules keep their transformed code, the bundler's caches stay valid, and chunk hashes of modules
 * that did not change stay the same.
 *
 * 36 bits are few enough that two keys of one app may share the 6 characters (about one app in 340
 * at 20,000 messages), which is too often to fail the build. So the build start, which knows every
 * message, hands out the ids at once (`assignIds`, one hash per message, which the transform then
 * reuses, and which the ids memo keeps for the next build start: `ids-memo.ts`): each key of a group
 * sharing 6 characters gets its 8-character id (48 bits) instead,
 * whichever module is transformed first. An 8-character id never equals a 6-character one, and
 * only the few keys of such groups and the re-spelled sites have 8, so two keys sharing 8 (which
 * fails the build naming both) practically never happen.
 *
 * Adding a message whose 6 characters a key already has lengthens that key's id: the one exception to
 * "adding a message changes no other id". A bundler may keep that key's module as it was transformed
 * before (rollup's and webpack's watch rebuilds, webpack's filesystem cache), asking for the 6
 * characters, so the catalog of a module the transform did not meet holds the 6 too for such a key
 * (`Build.addId`). A message met after a dev server's build start whose 6 characters a key has
 * takes the 8 itself (`Build.newId`), as that key's module is served already. Remembering ids across
 * builds instead would make a build's output depend on its history.
 */
export const SHORT_ID_LENGTH = 6
/** The length of a colliding key's id and of a re-spelled site's id. */
export const LONG_ID_LENGTH = 8

/** The 8-character id of a message key (a site's `spelling` makes another one): the short id is its start. */
export function longId(key: string, spelling?: readonly string[]): string {
  // A call site that spells the placeholders differently from the message (`{user}` where the
  // message has `{name}`) needs its own id in the catalog, re-spelled to what its values object holds.
  // One-shot hash: a build makes an id per message, and a Hash object per id cost 4x as much.
  const text = spelling ? `${key}\u0001${spelling.join('\u0001')}` : key
  return hash('sha256', text, 'base64url').slice(0, LONG_ID_LENGTH)
}

/**
 * The digest of every key's long id in key order (`longs`: them joined, or the list): with the
 * messages' digest, what the plain ids are a function of (see `IdTable.stamp`).
 */
export function longsDigest(longs: string | readonly string[]): string {
  return hash('sha256', typeof longs === 'string' ? longs : longs.join(''), 'hex')
}

/**
 * The id of a message key, or of a site's re-spelling of it, when no other key shares its short
 * id. A re-spelled site's id keeps the 8 characters, so it never meets a message's 6-character one.
 */
export function messageId(key: string, spelling?: readonly string[]): string {
  const id = longId(key, spelling)
  return spelling ? id : id.slice(0, SHORT_ID_LENGTH)
}

/** The error of two message keys with one id. */
export function sharedIdError(id: string, a: string, b: string): Error {
  return new Error(
    `[unplugin-tms] two messages share the catalog id ${id}: ${JSON.stringify(a)} and ${JSON.stringify(b)}; change one text slightly`,
  )
}

/**
 * The ids of a build's message keys: a key whose short id no other key has gets it, and each key of a
 * group sharing one gets its long id. The answer does not depend on the order of `keys`. Two keys
 * with one long id throw the error naming both. The lengths are arguments for the tests, which can
 * make keys share 1 or 2 characters where 6 or 8 would take millions of tries. `longIds[i]`, when
 * given, is `longId` of the i-th key, remembered by the ids memo: the keys are then not hashed.
 */
export function assignIds(
  keys: Iterable<string>,
  length: { short: number; long: number } = { short: SHORT_ID_LENGTH, long: LONG_ID_LENGTH },
  longIds?: readonly string[],
): Map<string, string> {
  return assignIdsBothWays(keys, length, longIds).ids
}

/** {@link assignIds}, and the reverse map it makes on the way: id -> its key. */
export function assignIdsBothWays(
  keys: Iterable<string>,
  length: { short: number; long: number } = { short: SHORT_ID_LENGTH, long: LONG_ID_LENGTH },
  longIds?: readonly string[],
): { ids: Map<string, string>; owners: Map<string, string> } {
  const ids = new Map<string, string>()
  /** Id -> the key that has it; a short id stays with the first key of its group until the end. */
  const owners = new Map<string, string>()
  /** The short ids of groups: no key has them once every key is assigned. */
  const groups: string[] = []
  const claim = (key: string, id: string): void => {
    const other = owners.get(id)
    if (other !== undefined) throw sharedIdError(id, other, key)
    ids.set(key, id)
    owners.set(id, key)
  }
  // One pass, one hash per key: a group is found when its second key comes, which then moves the
  // first to its long id too; rare enough that hashing that one again costs nothing.
  let i = 0
  for (const key of keys) {
    const long = (longIds?.[i++] ?? longId(key)).slice(0, length.long)
    const short = long.slice(0, length.short)
    const owner = owners.get(short)
    if (owner === undefined) {
      ids.set(key, short)
      owners.set(short, key)
      continue
    }
    if (ids.get(owner) === short) {
      claim(owner, longId(owner).slice(0, length.long))
      groups.push(short)
    }
    claim(key, long)
  }
  for (const short of groups) owners.delete(short)
  return { ids, owners }
}

/** Same length arrays with the same strings in order. */
export function sameSpelling(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i])
}
