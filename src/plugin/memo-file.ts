import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes one of the plugin's memo files (`transform-memo.ts`, `ids-memo.ts`) atomically: a temp file
 * beside it, then a rename, so that a build reading it meets the old file or the new one, never half.
 * A failure is swallowed: a memo not written only costs the next build its time.
 */
export async function writeMemoFile(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(temp, text)
    await rename(temp, file)
  } catch {
    await rm(temp, { force: true }).catch(() => {})
  }
}
