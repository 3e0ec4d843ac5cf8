import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/** How long a dev server's memos wait after their last change: the page's burst of requests is over. */
export const AUTOSAVE_MS = 1000

/**
 * A dev server's write of a memo, {@link AUTOSAVE_MS} after the last {@link touch}: its build ends only
 * when the server closes (a server stopped with Ctrl-C never closes), so its memos are written when
 * their changes pause, for its next start. The timer never keeps the process alive.
 */
export class IdleWrite {
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly write: () => void) {}

  touch(): void {
    if (this.timer) this.timer.refresh()
    else
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.write()
      }, AUTOSAVE_MS).unref()
  }

  /** No write waits any more: one is made now, or the memo's build was released. */
  cancel(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}

/**
 * Writes one of the plugin's memo files (`transform-memo.ts`, `ids-memo.ts`) atomically: a temp file
 * beside it, then a rename, so that a build reading it meets the old file or the new one, never half.
 * A failure is swallowed: a memo not written only costs the next build its time.
 */
export async function writeMemoFile(file: string, text: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(temp, text)
    await rename(temp, file)
  } catch {
    await rm(temp, { force: true }).catch(() => {})
  }
}
