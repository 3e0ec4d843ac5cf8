import type { IdSource } from '../core/catalog/index'
import type { Message } from '../core/extract/index'
import { assignIds, longId, SHORT_ID_LENGTH, sameSpelling, sharedIdError } from './ids'

/**
 * A build's ids: which id each message key has (`src/plugin/ids.ts` derives them) and what each id
 * stands for, with the lookups a build needs fast. Ids are only added during a build, so `size` tells
 * a cache whether what it made is still whole.
 */
export class IdTable {
  /** Id -> what it stands for. */
  readonly sources: Map<string, IdSource> = new Map()
  /**
   * Message key -> id of the sites that spell the placeholders as the message does (a hash per site
   * otherwise): every message's, made at build start (see `assignIds`), and a key new since then.
   */
  readonly plain: Map<string, string>
  /** Id -> key of `plain`, once a key new since the build start or a disk cache's module needs it. */
  private givenIds: Map<string, string> | undefined
  private readonly messageOf: (key: string) => Message | undefined

  /**
   * Every message's id at once, so that a key sharing its short id with another gets the long one
   * whichever module is transformed first; the hashes are the ones the transform used to make.
   * `longIds`: each key's long id, from the ids memo (`ids-memo.ts`), so that no key is hashed here.
   */
  constructor(
    keys: Iterable<string>,
    messageOf: (key: string) => Message | undefined,
    longIds?: readonly string[],
  ) {
    this.plain = assignIds(keys, undefined, longIds)
    this.messageOf = messageOf
  }

  /** How many ids the build has met. */
  get size(): number {
    return this.sources.size
  }

  /** The id of a message as its sites spell it; two messages with one id fail the build naming both. */
  idOf(key: string, sitePlaceholders: readonly string[] | undefined, message?: Message): string {
    const m = message ?? this.messageOf(key)
    const spelling =
      m && sitePlaceholders && !sameSpelling(sitePlaceholders, m.placeholders)
        ? [...sitePlaceholders]
        : undefined
    const id = spelling ? longId(key, spelling) : (this.plain.get(key) ?? this.newId(key))
    const known = this.sources.get(id)
    if (!known) {
      this.sources.set(id, spelling ? { key, spelling } : { key })
    } else if (known.key !== key || !sameSpelling(known.spelling ?? [], spelling ?? [])) {
      throw sharedIdError(id, known.key, key)
    }
    return id
  }

  /**
   * The id of a key the build start did not know (a module changed in a dev server): the short id
   * unless a key has it already (its module is served), then the long one.
   */
  private newId(key: string): string {
    const given = this.given()
    const long = longId(key)
    const short = long.slice(0, SHORT_ID_LENGTH)
    const id = given.has(short) || this.sources.has(short) ? long : short
    const other = given.get(id)
    if (other !== undefined) throw sharedIdError(id, other, key)
    this.plain.set(key, id)
    given.set(id, key)
    return id
  }

  /** Whether this build gives `id` to a message key as its plain id (see `TransformMemo`). */
  holds(id: string): boolean {
    return this.given().has(id)
  }

  /**
   * Registers an id a remembered transform wrote: a plain id (which {@link holds} said this build gives
   * to a key), or a re-spelled site's, whose source the memo kept. What {@link idOf} would have
   * registered for the module's sites, and the same error when two keys meet on one id.
   */
  adopt(id: string, spelled?: IdSource): void {
    const source = spelled ?? { key: this.given().get(id)! }
    const known = this.sources.get(id)
    if (!known) this.sources.set(id, source)
    else if (known.key !== source.key || !sameSpelling(known.spelling ?? [], source.spelling ?? [])) {
      throw sharedIdError(id, known.key, source.key)
    }
  }

  /** Id -> key of `plain`: made when first needed (a rare build, or one whose transforms a memo answers). */
  private given(): Map<string, string> {
    this.givenIds ??= new Map([...this.plain].map(([key, id]) => [id, key]))
    return this.givenIds
  }

  /**
   * Adds a module's id to `ids`. A module the transform did not meet in this build may be a bundler's
   * disk cache's copy (webpack's filesystem cache) made by a process in which its key still had the
   * short id, before a message sharing those 6 characters was added. Its catalog holds the short id
   * for the key too, unless a key of this build has it or two keys would.
   */
  addId(ids: Set<string>, key: string, id: string): void {
    ids.add(id)
    if (id.length === SHORT_ID_LENGTH || this.plain.get(key) !== id) return
    const short = id.slice(0, SHORT_ID_LENGTH)
    const known = this.sources.get(short)
    if (this.given().has(short) || (known && (known.key !== key || known.spelling))) return
    if (!known) this.sources.set(short, { key })
    ids.add(short)
  }
}
