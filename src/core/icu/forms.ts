import { type CompiledMessage, compiledLiteral, compileMessage } from './compile'

/**
 * Compiled forms of one build's messages, made once per text and locale: a catalog chunk, the source
 * fallback of each call and every inline copy ask for the same few.
 */
export class MessageForms {
  private readonly made = new Map<string, CompiledMessage | null>()

  /**
   * The compact form of `text` in `locale`, or undefined when it does not compile (a checked
   * translation always does; the caller then uses the source).
   */
  form(text: string, locale: string): CompiledMessage | undefined {
    const key = `${locale}\u0000${text}`
    let form = this.made.get(key)
    if (form === undefined) {
      try {
        form = compileMessage(text, locale)
      } catch {
        form = null
      }
      this.made.set(key, form)
    }
    return form ?? undefined
  }

  /** The JS literal of {@link form}. */
  literal(text: string, locale: string): string | undefined {
    const form = this.form(text, locale)
    return form === undefined ? undefined : compiledLiteral(form)
  }

  clear(): void {
    this.made.clear()
  }
}
