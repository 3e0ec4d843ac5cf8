import {
  buildCatalog,
  type CatalogInput,
  type CatalogRow,
  catalogRows,
  eachCatalogTranslation,
  type IdSource,
} from '../core/catalog/index'
import type { Message } from '../core/extract/index'
import type { CompiledMessage } from '../core/icu/compile'
import { jsString } from '../core/js-string'
import { type StoredText, textOf } from '../core/stored-text'
import type { SyncResult } from '../core/sync'
import { modulesKey, rowsKey } from '../core/sync/catalog-memo'
import type { IdTable } from './id-table'
import type { KeptSlots } from './inline-texts'
import type { ModuleUsage } from './module-usage'
import { type CatalogMap, literalDigest, translationLiteral } from './virtual'

/**
 * A build's catalogs: a pure renderer of a catalog's literal, and the one cache of what the build
 * made of it (per locale, the catalog and the literal of every id, and the literal of the ids a
 * bundle's modules use). Every entry records what it was made of (how many ids, which rows, which
 * sync) and is made again when that changed: ids are only added during a build.
 */

/** What the catalogs of a build are made of: the slice of `Build` read here. */
export interface CatalogSource {
  readonly ids: IdTable
  readonly messages: ReadonlyMap<string, Message>
  /** `messages.size`, known without reading them. */
  readonly messageCount: number
  readonly usage: ModuleUsage
  readonly sync: SyncResult | undefined
  /** `sourceCatalog`: the source locale, whose messages fill every catalog's gaps. */
  readonly fallbackLocale: string | undefined
  /** The transform memo: what its digest covers, a modules' key covers (see `modulesKey`). */
  readonly memo: { readonly digest: string } | undefined
  catalogInput(locale: string): CatalogInput
}

/**
 * What an inline copy's kept texts put where a catalog's rows key has its fallback locale: a name no
 * locale has, so that no catalog literal's rows and a copy's share a key.
 */
const INLINE_COPY = '\u0004inline copy'

/** Sorted ids while `of` has `size`; once a literal is made of them, their rows and quoted ids (`"<id>":`). */
interface Rows {
  of: ReadonlySet<string> | ReadonlyMap<string, IdSource>
  size: number
  ids: string[]
  made?: CatalogRow[]
  heads?: string[]
  /** Their rows' key of a catalog memo (see `memoKey`). */
  key?: string
}

/**
 * A locale's catalog literal over rows: the text `catalogLiteral(buildCatalog(...))` makes of the same
 * ids (`heads[i]` is row i's quoted id and colon). Pieces joined once: no string per entry, for tens of
 * thousands of entries per locale.
 */
export function renderCatalogLiteral(
  input: CatalogInput,
  rows: readonly CatalogRow[],
  heads: readonly string[],
): string {
  const parts: string[] = ['{']
  eachCatalogTranslation(input, rows, (i, translation) => {
    if (parts.length > 1) parts.push(',')
    parts.push(heads[i]!, translationLiteral(translation))
  })
  parts.push('}')
  return parts.join('')
}

/** One locale's entries: each with the count of ids (or the rows and sync) it was made of. */
interface LocaleEntries {
  /** The catalog of every id (dev server, webpack's catalogs). */
  full?: { size: number; catalog: Map<string, CompiledMessage> }
  /** The literal of the catalog of every id, and its digest once asked (see `digestFor`). */
  fullLiteral?: { size: number; literal: StoredText; digest?: string }
  /** The literal of the used ids' catalog over the rows it was made of. */
  used?: { rows: Rows; sync: SyncResult | undefined; literal: StoredText }
  /** The literal a catalog memo gave for the bundle of a modules' key (see {@link CatalogCache.modulesKeyOf}). */
  bundle?: { modules: string; sync: SyncResult | undefined; literal: StoredText }
}

export class CatalogCache {
  private readonly source: CatalogSource
  private readonly entries = new Map<string, LocaleEntries>()
  /** See `rowsOf`. */
  private rows: Rows | undefined
  /** The modules' key last made, of the `rememberedKey` it was made of. */
  private modules: { remembered: string; key: string } | undefined
  /** The rows key of the ids inline copies last asked of (see `keptSlots`). */
  private slotRows: { ids: readonly string[]; key: string } | undefined

  constructor(source: CatalogSource) {
    this.source = source
  }

  private entriesOf(locale: string): LocaleEntries {
    let entries = this.entries.get(locale)
    if (!entries) {
      entries = {}
      this.entries.set(locale, entries)
    }
    return entries
  }

  /**
   * A locale's catalog: id -> translation in each site's placeholder spelling. With `files`, only the
   * ids those modules use (a production bundle); without, every id (the dev server).
   */
  catalogFor(locale: string, files?: Iterable<string>): CatalogMap {
    const { usage, ids } = this.source
    if (!files) {
      usage.registerAll()
      return this.fullCatalog(locale)
    }
    const used = usage.usedIds(files)
    // Every id a module uses is known: as many used ids as known ones means all of them.
    if (used.size === ids.size) return this.fullCatalog(locale)
    return buildCatalog(this.source.catalogInput(locale), used)
  }

  /** The literal of `catalogFor(locale, files)` (as `catalogLiteral` makes it), kept when the bundle uses every id. */
  literalFor(locale: string, files?: Iterable<string>): string {
    const entry = this.literalEntry(locale, files)
    if (typeof entry.literal !== 'string') entry.literal = entry.literal.toString('utf8')
    return entry.literal
  }

  /** {@link literalFor} as its catalog memo holds it: bytes, unless something decoded them already. */
  storedLiteralFor(locale: string, files?: Iterable<string>): StoredText {
    return this.literalEntry(locale, files).literal
  }

  private literalEntry(locale: string, files?: Iterable<string>): { literal: StoredText } {
    const { usage, ids, sync } = this.source
    const entries = this.entriesOf(locale)
    const modules = files && this.modulesKeyOf(files)
    // A bundle of the modules a memo noted: its literal, with no id read, sorted or hashed.
    if (modules) {
      const made = entries.bundle
      if (made?.modules === modules && made.sync === sync) return made
      const memoed = sync?.memos?.storedLiteral(locale, { modules })
      if (memoed) {
        entries.bundle = { modules, sync, literal: memoed }
        return entries.bundle
      }
    }
    const used = files && usage.usedIds(files)
    // The ids of the bundle's modules (the usedIds answer is one set for all locales), a part of them.
    if (used && used.size !== ids.size) {
      const rows = this.rowsOf(used)
      const made = entries.used
      if (made?.rows === rows && made.sync === sync) return made
      entries.used = { rows, sync, literal: this.literalOf(locale, rows, modules) }
      return entries.used
    }
    if (!files) usage.registerAll()
    const size = ids.size
    const known = entries.fullLiteral
    if (known?.size === size) return known
    // The bundle's used ids are every id: the same rows, read without the table of every id (see `IdTable`).
    const rows = this.rowsOf(used ?? ids.sources)
    entries.fullLiteral = { size, literal: this.literalOf(locale, rows, modules) }
    return entries.fullLiteral
  }

  /**
   * The modules' key of a bundle (see `modulesKey`): when the transform memo keeps every module's ids
   * with this build's stamp, and a memo may answer (no message met since the build start).
   * Undefined otherwise: the bundle's ids are read.
   */
  private modulesKeyOf(files: Iterable<string>): string | undefined {
    const { usage, ids, memo, sync, fallbackLocale } = this.source
    if (!memo || !sync?.memos || this.source.messageCount !== sync.memos.messages) return undefined
    const remembered = usage.rememberedKey(files)
    if (remembered === undefined) return undefined
    if (this.modules?.remembered !== remembered) {
      const scope = { transform: memo.digest, stamp: ids.stamp, fallback: fallbackLocale }
      this.modules = { remembered, key: modulesKey(remembered, scope) }
    }
    return this.modules.key
  }

  /**
   * `literalDigest` of the literal of every id (the dev server's catalog module), made once per
   * literal: the module and each page's report of the catalog it loaded ask it of the same literal.
   */
  digestFor(locale: string): string {
    this.literalEntry(locale)
    const full = this.entriesOf(locale).fullLiteral!
    full.digest ??= literalDigest(full.literal)
    return full.digest
  }

  /**
   * Where an inline copy of `locale` keeps its texts of a list of ids between builds: the locale's
   * catalog memo, under those ids' rows key (none for a build that met a message its start did not
   * know: see `memoable`). The memo's locale key covers the translations and messages the texts are
   * made of, as it does a catalog literal's.
   */
  keptSlots(locale: string): KeptSlots | undefined {
    const memos = this.source.sync?.memos
    if (!memos) return undefined
    const key = (ids: readonly string[]): string | undefined => {
      if (!this.memoable(ids, memos.messages)) return undefined
      // The copies of every locale ask of one list: its key is made once.
      if (this.slotRows?.ids !== ids) {
        const described = (id: string) => this.source.ids.described(id)
        this.slotRows = { ids, key: rowsKey(ids, described, INLINE_COPY) }
      }
      return this.slotRows.key
    }
    return {
      read: (ids) => {
        const k = key(ids)
        return k === undefined ? undefined : memos.literal(locale, k)
      },
      name: (ids) => {
        const k = key(ids)
        const base = memos.localeKey(locale)
        return k === undefined || base === undefined ? undefined : `${base} ${k}`
      },
      record: (ids, json) => {
        const k = key(ids)
        if (k !== undefined) memos.record(locale, k, json)
      },
    }
  }

  /**
   * A recheck replaced the locale's translations: what was made of them is dropped, but for the
   * catalog of every id (a dev server's), which is made anew with the entries of `changed` made again
   * and every other one as it was (a `tms pull` changes a few translations of thousands). With
   * `changed` undefined (not known) it is made again, all of it, when asked.
   */
  translationsChanged(locale: string, changed: ReadonlySet<string> | undefined): void {
    const full = this.entries.get(locale)?.full
    this.entries.delete(locale)
    if (!full || !changed || full.size !== this.source.ids.size) return
    const made = buildCatalog(this.source.catalogInput(locale), changed)
    // In the order of the rows a catalog of every id is made over, as if made again.
    const rows = this.rowsOf(this.source.ids.sources)
    const catalog = new Map<string, CompiledMessage>()
    for (const id of rows.ids) {
      const entry = changed.has(id) ? made.get(id) : full.catalog.get(id)
      if (entry !== undefined) catalog.set(id, entry)
    }
    this.entriesOf(locale).full = { size: full.size, catalog }
  }

  /**
   * A locale's catalog literal over rows: from the catalog memo when it has it (its bytes, decoded
   * only by a caller that needs the text), else rendered; `modules`: the bundle's modules' key, noted
   * beside it.
   */
  private literalOf(locale: string, of: Rows, modules?: string): StoredText {
    const { ids, sync } = this.source
    // A production build with no network: the last build's literal while its inputs are the same.
    const memos = sync?.memos
    const key = memos && this.memoKey(of, memos.messages)
    const memoed = key && memos.storedLiteral(locale, key)
    if (memoed) {
      if (modules) memos.noteModules(locale, key, modules)
      return memoed
    }
    of.made ??= catalogRows(ids.sources, this.source.messages, of.ids)
    of.heads ??= of.made.map((row) => `${jsString(row.id)}:`)
    const literal = renderCatalogLiteral(this.source.catalogInput(locale), of.made, of.heads)
    if (key) memos.record(locale, key, literal, modules)
    return literal
  }

  /**
   * The rows' key of a catalog memo, made once for every locale; none when a message was met since the
   * build start (a module changed meanwhile: the memos' keys cover `covered` messages, the start's) or
   * for no ids (webpack's first pass).
   */
  private memoKey(of: Rows, covered: number): string | undefined {
    const { ids, fallbackLocale } = this.source
    if (!this.memoable(of.ids, covered)) return undefined
    of.key ??= rowsKey(of.ids, (id) => ids.described(id), fallbackLocale)
    return of.key
  }

  /** Whether a memo may keep a literal of `ids`: some, and no message met since the memos' `covered` ones. */
  private memoable(ids: readonly string[], covered: number): boolean {
    return this.source.messageCount === covered && ids.length > 0
  }

  /** The ids of `of` (the used ids, or every id), sorted once for all locales, while `of` has the same ids. */
  private rowsOf(of: ReadonlySet<string> | ReadonlyMap<string, IdSource>): Rows {
    if (this.rows?.of === of && this.rows.size === of.size) return this.rows
    this.rows = { of, size: of.size, ids: [...of.keys()].sort() }
    return this.rows
  }

  /** The catalog of every id, made again only when ids were added since (a transform in between). */
  private fullCatalog(locale: string): Map<string, CompiledMessage> {
    const { ids } = this.source
    const entries = this.entriesOf(locale)
    const known = entries.full
    if (known && known.size === ids.size) return known.catalog
    // The literal of every id, made already (a page imported it; a memo may have answered it): the same
    // catalog parsed, rather than its translations decoded, checked and compiled again.
    const made = entries.fullLiteral
    if (made?.size === ids.size) {
      const catalog = new Map(
        Object.entries(JSON.parse(textOf(made.literal)) as Record<string, CompiledMessage>),
      )
      entries.full = { size: ids.size, catalog }
      return catalog
    }
    // Over the rows every locale's literal and catalog share: a dev server makes a locale's catalog
    // again after each `tms pull`, and the rows of tens of thousands of ids are the same each time.
    const rows = this.rowsOf(ids.sources)
    rows.made ??= catalogRows(ids.sources, this.source.messages, rows.ids)
    const catalog = new Map<string, CompiledMessage>()
    eachCatalogTranslation(this.source.catalogInput(locale), rows.made, (_, translation, id) =>
      catalog.set(id, translation),
    )
    entries.full = { size: ids.size, catalog }
    return catalog
  }
}
