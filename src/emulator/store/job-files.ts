import type { EmulatorStore } from './index'

/**
 * What jobs need to know about files. The files area registers its store part as `files` with a
 * `getFile(projectId, fileUri)` read method; a file's strings live in the StringStore with their
 * `fileUri`, so the hashcodes come from there (or from the file record when it lists them).
 */
export interface JobFileSource {
  /** The file's active strings, or undefined when the project has no such (finished) file. */
  hashcodes(projectId: string, fileUri: string): string[] | undefined
}

interface FilesPartShape {
  getFile?: (projectId: string, fileUri: string) => unknown
}

export function jobFileSource(store: EmulatorStore): JobFileSource {
  const fromStrings = (projectId: string, fileUri: string): string[] =>
    store.strings
      .list(projectId)
      .filter((s) => s.fileUri === fileUri && s.active)
      .map((s) => s.hashcode)
  return {
    hashcodes(projectId, fileUri) {
      const part = store.part('files') as FilesPartShape | undefined
      if (typeof part?.getFile !== 'function') {
        // No files area: a file is known by the strings that came from it.
        const found = fromStrings(projectId, fileUri)
        return found.length > 0 ? found : undefined
      }
      const file = part.getFile(projectId, fileUri) as
        | { hashcodes?: unknown; deleting?: unknown; deleted?: unknown }
        | null
        | undefined
      if (!file || file.deleting === true || file.deleted === true) return undefined
      if (Array.isArray(file.hashcodes) && file.hashcodes.every((h) => typeof h === 'string')) {
        return file.hashcodes as string[]
      }
      return fromStrings(projectId, fileUri)
    },
  }
}
