import type { PlaceholderSpec } from '../../core/model/placeholders'
import type { FileCharset } from '../files/charset'
import type { ParsedUnit } from '../files/content'
import { StoreError } from './errors'
import type { StorePart } from './part'
import type { StringStore } from './strings'

/** The spec's limit of simultaneous file operations per project. */
export const MAX_FILE_OPERATIONS = 10

/** What an upload hands to the store, already decoded and parsed. */
export interface FileUpload {
  fileUri: string
  fileType: string
  /** `svc.namespace`, or the fileUri: strings of different files are different strings by default. */
  namespace: string | null
  content: string
  charset: FileCharset
  /** `svc.*` fields of the upload (without the prefix), `namespace` and `file_charset` excepted. */
  directives: Record<string, string>
  placeholderSpec: PlaceholderSpec
  units: ParsedUnit[]
  callbackUrl: string | null
}

/** An uploaded file: its decoded content (the source of every download) and what it holds. */
export interface FileRecord extends Omit<FileUpload, 'units'> {
  projectId: string
  /** The texts in file order: key and string. */
  units: { key: string; hashcode: string }[]
  /** The distinct strings of the file, in order of first appearance. */
  hashcodes: string[]
  hasInstructions: boolean
  created: number
  lastUploaded: number
  /** Locales whose file-published callback went out since the file last changed. */
  notifiedLocaleIds: string[]
}

/** The read side other areas use (jobs: add a file, files in a job, file progress). */
export interface FileLookup {
  /** The file, or undefined when the project has no such file (never uploaded, or deleted). */
  getFile(projectId: string, fileUri: string): FileRecord | undefined
  listFiles(projectId: string): FileRecord[]
  /** Whether an upload, import or rename still holds the file (the spec's "finished uploading"). */
  isBusy(projectId: string, fileUri: string, now: number): boolean
}

interface Operation {
  projectId: string
  fileUri: string
  until: number
}

interface FilesSnapshot {
  files: FileRecord[]
  deletions: Operation[]
}

const key = (projectId: string, fileUri: string): string => `${projectId}\u0000${fileUri}`

/**
 * Uploaded files per project, their links into the StringStore, the asynchronous deletes that keep
 * a URI reserved, and the operations that hold a file for `fileOperationMs` of emulator time.
 * Registered as the store part `files`.
 */
export class FilesStore implements StorePart, FileLookup {
  readonly name = 'files'
  #files = new Map<string, FileRecord>()
  #deletions = new Map<string, Operation>()
  #operations: Operation[] = []
  readonly #strings: StringStore
  readonly #onChange: () => void

  constructor(strings: StringStore, onChange: () => void) {
    this.#strings = strings
    this.#onChange = onChange
  }

  getFile(projectId: string, fileUri: string): FileRecord | undefined {
    return this.#files.get(key(projectId, fileUri))
  }

  listFiles(projectId: string): FileRecord[] {
    return [...this.#files.values()].filter((f) => f.projectId === projectId)
  }

  isBusy(projectId: string, fileUri: string, now: number): boolean {
    return this.#operations.some((o) => o.projectId === projectId && o.fileUri === fileUri && o.until > now)
  }

  /** When the delete of this URI completes, or null when none is running. */
  deletionUntil(projectId: string, fileUri: string, now: number): number | null {
    const deletion = this.#deletions.get(key(projectId, fileUri))
    if (!deletion) return null
    if (deletion.until <= now) {
      this.#deletions.delete(key(projectId, fileUri))
      this.#onChange()
      return null
    }
    return deletion.until
  }

  /**
   * Claims the files for an operation lasting `durationMs`: RESOURCE_LOCKED when another operation
   * holds one of them, MAX_OPERATIONS_LIMIT_EXCEEDED when the project already runs the maximum.
   * A zero duration checks and holds nothing afterwards.
   */
  beginOperation(projectId: string, fileUris: readonly string[], now: number, durationMs: number): void {
    this.#operations = this.#operations.filter((o) => o.until > now)
    for (const fileUri of fileUris) {
      if (this.isBusy(projectId, fileUri, now)) {
        throw new StoreError(
          'locked',
          'resource_locked',
          `File ${fileUri} is being processed by another operation; try again when it completes`,
          { fileUri },
        )
      }
    }
    const running = this.#operations.filter((o) => o.projectId === projectId).length
    if (running >= MAX_FILE_OPERATIONS) {
      throw new StoreError(
        'busy',
        'max_operations_limit_exceeded',
        `Project ${projectId} already runs ${running} file operations; at most ${MAX_FILE_OPERATIONS} at a time`,
      )
    }
    if (durationMs > 0) {
      for (const fileUri of fileUris) this.#operations.push({ projectId, fileUri, until: now + durationMs })
    }
  }

  /** Stores an upload, creates or reactivates its strings and relinks them. */
  upload(projectId: string, input: FileUpload, now: number): { record: FileRecord; overWritten: boolean } {
    const previous = this.getFile(projectId, input.fileUri)
    const hashcodes: string[] = []
    const seen = new Set<string>()
    for (const unit of input.units) {
      if (seen.has(unit.hashcode)) continue
      seen.add(unit.hashcode)
      hashcodes.push(unit.hashcode)
      this.#strings.upsertFileString(
        projectId,
        {
          namespace: input.namespace,
          variant: unit.variant,
          parsedStringText: unit.parsed,
          placeholderSpec: input.placeholderSpec,
          instruction: unit.instruction,
        },
        now,
      )
    }
    const record: FileRecord = {
      projectId,
      fileUri: input.fileUri,
      fileType: input.fileType,
      namespace: input.namespace,
      content: input.content,
      charset: input.charset,
      directives: input.directives,
      placeholderSpec: input.placeholderSpec,
      units: input.units.map((u) => ({ key: u.key, hashcode: u.hashcode })),
      hashcodes,
      hasInstructions: input.units.some((u) => u.instruction !== null),
      created: previous?.created ?? now,
      lastUploaded: now,
      callbackUrl: input.callbackUrl,
      notifiedLocaleIds: [],
    }
    this.#files.set(key(projectId, input.fileUri), record)
    this.#relink(projectId, [...(previous?.hashcodes ?? []), ...hashcodes])
    this.#onChange()
    return { record, overWritten: previous !== undefined }
  }

  rename(projectId: string, fileUri: string, newFileUri: string): void {
    const record = this.getFile(projectId, fileUri)
    if (!record) return
    this.#files.delete(key(projectId, fileUri))
    record.fileUri = newFileUri
    this.#files.set(key(projectId, newFileUri), record)
    this.#relink(projectId, record.hashcodes)
    this.#onChange()
  }

  /** Removes the file at once (it is no longer listed) and reserves its URI until the delete completes. */
  delete(projectId: string, fileUri: string, until: number): void {
    const record = this.getFile(projectId, fileUri)
    if (!record) return
    this.#files.delete(key(projectId, fileUri))
    this.#deletions.set(key(projectId, fileUri), { projectId, fileUri, until })
    this.#relink(projectId, record.hashcodes)
    this.#onChange()
  }

  /** Files of the project holding a string. */
  filesHolding(projectId: string, hashcode: string): FileRecord[] {
    return this.listFiles(projectId).filter((f) => f.hashcodes.includes(hashcode))
  }

  markNotified(record: FileRecord, localeId: string): void {
    record.notifiedLocaleIds.push(localeId)
    this.#onChange()
  }

  /** Tells the StringStore which files hold each string, and under which keys. */
  #relink(projectId: string, hashcodes: readonly string[]): void {
    const wanted = new Set(hashcodes)
    const links = new Map<string, { fileUris: string[]; keys: string[] }>()
    for (const h of wanted) links.set(h, { fileUris: [], keys: [] })
    for (const file of this.listFiles(projectId)) {
      for (const unit of file.units) {
        const link = links.get(unit.hashcode)
        if (!link) continue
        if (!link.fileUris.includes(file.fileUri)) link.fileUris.push(file.fileUri)
        if (!link.keys.includes(unit.key)) link.keys.push(unit.key)
      }
    }
    for (const [hashcode, link] of links)
      this.#strings.setFileLinks(projectId, hashcode, link.fileUris, link.keys)
  }

  snapshot(): FilesSnapshot {
    return { files: [...this.#files.values()], deletions: [...this.#deletions.values()] }
  }

  restore(data: unknown): void {
    const snap = data as Partial<FilesSnapshot> | null
    if (Array.isArray(snap?.files)) {
      for (const f of snap.files) this.#files.set(key(f.projectId, f.fileUri), f)
    }
    if (Array.isArray(snap?.deletions)) {
      for (const d of snap.deletions) this.#deletions.set(key(d.projectId, d.fileUri), d)
    }
  }

  reset(): void {
    this.#files.clear()
    this.#deletions.clear()
    this.#operations = []
  }
}
