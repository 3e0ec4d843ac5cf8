import { relative, sep } from 'node:path'
import type { LocaleState } from '../../core/review/states'
import type { TmsSession } from '../session'

/** What the overlay's panel shows of one catalog id: the message, where it is used, its string. */
export interface MessageInfo {
  id: string
  text: string
  variant: string | null
  namespace: string | null
  instruction: string | null
  maxLength: number | null
  /** File relative to the root (for reading), and the absolute `file:line:col` vite's open-in-editor takes. */
  locations: { file: string; line: number; column: number; open: string }[]
  /** Undefined until a push created the string (`push: true` or `tms push`). */
  hashcode: string | null
  sourceLocale: string
  /** Target locales, then pseudo-locales (made on this machine). */
  locales: LocaleState[]
}

/** The key of the message a catalog id of the session's current build stands for. */
export function keyOf(session: TmsSession, id: string): string | undefined {
  return session.build.idSources.get(id)?.key
}

/** The message behind a catalog id of the session's current build, or undefined for an unknown id. */
export function messageOf(session: TmsSession, id: string): Omit<MessageInfo, 'locales'> | undefined {
  const key = keyOf(session, id)
  const message = key === undefined ? undefined : session.build.messages.get(key)
  if (!message) return undefined
  const root = session.options.root
  return {
    id,
    text: message.text,
    variant: message.variant,
    namespace: message.namespace,
    instruction: message.instruction ?? null,
    maxLength: message.maxLength ?? null,
    locations: message.locations.map((l) => ({
      file: relative(root, l.file).split(sep).join('/'),
      line: l.line,
      column: l.column,
      open: `${l.file}:${l.line}:${l.column}`,
    })),
    hashcode: session.build.sync?.hashcodes.get(message.key) ?? null,
    sourceLocale: session.options.sourceLocale,
  }
}

/** The pseudo-locales' states: their text is made from the source on this machine. */
export function pseudoStates(session: TmsSession, id: string): LocaleState[] {
  const key = keyOf(session, id)
  return session.options.pseudo.map((locale) => {
    const text = key === undefined ? undefined : session.build.sync?.translations.get(locale)?.get(key)
    return { locale, state: 'pseudo', ...(text === undefined ? {} : { text, length: text.length }) }
  })
}

/** The ids whose translation the catalog of `locale` holds (what the page shows translated). */
export function translatedIds(session: TmsSession, locale: string): string[] {
  if (!session.build.locales.includes(locale)) return []
  return session.build.translatedIds(locale)
}
