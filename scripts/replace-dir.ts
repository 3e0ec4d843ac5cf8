/**
 * A finished build put in place of the previous one so that the folder is never incomplete: each new
 * file is renamed in (a rename replaces a file whole), files that are new by name before the ones
 * that replace a name, and the previous build's leftovers removed last. At every step each file of
 * the folder is whole and every file it imports is there: a new entry imports its new chunks (renamed
 * in first), an entry not yet replaced imports its old ones (removed last). An `npm pack` or a test
 * reading `dist/` while `npm test`'s build runs gets one build or the other, file by file.
 *
 * Not one directory rename: swapping two folders takes two renames, with no folder between them.
 */
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'

/** Every file under `dir`, relative and with `/` separators; none when `dir` does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/**
 * Moves every file of `from` into `to` (same file system) and removes the files of `to` that `from`
 * does not have; `from` is removed. `afterStep` (tests) runs after each change to `to`.
 */
export async function replaceDir(
  from: string,
  to: string,
  afterStep: (change: string) => Promise<void> | void = () => {},
): Promise<void> {
  const next = await filesUnder(from)
  const previous = new Set(await filesUnder(to))
  const kept = new Set(next)
  const added = next.filter((f) => !previous.has(f))
  const replaced = next.filter((f) => previous.has(f))
  for (const file of [...added, ...replaced]) {
    await mkdir(dirname(join(to, file)), { recursive: true })
    await rename(join(from, file), join(to, file))
    await afterStep(`${previous.has(file) ? 'replaced' : 'added'} ${file}`)
  }
  for (const file of previous) {
    if (kept.has(file)) continue
    await rm(join(to, file), { force: true })
    await afterStep(`removed ${file}`)
    // A folder the new build has nothing in goes with its last file.
    for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) {
      const left = await readdir(join(to, dir)).catch(() => ['?'])
      if (left.length > 0) break
      await rmdir(join(to, dir))
    }
  }
  await rm(from, { recursive: true, force: true })
}
