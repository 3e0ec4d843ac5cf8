import type { Formats } from '../model/formats'
import { type CompiledMessage, compiledLiteral, compileMessage, inLocale } from './compile'
import { isFormatOnly } from './parse'

/**
 * Compiled forms of one build's messages, made once per text and locale: a catalog chunk, the source
 * fallback of each call and every inline copy ask for the same few.
 */
export class MessageForms {
  private readonly made = new Map<string, CompiledMessage | null>()
  private readonly formatOnly = new Map<string, boolean>()
  private readonly formats: Formats | undefined

  /** `formats`: the option, read by every text's style names (see `compileMessage`). */
  constructor(formats?: Formats) {
    this.formats = formats
  }

  /**
   * The compact form of `text` in `locale`, or undefined when it does not compile (a checked
   * translation always does; the caller then uses the source).
   */
  form(text: string, locale: string): CompiledMessage | undefined {
    const key = `${locale}\u0000${text}`
    let form = this.made.get(key)
    if (form === undefined) {
      try {
        form = compileMessage(text, locale, this.formats)
      } catch {
        form = null
      }
      this.made.set(key, form)
    }
    return form ?? undefined
  }

  /**
   * The form of a source text standing in for a translation in another locale: compiled in the source
   * locale and kept formatting in it (see {@link inLocale}).
   */
  sourceForm(text: string, sourceLocale: string, locale: string): CompiledMessage | undefined {
    const form = this.form(text, sourceLocale)
    return form === undefined || sourceLocale === locale ? form : inLocale(form, sourceLocale)
  }

  /**
   * The form a message with nothing to translate (only formatted values, {@link isFormatOnly}) has in
   * a locale that holds no translation of it: itself, formatted in that locale; undefined for others.
   */
  ownForm(text: string, locale: string): CompiledMessage | undefined {
    let only = this.formatOnly.get(text)
    if (only === undefined) {
      only = isFormatOnly(text)
      this.formatOnly.set(text, only)
    }
    return only ? this.form(text, locale) : undefined
  }

  /** The JS literal of {@link form}, or of {@link sourceForm} with `sourceLocale`. */
  literal(text: string, locale: string, sourceLocale?: string): string | undefined {
    const form = sourceLocale ? this.sourceForm(text, sourceLocale, locale) : this.form(text, locale)
    return form === undefined ? undefined : compiledLiteral(form)
  }

  clear(): void {
    this.made.clear()
    this.formatOnly.clear()
  }
}
