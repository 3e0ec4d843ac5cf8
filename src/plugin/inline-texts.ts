import {
  type CatalogInput,
  type IdSource,
  inlineText,
  sourceTextOf,
  standInLocale,
} from '../core/catalog/index'
import { isIcuSource } from '../core/check/message'
import type { Message } from '../core/extract/index'
import type { MessageForms } from '../core/icu/forms'
import type { IdTable } from './id-table'
import type { LocaleTexts } from './inline/index'

/** The ids of an inline build's output (in their order), what they stand for and their source texts. */
interface InlineIds {
  /** How many ids the build had: an id unknown then may be known after a later transform. */
  size: number
  sources: (IdSource | undefined)[]
  texts: (string | undefined)[]
  /** Whether each id's message is ICU (its text ships as a compiled form). */
  icu: boolean[]
}

/** The texts of one list of ids in a copy, and the compiled forms of its ICU messages. */
interface Slots {
  ids: readonly string[]
  texts: (string | undefined)[]
  forms: (string | undefined)[]
}

/**
 * Where a copy's texts and forms of a list of ids are kept between builds (the locale's catalog memo:
 * `CatalogCache.keptSlots`), as the JSON of `[texts, forms]`, null for none.
 */
export interface KeptSlots {
  read(ids: readonly string[]): string | undefined
  record(ids: readonly string[], json: string): void
  /** The key the texts and forms of `ids` are kept under (the locale's and the rows'); undefined: none. */
  name(ids: readonly string[]): string | undefined
}

/** A kept list of texts or forms (null for none) of `length` ids; undefined when it is not one. */
function slotList(value: unknown, length: number): (string | undefined)[] | undefined {
  if (!Array.isArray(value) || value.length !== length) return undefined
  const out: (string | undefined)[] = new Array(length)
  for (let i = 0; i < length; i++) {
    const v: unknown = value[i]
    if (v === null) out[i] = undefined
    else if (typeof v === 'string') out[i] = v
    else return undefined
  }
  return out
}

/**
 * What each inline copy puts in place of an id, with what is asked per site and copy answered once:
 * whether an id is ICU, and what the ids of one list of the output stand for.
 */
export class InlineTexts {
  private readonly ids: IdTable
  /** The build's messages by key, asked when first needed (see `Build.messages`). */
  private readonly messagesOf: () => ReadonlyMap<string, Message>
  private readonly forms: MessageForms
  /** Id -> whether its message is ICU (see `isIcuId`). */
  private readonly icuIds = new Map<string, boolean>()
  /** Per list of ids of an inline build's output, what they stand for (see `inlineIds`). */
  private readonly lookups = new WeakMap<readonly string[], InlineIds>()

  constructor(ids: IdTable, messages: () => ReadonlyMap<string, Message>, forms: MessageForms) {
    this.ids = ids
    this.messagesOf = messages
    this.forms = forms
  }

  private get messages(): ReadonlyMap<string, Message> {
    return this.messagesOf()
  }

  /**
   * What the copy of `locale` puts in place of each message: its translation, else the source text.
   * `input` is made only when a text is not in `kept` (a warm build's copies then read neither the
   * table of every id nor a translation).
   */
  of(locale: string, input: () => CatalogInput, sourceLocale: string, kept?: KeptSlots): LocaleTexts {
    let made: CatalogInput | undefined
    const catalog = (): CatalogInput => {
      made ??= input()
      return made
    }
    const fallback = (s?: IdSource): string | undefined => standInLocale(catalog(), s, sourceLocale)
    let slots: Slots | undefined
    const slotsOf = (ids: readonly string[]): Slots => {
      if (slots?.ids !== ids)
        slots = this.keptSlots(ids, kept) ?? this.madeSlots(ids, catalog(), fallback, kept)
      return slots
    }
    return {
      locale,
      form: (id, text) =>
        this.isIcuId(id) ? this.forms.literal(text, locale, fallback(this.ids.sources.get(id))) : undefined,
      text: (id) => {
        const source = this.ids.sources.get(id)
        return inlineText(catalog(), source, source && sourceTextOf(source, this.messages.get(source.key)))
      },
      textsOf: (ids) => slotsOf(ids).texts,
      slotsName: (ids) => kept?.name(ids),
      formsOf: (ids, texts) => {
        const made = slotsOf(ids)
        return made.texts === texts ? made.forms : this.formsOf(ids, texts, locale, fallback)
      },
    }
  }

  /** The texts and forms of `ids` as `kept` has them; undefined when it has none or they are out of shape. */
  private keptSlots(ids: readonly string[], kept: KeptSlots | undefined): Slots | undefined {
    const json = kept?.read(ids)
    if (json === undefined) return undefined
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch {
      return undefined
    }
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined
    const texts = slotList(parsed[0], ids.length)
    const forms = slotList(parsed[1], ids.length)
    return texts && forms ? { ids, texts, forms } : undefined
  }

  /** The texts and forms of `ids` made of the build's messages and translations, and kept for the next build. */
  private madeSlots(
    ids: readonly string[],
    input: CatalogInput,
    fallback: (s?: IdSource) => string | undefined,
    kept: KeptSlots | undefined,
  ): Slots {
    const known = this.inlineIds(ids)
    const texts = known.sources.map((source, i) => inlineText(input, source, known.texts[i]))
    const forms = this.formsOf(ids, texts, input.locale, fallback)
    kept?.record(ids, JSON.stringify([texts, forms]))
    return { ids, texts, forms }
  }

  private formsOf(
    ids: readonly string[],
    texts: readonly (string | undefined)[],
    locale: string,
    fallback: (s?: IdSource) => string | undefined,
  ): (string | undefined)[] {
    const { icu, sources } = this.inlineIds(ids)
    return texts.map((text, i) =>
      icu[i] && text !== undefined ? this.forms.literal(text, locale, fallback(sources[i])) : undefined,
    )
  }

  /** Whether an id stands for an ICU message: asked per site and copy, answered once per id. */
  private isIcuId(id: string): boolean {
    let icu = this.icuIds.get(id)
    if (icu === undefined) {
      const message = this.messages.get(this.ids.sources.get(id)?.key ?? '')
      icu = message !== undefined && isIcuSource(message)
      // An id not known yet may be known after a later transform: only a known id's answer is kept.
      if (message !== undefined) this.icuIds.set(id, icu)
    }
    return icu
  }

  /** What the given ids stand for and their source texts, looked up once for every locale's copy. */
  private inlineIds(ids: readonly string[]): InlineIds {
    let known = this.lookups.get(ids)
    if (!known || known.size !== this.ids.size) {
      const sources = ids.map((id) => this.ids.sources.get(id))
      known = {
        size: this.ids.size,
        sources,
        texts: sources.map((source) => source && sourceTextOf(source, this.messages.get(source.key))),
        icu: ids.map((id) => this.isIcuId(id)),
      }
      this.lookups.set(ids, known)
    }
    return known
  }
}
