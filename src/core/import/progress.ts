import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * What an import has done, kept in `<cacheDir>/import/progress.json` so that a rerun after a failure
 * skips it: each finished request (an upload of a batch, the import of one locale into it) is
 * recorded by a digest of everything it sent, so a changed catalog or state is sent again and an
 * unchanged one is not. Written atomically (temp file + rename) after each request; a file that
 * cannot be read is an empty record (the worst case is a request repeated, which the service
 * takes: re-uploading a file or importing without overwrite changes nothing).
 */

const VERSION = 1

export class ImportProgress {
  readonly file: string
  #done = new Set<string>()

  private constructor(file: string) {
    this.file = file
  }

  static async open(file: string): Promise<ImportProgress> {
    const progress = new ImportProgress(file)
    try {
      const read = JSON.parse(await readFile(file, 'utf8')) as { version?: unknown; done?: unknown }
      if (read.version === VERSION && Array.isArray(read.done))
        for (const d of read.done) if (typeof d === 'string') progress.#done.add(d)
    } catch {
      // No record, or one that cannot be read: nothing counts as done.
    }
    return progress
  }

  static digest(...parts: readonly string[]): string {
    return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)
  }

  has(step: string): boolean {
    return this.#done.has(step)
  }

  async record(step: string): Promise<void> {
    this.#done.add(step)
    await mkdir(dirname(this.file), { recursive: true })
    const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`
    await writeFile(temp, `${JSON.stringify({ version: VERSION, done: [...this.#done] })}\n`)
    await rename(temp, this.file)
  }
}
