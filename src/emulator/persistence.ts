import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, unlinkSync } from 'node:fs'
import { rename, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

const DATA_VERSION = 1

/**
 * Temp files being written now. A process that exits mid-write (a second Ctrl-C, process.exit
 * elsewhere) removes them on its way out, so no `state.json.*.tmp` is left behind.
 */
const writing = new Set<string>()
let exitHook = false

function removeTempFiles(): void {
  for (const temp of writing) {
    try {
      unlinkSync(temp)
    } catch {
      // Already renamed or never created.
    }
  }
}

interface DataFile {
  version: number
  state: Record<string, unknown>
}

/**
 * The `dataFile` option: state written as JSON through a temp file and a rename, so a reader (or a
 * crash) never sees half a file. Writes are coalesced: many changes in a burst make one write.
 */
export class Persistence {
  readonly #file: string
  readonly #snapshot: () => Record<string, unknown>
  #timer: NodeJS.Timeout | null = null
  #writing: Promise<void> = Promise.resolve()

  constructor(file: string, snapshot: () => Record<string, unknown>) {
    this.#file = file
    this.#snapshot = snapshot
  }

  /** The saved state, or undefined when there is no file yet. A damaged file is an error naming it. */
  load(): Record<string, unknown> | undefined {
    let text: string
    try {
      text = readFileSync(this.#file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new Error(
        `[unplugin-tms] cannot read emulator data file ${this.#file}: ${(error as Error).message}`,
      )
    }
    let data: DataFile
    try {
      data = JSON.parse(text) as DataFile
    } catch (error) {
      throw new Error(
        `[unplugin-tms] emulator data file ${this.#file} is not valid JSON (${(error as Error).message}); ` +
          'delete it to start empty',
      )
    }
    if (data?.version !== DATA_VERSION || typeof data.state !== 'object' || data.state === null) {
      throw new Error(
        `[unplugin-tms] emulator data file ${this.#file} has an unknown format; delete it to start empty`,
      )
    }
    return data.state
  }

  schedule(): void {
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = null
      void this.#write()
    }, 25)
    this.#timer.unref()
  }

  /** Writes now if a write is pending, and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer)
      this.#timer = null
      await this.#write()
    }
    await this.#writing
  }

  #write(): Promise<void> {
    const body = JSON.stringify({ version: DATA_VERSION, state: this.#snapshot() } satisfies DataFile)
    this.#writing = this.#writing.then(async () => {
      const temp = `${this.#file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
      if (!exitHook) {
        exitHook = true
        process.on('exit', removeTempFiles)
      }
      writing.add(temp)
      try {
        mkdirSync(dirname(this.#file), { recursive: true })
        await writeFile(temp, body)
        await rename(temp, this.#file)
        writing.delete(temp)
      } catch (error) {
        writing.delete(temp)
        await unlink(temp).catch(() => {})
        process.emitWarning(
          `[unplugin-tms] emulator could not save ${this.#file}: ${(error as Error).message}`,
        )
      }
    })
    return this.#writing
  }
}
