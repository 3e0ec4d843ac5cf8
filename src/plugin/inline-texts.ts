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

  /** What the copy of `input.locale` puts in place of each message: its translation, else the source text. */
  of(input: CatalogInput, sourceLocale: string): LocaleTexts {
    const { locale } = input
    const fallback = (s?: IdSource): string | undefined => standInLocale(input, s, sourceLocale)
    return {
      locale,
      form: (id, text) =>
        this.isIcuId(id) ? this.forms.literal(text, locale, fallback(this.ids.sources.get(id))) : undefined,
      text: (id) => {
        const source = this.ids.sources.get(id)
        return inlineText(input, source, source && sourceTextOf(source, this.messages.get(source.key)))
      },
      textsOf: (ids) => {
        const known = this.inlineIds(ids)
        return known.sources.map((source, i) => inlineText(input, source, known.texts[i]))
      },
      formsOf: (ids, texts) => {
        const { icu, sources } = this.inlineIds(ids)
        return texts.map((text, i) =>
          icu[i] && text !== undefined ? this.forms.literal(text, locale, fallback(sources[i])) : undefined,
        )
      },
    }
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
