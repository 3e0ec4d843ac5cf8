import type { EmulatorStore } from './index'

/**
 * What jobs need to know about files, read from the files area's store part (registered as
 * `files`). Looked up by name and read through the few methods below, so jobs depend on no more of
 * the files area than this.
 */
export interface JobFileSource {
  /** The file's distinct strings, or undefined when the project has no such file. */
  hashcodes(projectId: string, fileUri: string): string[] | undefined
  /** Whether an upload or another operation still holds the file (not "finished uploading"). */
  busy(projectId: string, fileUri: string, now: number): boolean
  /** URIs of the project's files holding any of these strings. */
  filesHolding(projectId: string, hashcodes: ReadonlySet<string>): string[]
}

/** The read side of the files part that jobs use; every method optional, so a missing one is no file. */
interface FilesPart {
  getFile?: (projectId: string, fileUri: string) => { fileUri: string; hashcodes: string[] } | undefined
  listFiles?: (projectId: string) => { fileUri: string; hashcodes: string[] }[]
  isBusy?: (projectId: string, fileUri: string, now: number) => boolean
}

export function jobFileSource(store: EmulatorStore): JobFileSource {
  const part = (): FilesPart => (store.part('files') ?? {}) as FilesPart
  return {
    hashcodes(projectId, fileUri) {
      const file = part().getFile?.(projectId, fileUri)
      return file ? [...new Set(file.hashcodes)] : undefined
    },
    busy(projectId, fileUri, now) {
      return part().isBusy?.(projectId, fileUri, now) ?? false
    },
    filesHolding(projectId, hashcodes) {
      if (hashcodes.size === 0) return []
      const files = part().listFiles?.(projectId) ?? []
      return files.filter((f) => f.hashcodes.some((h) => hashcodes.has(h))).map((f) => f.fileUri)
    },
  }
}
