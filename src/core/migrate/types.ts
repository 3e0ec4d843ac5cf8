/**
 * What `tms migrate` reports of one file and of a run: the conversions made per construct, the places
 * left as they were with a `TODO(tms)` comment and why, and the providers and setup calls of the old
 * library that the user removes by hand.
 */

export type Library = 'lingui' | 'formatjs' | 'i18next'

export const LIBRARIES: readonly Library[] = ['lingui', 'formatjs', 'i18next']

/** A place in a file (1-based line and column). */
export interface Place {
  file: string
  line: number
  column: number
}

/** A construct left unchanged, with the `TODO(tms)` comment written next to it. */
export interface LeftOver extends Place {
  reason: string
}

/** A provider or setup call of the old library, which stays until the user removes it. */
export interface SetupNote extends Place {
  what: string
}

/**
 * react-intl's named formats found in a file (`<IntlProvider formats>`): the object when it is static,
 * else why it could not be read. unplugin-tms takes them as its `formats` option.
 */
export interface FormatsFound extends Place {
  /** Where they were written: `<IntlProvider formats>`, `createIntl({ defaultFormats })`. */
  where: string
  formats?: Record<string, unknown>
  problem?: string
}

/** i18next's source-locale texts, already in our message form, by namespace then key. */
export type SourceTexts = ReadonlyMap<string, ReadonlyMap<string, string>>

export interface MigrateOptions {
  from: Library
  /** i18next only: the source locale's catalog, the text each key stands for. */
  sourceTexts?: SourceTexts
  /** i18next only: the namespace of a `t` with none named (i18next's `defaultNS`). @default 'translation' */
  defaultNamespace?: string
  /**
   * Reads the module a relative import of `file` names (`./number-formats`): its path and text, or
   * undefined when there is no such file. Given by `project.ts`, so the core reads no disk itself.
   */
  readModule?: (file: string, specifier: string) => { file: string; code: string } | undefined
}

/** One file migrated: its new text and what happened in it. */
export interface FileMigration {
  file: string
  code: string
  changed: boolean
  /** How many of each construct were converted (`<Trans>`, `t macro`, ...). */
  conversions: Record<string, number>
  left: LeftOver[]
  setup: SetupNote[]
  /** react-intl's named formats, for the summary to print as the `formats` option. */
  formats: FormatsFound[]
}

/** A migration error that is the user's to fix (a bad flag, a missing catalog): one line, no stack. */
export class MigrateInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MigrateInputError'
  }
}
