import type { IdSource } from '../core/catalog/index'
import type { Message } from '../core/extract/index'
import { assignIdsBothWays, longId, longsDigest, SHORT_ID_LENGTH, sameSpelling, sharedIdError } from './ids'

/** A re-spelled site's id as a remembered transform keeps it: id, message key, placeholder spelling. */
export type SpelledId = readonly [id: string, key: string, spelling: string[]]

/** Where a build's long ids come from (the ids memo, `ids-memo.ts`). */
export interface LongIds {
  /** The digest of the long ids (`longsDigest`), when known without hashing a key. */
  remembered(): string | undefined
  /** Each key's long id, in key order. */
  longIds(): readonly string[]
}

/**
 * A build's ids: which id each message key has (`src/plugin/ids.ts` derives them) and what each id
 * stands for, with the lookups a build needs fast. Ids are only added during a build, so `size` tells
 * a cache whether what it made is still whole.
 *
 * The table of every key's id is made when first needed. A build whose every module a transform memo
 * answers with this build's {@link stamp} ({@link adoptVerified}) and whose catalogs its catalog memos
 * answer never needs it: its ids and what each stands for are the remembered ones.
 */
export class IdTable {
  /** Every message's key, read when the table is made. */
  private readonly keys: () => readonly string[]
  /** The build start's `messagesDigest`. */
  private readonly messages: string
  private readonly longIds: LongIds | undefined
  private stamped: string | undefined
  private readonly messageOf: (key: string) => Message | undefined
  private table:
    | {
        /** See {@link plain}. */
        plain: Map<string, string>
        /** Id -> key of `plain`. */
        given: Map<string, string>
        /** See {@link sources}. */
        sources: Map<string, IdSource>
      }
    | undefined
  /** Remembered transforms' ids adopted before the table was made, registered when it is. */
  private readonly verified: { ids: readonly string[]; spelled: readonly SpelledId[] }[] = []
  /**
   * The ids of {@link verified}, and the re-spelled ones' sources, gathered when a catalog first asks
   * (after the transforms, while the bundler's threads render) for those verified until then.
   */
  private readonly verifiedIds = new Set<string>()
  private readonly verifiedSpelled = new Map<string, IdSource>()
  private gathered = 0

  /**
   * Every message's id at once when first needed, so that a key sharing its short id with another
   * gets the long one whichever module is transformed first; the hashes are the ones the transform
   * used to make. `longIds`: each key's long id, from the ids memo (`ids-memo.ts`), so that no key is
   * hashed here.
   */
  constructor(
    keys: () => readonly string[],
    messagesDigest: string,
    messageOf: (key: string) => Message | undefined,
    longIds?: LongIds,
  ) {
    this.keys = keys
    this.messages = messagesDigest
    this.messageOf = messageOf
    this.longIds = longIds
  }

  /**
   * The digest of the build start's messages and of their keys' long ids: every plain id is a function
   * of them, so the ids of a remembered transform that a build with the same stamp verified hold in
   * this one too (see `TransformMemo`). Known from the ids memo when it holds these messages, else once
   * the table is made.
   */
  get stamp(): string {
    if (this.stamped === undefined) {
      const remembered = this.table ? undefined : this.longIds?.remembered()
      if (remembered === undefined) this.made()
      else this.stamped = `${this.messages}:${remembered}`
    }
    return this.stamped!
  }

  /**
   * Message key -> id of the sites that spell the placeholders as the message does (a hash per site
   * otherwise): every message's, made at build start (see `assignIds`), and a key new since then.
   */
  get plain(): Map<string, string> {
    return this.made().plain
  }

  /** Id -> what it stands for. */
  get sources(): Map<string, IdSource> {
    return this.made().sources
  }

  /** How many ids the build has met. */
  get size(): number {
    return this.table ? this.table.sources.size : this.gather().size
  }

  /** The id of a message as its sites spell it; two messages with one id fail the build naming both. */
  idOf(key: string, sitePlaceholders: readonly string[] | undefined, message?: Message): string {
    const { plain, sources } = this.made()
    const m = message ?? this.messageOf(key)
    const spelling =
      m && sitePlaceholders && !sameSpelling(sitePlaceholders, m.placeholders)
        ? [...sitePlaceholders]
        : undefined
    const id = spelling ? longId(key, spelling) : (plain.get(key) ?? this.newId(key))
    const known = sources.get(id)
    if (!known) {
      sources.set(id, spelling ? { key, spelling } : { key })
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
    const { given, plain, sources } = this.made()
    const long = longId(key)
    const short = long.slice(0, SHORT_ID_LENGTH)
    const id = given.has(short) || sources.has(short) ? long : short
    const other = given.get(id)
    if (other !== undefined) throw sharedIdError(id, other, key)
    plain.set(key, id)
    given.set(id, key)
    return id
  }

  /** Whether this build gives `id` to a message key as its plain id (see `TransformMemo`). */
  holds(id: string): boolean {
    return this.made().given.has(id)
  }

  /**
   * Registers an id a remembered transform wrote: a plain id (which {@link holds} said this build gives
   * to a key), or a re-spelled site's, whose source the memo kept. What {@link idOf} would have
   * registered for the module's sites, and the same error when two keys meet on one id.
   */
  adopt(id: string, spelled?: IdSource): void {
    const { given, sources } = this.made()
    const source = spelled ?? { key: given.get(id)! }
    const known = sources.get(id)
    if (!known) sources.set(id, source)
    else if (known.key !== source.key || !sameSpelling(known.spelling ?? [], source.spelling ?? [])) {
      throw sharedIdError(id, known.key, source.key)
    }
  }

  /**
   * Registers the ids of a remembered transform that a build with this {@link stamp} verified: its
   * plain ids are this build's plain ids of the same keys, so none is looked up now. Until the table
   * is made they are only counted, and registered when it is.
   */
  adoptVerified(ids: readonly string[], spelled: readonly SpelledId[]): void {
    if (this.table) {
      this.adoptAll(ids, spelled)
      return
    }
    this.verified.push({ ids, spelled })
  }

  /**
   * What an id stands for, as a catalog memo's rows' key writes it (see `rowsKey`): `plain` for a
   * message's plain id, its source for a re-spelled or unknown one (undefined: not an id of this
   * build). Asked of ids that {@link adoptVerified} registered alone, it needs no table.
   */
  described(id: string): IdSource | 'plain' | undefined {
    if (!this.table && this.gather().has(id)) return this.verifiedSpelled.get(id) ?? 'plain'
    const { plain, sources } = this.made()
    const source = sources.get(id)
    if (source && !source.spelling && plain.get(source.key) === id) return 'plain'
    return source
  }

  /**
   * Adds a module's id to `ids`. A module the transform did not meet in this build may be a bundler's
   * disk cache's copy (webpack's filesystem cache) made by a process in which its key still had the
   * short id, before a message sharing those 6 characters was added. Its catalog holds the short id
   * for the key too, unless a key of this build has it or two keys would.
   */
  addId(ids: Set<string>, key: string, id: string): void {
    const { given, plain, sources } = this.made()
    ids.add(id)
    if (id.length === SHORT_ID_LENGTH || plain.get(key) !== id) return
    const short = id.slice(0, SHORT_ID_LENGTH)
    const known = sources.get(short)
    if (given.has(short) || (known && (known.key !== key || known.spelling))) return
    if (!known) sources.set(short, { key })
    ids.add(short)
  }

  /**
   * A verified transform's ids. A plain id no key of this build has (a memo rewritten on the disk, its
   * stamp kept) stands for nothing: it is left out of the catalogs, and its sites show the source text.
   */
  private adoptAll(ids: readonly string[], spelled: readonly SpelledId[]): void {
    const { given } = this.made()
    const respelled = new Set(spelled.map(([id]) => id))
    for (const id of ids) if (!respelled.has(id) && given.has(id)) this.adopt(id)
    for (const [id, key, spelling] of spelled) this.adopt(id, { key, spelling })
  }

  /** {@link verifiedIds}, with the ids of the transforms verified since it was last asked. */
  private gather(): Set<string> {
    for (; this.gathered < this.verified.length; this.gathered++) {
      const { ids, spelled } = this.verified[this.gathered]!
      for (const id of ids) this.verifiedIds.add(id)
      for (const [id, key, spelling] of spelled) this.verifiedSpelled.set(id, { key, spelling })
    }
    return this.verifiedIds
  }

  /** The table of every key's id, made when first asked, with the verified transforms' ids in it. */
  private made(): NonNullable<IdTable['table']> {
    if (this.table) return this.table
    const keys = this.keys()
    const longs = this.longIds?.longIds() ?? keys.map((key) => longId(key))
    const { ids, owners } = assignIdsBothWays(keys, undefined, longs)
    this.stamped ??= `${this.messages}:${longsDigest(longs)}`
    this.table = { plain: ids, given: owners, sources: new Map() }
    for (const { ids, spelled } of this.verified.splice(0)) this.adoptAll(ids, spelled)
    this.gathered = 0
    this.verifiedIds.clear()
    this.verifiedSpelled.clear()
    return this.table
  }
}
