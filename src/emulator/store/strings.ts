import { createHash } from 'node:crypto'
import type { PlaceholderSpec } from '../../core/model/placeholders'
import type { WorkflowStepType } from '../../core/model/wire'
import type { PlaceholderParser } from '../placeholder-sandbox'
import type { Directory, ProjectRecord } from './directory'
import { invalidInput } from './errors'
import type { StoreEvents } from './events'
import type { StorePart } from './part'

export const DEFAULT_NAMESPACE = 'svc.strings-api.default.namespace'

/** DESIGN.md's identity of a string: md5(namespace NUL variant NUL parsedStringText), null as empty. */
export function computeHashcode(namespace: string | null, variant: string | null, parsed: string): string {
  return createHash('md5')
    .update(`${namespace ?? ''}\u0000${variant ?? ''}\u0000${parsed}`)
    .digest('hex')
}

export interface TranslationVersion {
  /** In `{0}` form; placeholders are restored on the way out. */
  text: string
  modifiedDate: number
}

/** One string in one locale: the latest saved translation and the latest published one. */
export interface TranslationState {
  pending: TranslationVersion | null
  published: TranslationVersion | null
}

/** What create-strings hands over for one item, already parsed. */
export interface StringInput {
  namespace: string | null
  variant: string | null
  stringText: string
  parsedStringText: string
  /** The original spelling of `{0}`, `{1}`, ... */
  placeholders: string[]
  placeholderSpec: PlaceholderSpec
  instruction: string | null
  maxLength: number | null
  format: string | null
  callbackUrl: string | null
  callbackMethod: 'GET' | 'POST' | null
}

/** A string as the store keeps it: its input, where it is used, and its state per locale. */
export interface StoredString extends Omit<StringInput, 'stringText'> {
  hashcode: string
  /** null for strings that did not come through the strings API (files, later). */
  stringText: string | null
  /** The first of {@link fileUris}, or null (kept for readers that know one file per string). */
  fileUri: string | null
  /** The uploaded files holding this string (a shared `svc.namespace` lets several files share one). */
  fileUris: string[]
  /** The string's keys in those files (key paths, property names, msgids). */
  keys: string[]
  active: boolean
  createdDate: number
  modifiedDate: number
  authorizedLocaleIds: string[]
  translations: Record<string, TranslationState>
}

/** What a file upload hands over for one of its strings: no raw text (the spec's null stringText). */
export interface FileStringInput {
  namespace: string | null
  variant: string | null
  parsedStringText: string
  placeholderSpec: PlaceholderSpec
  instruction: string | null
}

export type WorkflowStep = WorkflowStepType

/** A stable uid per project and workflow step (the emulator has one workflow per project). */
export function workflowStepUid(projectId: string, step: WorkflowStep): string {
  const hex = createHash('md5').update(`${projectId}\u0000${step}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** Where a string stands in a locale: untranslated, saved but unpublished, or published. */
export function workflowStepOf(state: TranslationState | undefined): WorkflowStep {
  if (!state?.pending && !state?.published) return 'TRANSLATION'
  if (state.published && (!state.pending || state.pending.text === state.published.text)) return 'PUBLISH'
  return 'POST_TRANSLATION__EDIT'
}

/**
 * Strings per project, with authorization and translation state per (hashcode, locale). Other
 * areas call this API: jobs authorize and unauthorize through it, files add strings with a fileUri.
 */
export class StringStore implements StorePart {
  readonly name = 'strings'
  #byProject = new Map<string, Map<string, StoredString>>()
  readonly #directory: () => Directory
  readonly #events: StoreEvents
  readonly #onChange: () => void

  constructor(directory: () => Directory, events: StoreEvents, onChange: () => void) {
    this.#directory = directory
    this.#events = events
    this.#onChange = onChange
  }

  #project(projectId: string): Map<string, StoredString> {
    const strings = this.#byProject.get(projectId) ?? new Map<string, StoredString>()
    this.#byProject.set(projectId, strings)
    return strings
  }

  #projectRecord(projectId: string): ProjectRecord {
    const project = this.#directory().projects.get(projectId)
    if (!project) throw invalidInput('projectId', `unknown project ${projectId}`)
    return project
  }

  get(projectId: string, hashcode: string): StoredString | undefined {
    return this.#byProject.get(projectId)?.get(hashcode)
  }

  /** Every string of a project, in order of creation. */
  list(projectId: string): StoredString[] {
    return [...(this.#byProject.get(projectId)?.values() ?? [])]
  }

  /**
   * Creates a string, or overwrites the one with the same hashcode: the parsed text (the identity)
   * stays, the raw text, placeholders and metadata are replaced, an inactive string is reactivated.
   * Authorization and translations survive an overwrite.
   */
  upsert(projectId: string, input: StringInput, now: number): { string: StoredString; overWritten: boolean } {
    const strings = this.#project(projectId)
    const hashcode = computeHashcode(input.namespace, input.variant, input.parsedStringText)
    const existing = strings.get(hashcode)
    if (existing) {
      Object.assign(existing, {
        stringText: input.stringText,
        placeholders: input.placeholders,
        placeholderSpec: input.placeholderSpec,
        instruction: input.instruction,
        maxLength: input.maxLength,
        format: input.format,
        callbackUrl: input.callbackUrl,
        callbackMethod: input.callbackMethod,
        active: true,
        modifiedDate: now,
      } satisfies Partial<StoredString>)
      this.#onChange()
      return { string: existing, overWritten: true }
    }
    const created = this.#insert(strings, { hashcode, ...input }, now)
    return { string: created, overWritten: false }
  }

  /**
   * A string found in an uploaded file. A new one has a null `stringText` and keeps no original
   * placeholders (the spec's "strings created elsewhere"); an existing one (from the strings API or
   * another file) keeps its text and metadata. Either way it is active again.
   */
  upsertFileString(
    projectId: string,
    input: FileStringInput,
    now: number,
  ): { string: StoredString; created: boolean } {
    const strings = this.#project(projectId)
    const hashcode = computeHashcode(input.namespace, input.variant, input.parsedStringText)
    const existing = strings.get(hashcode)
    if (existing) {
      existing.active = true
      existing.modifiedDate = now
      this.#onChange()
      return { string: existing, created: false }
    }
    const created = this.#insert(
      strings,
      {
        hashcode,
        namespace: input.namespace,
        variant: input.variant,
        stringText: null,
        parsedStringText: input.parsedStringText,
        placeholders: [],
        placeholderSpec: input.placeholderSpec,
        instruction: input.instruction,
        maxLength: null,
        format: null,
        callbackUrl: null,
        callbackMethod: null,
      },
      now,
    )
    return { string: created, created: true }
  }

  /**
   * Which files hold a string and under which keys, as the files area sees it after an upload,
   * rename or delete. A string no file holds any more, and that did not come through the strings
   * API, becomes inactive (its translations stay for a later upload of the same text).
   */
  setFileLinks(
    projectId: string,
    hashcode: string,
    fileUris: readonly string[],
    keys: readonly string[],
  ): void {
    const string = this.get(projectId, hashcode)
    if (!string) return
    string.fileUris = [...fileUris]
    string.fileUri = fileUris[0] ?? null
    string.keys = [...keys]
    if (fileUris.length === 0 && string.stringText === null) string.active = false
    this.#onChange()
  }

  /** A new active string: in no file yet, authorized in no locale, with no translations. */
  #insert(
    strings: Map<string, StoredString>,
    fields: Omit<StringInput, 'stringText'> & { hashcode: string; stringText: string | null },
    now: number,
  ): StoredString {
    const created: StoredString = {
      ...fields,
      fileUri: null,
      fileUris: [],
      keys: [],
      active: true,
      createdDate: now,
      modifiedDate: now,
      authorizedLocaleIds: [],
      translations: {},
    }
    strings.set(created.hashcode, created)
    this.#onChange()
    return created
  }

  #select(projectId: string, hashcodes: readonly string[] | null, field: string): StoredString[] {
    const strings = this.#byProject.get(projectId) ?? new Map<string, StoredString>()
    if (hashcodes === null) return [...strings.values()]
    return hashcodes.map((h, i) => {
      const found = strings.get(h)
      if (!found) throw invalidInput(`${field}[${i}]`, `unknown hashcode ${h} in project ${projectId}`)
      return found
    })
  }

  #locales(projectId: string, localeIds: readonly string[] | null, field: string): string[] {
    const project = this.#projectRecord(projectId)
    if (localeIds === null) return [...project.targetLocaleIds]
    localeIds.forEach((l, i) => {
      if (!project.targetLocaleIds.includes(l)) {
        throw invalidInput(`${field}[${i}]`, `${l} is not a target locale of project ${projectId}`)
      }
    })
    return [...localeIds]
  }

  /**
   * Authorizes strings for locales (null: all strings / all target locales of the project) and
   * returns the pairs that were not authorized before. Emits `stringsAuthorized` for those, which
   * sets the auto-translator going.
   */
  authorize(
    projectId: string,
    hashcodes: readonly string[] | null,
    localeIds: readonly string[] | null,
  ): { hashcode: string; localeId: string }[] {
    const locales = this.#locales(projectId, localeIds, 'localeIds')
    const strings = this.#select(projectId, hashcodes, 'hashcodes')
    const pairs: { hashcode: string; localeId: string }[] = []
    for (const s of strings) {
      for (const localeId of locales) {
        if (s.authorizedLocaleIds.includes(localeId)) continue
        s.authorizedLocaleIds.push(localeId)
        pairs.push({ hashcode: s.hashcode, localeId })
      }
    }
    if (pairs.length > 0) {
      this.#onChange()
      this.#events.emit('stringsAuthorized', { projectId, pairs })
    }
    return pairs
  }

  /** The reverse of {@link authorize} (a cancelled job, removed content). Returns how many pairs changed. */
  unauthorize(
    projectId: string,
    hashcodes: readonly string[] | null,
    localeIds: readonly string[] | null,
  ): number {
    const locales = this.#locales(projectId, localeIds, 'localeIds')
    let changed = 0
    for (const s of this.#select(projectId, hashcodes, 'hashcodes')) {
      const before = s.authorizedLocaleIds.length
      s.authorizedLocaleIds = s.authorizedLocaleIds.filter((l) => !locales.includes(l))
      changed += before - s.authorizedLocaleIds.length
    }
    if (changed > 0) this.#onChange()
    return changed
  }

  /** Marks strings inactive (content removed from the project); create-strings reactivates them. */
  deactivate(projectId: string, hashcodes: readonly string[] | null): number {
    let changed = 0
    for (const s of this.#select(projectId, hashcodes, 'hashcodes')) {
      if (s.active) changed++
      s.active = false
    }
    if (changed > 0) this.#onChange()
    return changed
  }

  /**
   * Saves a translation (in `{0}` form) for one locale; `published` also publishes it and emits
   * `translationPublished` (callbacks, later job completion).
   */
  setTranslation(
    projectId: string,
    hashcode: string,
    localeId: string,
    text: string,
    published: boolean,
    now: number,
  ): TranslationState {
    this.#locales(projectId, [localeId], 'localeId')
    const string = this.get(projectId, hashcode)
    if (!string) throw invalidInput('hashcode', `unknown hashcode ${hashcode} in project ${projectId}`)
    const state = string.translations[localeId] ?? { pending: null, published: null }
    string.translations[localeId] = state
    state.pending = { text, modifiedDate: now }
    if (published) state.published = { text, modifiedDate: now }
    this.#onChange()
    if (published) this.#events.emit('translationPublished', { projectId, hashcode, localeId })
    return state
  }

  /** Publishes the saved translation of one locale, if there is one not yet published. */
  publish(projectId: string, hashcode: string, localeId: string, now: number): boolean {
    const state = this.get(projectId, hashcode)?.translations[localeId]
    if (!state?.pending) return false
    if (state.published?.text === state.pending.text) return false
    state.published = { text: state.pending.text, modifiedDate: now }
    this.#onChange()
    this.#events.emit('translationPublished', { projectId, hashcode, localeId })
    return true
  }

  snapshot(): Record<string, StoredString[]> {
    return Object.fromEntries([...this.#byProject].map(([p, strings]) => [p, [...strings.values()]]))
  }

  restore(data: unknown): void {
    if (typeof data !== 'object' || data === null) return
    for (const [projectId, strings] of Object.entries(data as Record<string, StoredString[]>)) {
      if (!Array.isArray(strings)) continue
      // Data files written before strings could sit in several files have only `fileUri`.
      for (const s of strings) s.fileUris ??= s.fileUri ? [s.fileUri] : []
      this.#byProject.set(projectId, new Map(strings.map((s) => [s.hashcode, s])))
    }
  }

  reset(): void {
    this.#byProject.clear()
  }
}

/**
 * A translation as a translator may type it, in `{0}` form: spellings of the source's own
 * placeholders (`{name}`, `%s`) become their `{N}`; `{N}` and anything else stay as written.
 * `placeholders` is a parser of the string's spec prepared for `text`.
 */
export function parseTranslation(
  string: StoredString,
  text: string,
  placeholders: PlaceholderParser,
): string {
  if (string.placeholders.length === 0) return text
  const used = new Set<number>()
  const matches = placeholders.scan(text)
  let out = ''
  let last = 0
  for (const m of matches) {
    let index = string.placeholders.findIndex((p, i) => p === m.text && !used.has(i))
    if (index === -1) index = string.placeholders.indexOf(m.text)
    if (index === -1) continue
    used.add(index)
    out += text.slice(last, m.start) + `{${index}}`
    last = m.end
  }
  return out + text.slice(last)
}
