import type { DiskCache } from '../cache'
import type { LocaleCheck, LocaleProblem } from '../check/locale'
import { messagesDigest } from '../messages-digest'
import { type StoredText, textOf } from '../stored-text'
import { LITERALS, type MemoHeader, memoBody, parseMemo } from './catalog-memo-file'
import {
  baseKey,
  MEMO_SCHEMA,
  type MemoMessage,
  type MemoOptions,
  sha256,
  textsDigest,
} from './catalog-memo-keys'
import type { ManifestSums } from './manifest'

export { MEMO_SCHEMA, type MemoOptions, modulesKey, rowsKey } from './catalog-memo-keys'

/**
 * The catalog memo: what a build (a production build, or a dev server's, which writes it when told by
 * {@link CatalogMemos.autosave}) made of one locale's cached or pulled translations, kept next to them
 * (`<cacheDir>/catalogs/`), so that the next build whose inputs are the same reports the same problems
 * and ships the same catalog literal without reading, checking and quoting tens of thousands of
 * translations again. A memo answers only for the exact inputs it was made of, all in its keys:
 *
 * - the locale's key: this file's schema, the plugin's version, Node's (its ICU data gives the plural
 *   rules), the source locale, the placeholder format, the retrieval type, the formats, the project, every
 *   message in order (key, text, placeholders, instruction, maxLength: their `messagesDigest`, which
 *   the extraction keeps, so a build whose files did not change hashes none), and the digests of the
 *   manifest (the messages' hashcodes) and of the locale's cache file (`FileDigests`: known from their
 *   stat when it is the recorded one, so a warm build reads neither; a pseudo-locale's and the source
 *   locale's catalogs have no file: their kind stands in). A build with network keys its memos by
 *   what the pull brought instead (the constructor's `pulled`): each message's hashcode, and the
 *   translation of each, so that a pull that brought what the last one did reuses its check;
 * - the rows' key: the catalog's ids in order, what each stands for (message key and placeholder
 *   spelling, see {@link rowsKey}), and the fallback locale (`sourceCatalog`); a build that met a
 *   message its start did not know asks no memo.
 *
 * A memo also remembers what the manifest says of the messages (how many to push, the first with no
 * record): a build whose every target locale's memo answers does not parse the manifest at all.
 *
 * A build whose output needs every translation rather than a literal (inline copies: `keepTexts`) also
 * keeps a target locale's checked translations, in a file of their own next to its memo (`.texts`:
 * the digest of the rest, the locale's key, then the translation of each message in order, null for
 * none), so that its next build parses one array instead of reading the cache file and checking each
 * translation again; a runtime build, which ships the literal, neither reads nor writes it. Each of
 * its copies' texts of the output's ids is kept as a literal is (`CatalogCache.keptSlots`), the
 * source locale's copy in a memo of its own, so a copy whose memo answers reads neither.
 *
 * A memo that cannot be read, does not parse, differs from the digest it starts with (a byte changed
 * on the disk), or answers other keys is a miss, never an error; the build then makes the catalog and
 * writes the memo again (atomically, see `DiskCache.writeMemo`). It holds what the build outputs anyway
 * (the catalog literal, the translation problems it reports), never an option's value.
 */

/** A locale's sync outcome as a memo gives it back: the translations themselves are decoded only if asked. */
export interface MemoCheck {
  problems: LocaleProblem[]
  incomplete: string[]
  translated: number
  /** The translations, when they were decoded and checked now (the memo did not answer). */
  texts?: Map<string, string>
}

interface LocaleMemo {
  key: string
  /**
   * The memo read at the sync, when it answered the locale's key; `texts`: its checked translations as
   * kept (`keepTexts`), one per message in order.
   */
  found: { header: MemoHeader; literals: StoredText[]; texts?: string } | undefined
  /** This build's outcome, for the memo it writes. */
  outcome: Omit<MemoCheck, 'texts'>
  /** Makes the translations when a catalog asks and the memo did not keep them. */
  texts: (() => Map<string, string>) | undefined
  /** The locale was checked, or a literal recorded, since the memo was last written (see {@link CatalogMemos.settled}). */
  unwritten?: boolean
  /** `keepTexts`: the translations this build checked, which its texts file does not hold yet. */
  unkept?: ReadonlyMap<string, string>
}

/**
 * A build's messages as its memos know them: how many and their digest (`messagesDigest`), which key
 * the memos, and the list, read only when a texts file is written or read (a build whose memos answer
 * reads no message).
 */
export interface MemoMessages {
  count: number
  digest: string
  list: () => readonly MemoMessage[]
}

/** {@link MemoMessages} of messages read when first asked; `known`: their count and digest, when known without them. */
export function memoMessagesOf(
  list: () => readonly MemoMessage[],
  known: { count?: number; digest?: string } = {},
): MemoMessages {
  return { count: known.count ?? list().length, digest: known.digest ?? messagesDigest(list()), list }
}

/**
 * The catalog memos of one build: read at its sync, asked and written by its catalogs. A build with no
 * network reads them before its sync ({@link probe}, {@link checkCached}); one with network after
 * each locale's pull ({@link checkPulled}).
 */
export class CatalogMemos {
  private readonly cache: DiskCache
  private readonly retrievalType: 'published' | 'pending'
  private readonly base: string
  private readonly app: string
  /** How many messages the keys cover (a problem names one by its index). */
  readonly messages: number
  /** The messages in order: a texts file holds a translation per message, by their keys. */
  private readonly listed: () => readonly MemoMessage[]
  private keysMade: readonly string[] | undefined
  /** Whether the build needs every translation (inline copies): see the texts files above. */
  private readonly keepTexts: boolean
  private readonly locales = new Map<string, LocaleMemo>()
  /**
   * Each target locale's cache file (its digest, and its bytes when read) and memo, read by
   * {@link probe}.
   */
  private readonly probed = new Map<
    string,
    { digest: string; bytes?: Buffer; key: string; found: LocaleMemo['found'] }
  >()
  /** What this build knows the manifest says, for the memos it writes. */
  private sums: ManifestSums | undefined
  /** Told each time a memo has something new to write (see {@link autosave}). */
  private unwritten: (() => void) | undefined

  /**
   * `manifest`: the manifest's digest (a build with no network): its bytes tell each message's hashcode.
   * A build with network gives, once its push is done, each message's `pulled` hashcodes instead (what
   * the manifest and the push say), as a pull or another app's push rewrites the manifest; its memos
   * are files of their own (a build with no network next keys its memos by the cache files' digests), and
   * each locale's is asked after its pull ({@link checkPulled}).
   */
  constructor(
    cache: DiskCache,
    options: MemoOptions,
    messages: MemoMessages,
    manifest: { digest: string } | { pulled: readonly (string | undefined)[] },
    keepTexts = false,
  ) {
    const { count, digest, list } = messages
    this.cache = cache
    this.retrievalType = options.retrievalType
    this.messages = count
    this.listed = list
    this.keepTexts = keepTexts
    if ('digest' in manifest) {
      this.base = baseKey(cache.projectId, options, { count, digest }, manifest.digest)
      this.app = sha256(options.root).slice(0, 12)
    } else {
      const hashcodes = `pulled\u0000${sha256(manifest.pulled.map((h) => h ?? '').join('\n'))}`
      this.base = baseKey(cache.projectId, options, { count, digest }, hashcodes)
      this.app = sha256(`${options.root}\u0000pulled`).slice(0, 12)
    }
  }

  /** The messages' keys in order, made when a texts file is first written or read. */
  private get keys(): readonly string[] {
    this.keysMade ??= this.listed().map((m) => m.key)
    return this.keysMade
  }

  /**
   * Reads each target locale's cache file and its memo. When every one's memo answers, what they
   * remember of the manifest: the sync then does not parse it.
   */
  async probe(locales: readonly string[]): Promise<ManifestSums | undefined> {
    await Promise.all(
      locales.map(async (locale) => {
        const file = await this.cache.localeDigest(locale, this.retrievalType)
        if (!file) return
        const key = sha256(`${this.base}\u0000${locale}\u0000file\u0000${file.digest}`)
        this.probed.set(locale, { ...file, key, found: await this.read(locale, key) })
      }),
    )
    const all = locales.map((locale) => this.probed.get(locale)?.found?.header.manifest)
    const first = all[0]
    if (!first || all.some((s) => s?.unknown !== first.unknown || s.absent !== first.absent)) return undefined
    this.sums = first
    return first
  }

  /** What the manifest says, read by this build: its memos remember it. */
  remember(sums: ManifestSums): void {
    this.sums = sums
  }

  /**
   * A target locale's cached translations, checked by `check`, through its memo ({@link probe} read
   * both): the memo's outcome when it answers the file's bytes, else the check's now. Undefined when
   * the file cannot be read or does not hold the locale's translations: the sync reads it the usual
   * way and tells why.
   */
  checkCached(
    locale: string,
    check: (byHashcode: Readonly<Record<string, string>>) => LocaleCheck,
  ): MemoCheck | undefined {
    const probed = this.probed.get(locale)
    if (!probed) return undefined
    // The file's bytes stay only as long as the decode below may need them (a dev server's build lasts).
    this.probed.delete(locale)
    const { digest, key, found } = probed
    let held = probed.bytes
    const decoded = () => {
      const file = this.cache.localeFile(locale, this.retrievalType)
      const bytes = held ?? this.cache.bytesOf(file, digest)
      held = undefined
      const read = this.cache.parseLocale(bytes, locale, this.retrievalType)
      return read.hit ? check(read.value.translations) : undefined
    }
    if (found) return this.answered(locale, key, found, () => decoded()?.texts ?? new Map())
    const checked = decoded()
    return checked && this.checked(locale, key, checked)
  }

  /**
   * A target locale's pulled translations (hashcode -> text), checked by `check`, through its memo:
   * the memo's outcome when the translation of every message is the one the memo was made of (its
   * translations then decoded by `check` only if a catalog asks), else the check's now.
   */
  async checkPulled(
    locale: string,
    translations: Readonly<Record<string, string>>,
    hashcodes: readonly (string | undefined)[],
    check: (byHashcode: Readonly<Record<string, string>>) => LocaleCheck,
  ): Promise<MemoCheck> {
    const key = sha256(`${this.base}\u0000${locale}\u0000pulled\u0000${textsDigest(translations, hashcodes)}`)
    const found = await this.read(locale, key)
    if (found) return this.answered(locale, key, found, () => check(translations).texts)
    return this.checked(locale, key, check(translations))
  }

  /** A locale the memo answered: its outcome now, its texts decoded only if a catalog asks. */
  private answered(
    locale: string,
    key: string,
    found: NonNullable<LocaleMemo['found']>,
    texts: () => Map<string, string>,
  ): MemoCheck {
    const { problems, incomplete, translated } = found.header
    const outcome = { problems, incomplete, translated }
    const memo: LocaleMemo = { key, found, outcome, texts: undefined }
    const decoded = (): Map<string, string> => {
      const made = texts()
      if (this.keepTexts) memo.unkept = made
      return made
    }
    const kept = found.texts
    memo.texts = kept === undefined ? decoded : () => this.keptTexts(kept) ?? decoded()
    this.locales.set(locale, memo)
    return outcome
  }

  /** A locale checked now: its outcome and texts, remembered under `key` when the build writes memos. */
  private checked(locale: string, key: string, checked: LocaleCheck): MemoCheck {
    const outcome = {
      problems: checked.problems,
      incomplete: checked.incomplete,
      translated: checked.texts.size,
    }
    const unkept = this.keepTexts ? checked.texts : undefined
    this.locales.set(locale, { key, found: undefined, outcome, texts: undefined, unwritten: true, unkept })
    this.unwritten?.()
    return { ...outcome, texts: checked.texts }
  }

  /**
   * A locale whose catalog is not made of a cache file: a pseudo-locale (`make` gives its
   * translations, made only if a catalog asks) or the source locale of `sourceCatalog`.
   */
  async made(locale: string, make?: () => Map<string, string>): Promise<void> {
    const kind = make ? 'pseudo' : 'source'
    const key = sha256(`${this.base}\u0000${locale}\u0000${kind}`)
    const found = await this.read(locale, key)
    this.locales.set(locale, {
      key,
      found,
      outcome: { problems: [], incomplete: [], translated: 0 },
      texts: make,
    })
  }

  /** The translations of a locale whose memo answered at the sync: decoded now, once. */
  translations(locale: string): Map<string, string> | undefined {
    const memo = this.locales.get(locale)
    const make = memo?.texts
    if (!memo || !make) return undefined
    memo.texts = undefined
    return make()
  }

  /** Whether the translations of `locale` wait in its memo (see {@link translations}). */
  defers(locale: string): boolean {
    return this.locales.get(locale)?.texts !== undefined
  }

  /** The locale's key (see above): it names every input of what the locale's memo keeps. */
  localeKey(locale: string): string | undefined {
    return this.locales.get(locale)?.key
  }

  /**
   * The locale's catalog literal over rows of key `rows` (see {@link rowsKey}), if its memo holds it.
   * The rows' key names every id and what it stands for, and the memo's digest tells a changed byte:
   * the literal is the one a build made of these rows, shipped as read (as the transform memo's code is).
   */
  literal(locale: string, rows: string): string | undefined {
    const stored = this.storedLiteral(locale, rows)
    return stored === undefined ? undefined : textOf(stored)
  }

  /**
   * {@link literal} as the memo holds it: the file's bytes, for a caller that writes them out as they
   * are. `of`: the rows' key, or the modules' key (see `modulesKey`) a build noted with them.
   */
  storedLiteral(locale: string, of: string | { modules: string }): StoredText | undefined {
    const found = this.locales.get(locale)?.found
    const at = found?.header.literals.findIndex((l) =>
      typeof of === 'string' ? l.rows === of : l.modules === of.modules,
    )
    return at === undefined ? undefined : found!.literals[at]
  }

  /**
   * Keeps a literal this build made in the locale's memo, written at {@link settled}; `modules`: the
   * modules' key of the bundle whose ids are its rows.
   */
  record(locale: string, rows: string, literal: string, modules?: string): void {
    const memo = this.locales.get(locale)
    if (!memo) return
    const kept = memo.found?.header.literals ?? []
    const literals = [literal, ...(memo.found?.literals ?? [])].slice(0, LITERALS)
    const header: MemoHeader = {
      ...this.headerOf(memo),
      literals: [{ rows, bytes: Buffer.byteLength(literal) }, ...kept].slice(0, LITERALS),
    }
    memo.found = { header, literals }
    if (modules !== undefined) this.noteModules(locale, rows, modules)
    memo.unwritten = true
    this.unwritten?.()
  }

  /**
   * Notes that a bundle of modules' key `modules` uses the ids of the literal of rows' key `rows`, so
   * that its next build finds the literal without making the rows (see `CatalogCache`). One literal
   * has a modules' key at a time. Written with the memo's next write: a memo that answered is not
   * written again for a note.
   */
  noteModules(locale: string, rows: string, modules: string): void {
    const header = this.locales.get(locale)?.found?.header
    if (!header) return
    header.literals = header.literals.map((l) => {
      if (l.rows === rows) return { ...l, modules }
      return l.modules === modules ? { rows: l.rows, bytes: l.bytes } : l
    })
  }

  /**
   * Calls `write` now if a memo waits to be written, and each time one has something new to write
   * (undefined: no longer). A dev server's build never ends, so its memos are written when this says.
   */
  autosave(write: (() => void) | undefined): void {
    this.unwritten = write
    if (write && [...this.locales.values()].some((m) => m.unwritten || m.unkept)) write()
  }

  /**
   * Drops what the memos know of these locales: a dev server checked their changed cache files again,
   * so their literals are made anew, and no memo of theirs is written (the next start checks them).
   */
  forget(locales: readonly string[]): void {
    for (const locale of locales) this.locales.delete(locale)
  }

  /** A memo's header as this build would write it, before its literals. */
  private headerOf(memo: LocaleMemo): Omit<MemoHeader, 'literals'> {
    return {
      schema: MEMO_SCHEMA,
      key: memo.key,
      ...memo.outcome,
      ...(this.sums ? { manifest: this.sums } : {}),
    }
  }

  /**
   * Writes each memo whose locale was checked or had a literal recorded since, once however often the
   * build recorded one (esbuild: its literal of every id, then the bundle's), so no two writes of one
   * file race, and the texts files of the translations checked since (`keepTexts`). Resolves when they
   * are on disk; a failed write costs only the next build's time.
   */
  async settled(): Promise<void> {
    const writes: Promise<void>[] = []
    const write = (file: string, body: string): void => {
      writes.push(this.cache.writeMemo(file, body).catch(() => undefined))
    }
    writes.push(this.cache.digests.save())
    for (const [locale, memo] of this.locales) {
      const file = this.cache.memoFile(locale, this.retrievalType, this.app)
      if (memo.unwritten) {
        memo.unwritten = false
        const header: MemoHeader = memo.found?.header ?? { ...this.headerOf(memo), literals: [] }
        write(file, memoBody(header, (memo.found?.literals ?? []).map(textOf)))
      }
      if (memo.unkept) {
        const texts = memo.unkept
        memo.unkept = undefined
        write(`${file}.texts`, `${memo.key}\n${JSON.stringify(this.keys.map((k) => texts.get(k) ?? null))}`)
      }
    }
    await Promise.all(writes)
  }

  /** The translations a texts file keeps, or undefined when they are not one text or null per message. */
  private keptTexts(json: string): Map<string, string> | undefined {
    let kept: unknown
    try {
      kept = JSON.parse(json)
    } catch {
      return undefined
    }
    if (!Array.isArray(kept) || kept.length !== this.keys.length) return undefined
    const texts = new Map<string, string>()
    for (let i = 0; i < kept.length; i++) {
      const text: unknown = kept[i]
      if (typeof text === 'string') texts.set(this.keys[i]!, text)
      else if (text !== null) return undefined
    }
    return texts
  }

  /** A texts file's translations (JSON), when it answers `key` and no byte changed. */
  private async readTexts(locale: string, key: string): Promise<string | undefined> {
    const body = await this.cache.readMemo(
      `${this.cache.memoFile(locale, this.retrievalType, this.app)}.texts`,
    )
    if (body === undefined || !body.startsWith(`${key}\n`)) return undefined
    return body.slice(key.length + 1)
  }

  /** The locale's memo, when it answers `key`. */
  private async read(locale: string, key: string): Promise<LocaleMemo['found']> {
    // Sealed with the digest of the rest: a memo whose bytes changed on the disk is a miss.
    const body = await this.cache.readMemoBytes(this.cache.memoFile(locale, this.retrievalType, this.app))
    const parsed = body && parseMemo(body, key, this.messages)
    if (!parsed) return undefined
    const { header, literals } = parsed
    const texts = this.keepTexts ? await this.readTexts(locale, key) : undefined
    return { header, literals, texts }
  }
}
