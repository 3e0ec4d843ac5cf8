import { closeSync, fstatSync, openSync, read } from 'node:fs'

/**
 * A file's bytes, read by one call on libuv's threads. `fs.promises.readFile` reads 512 KiB at a
 * time, and this thread asks for each next part: while it runs synchronous work (a build start's walk
 * of the tree and its stat of each file) a file of megabytes waits there. Opened and sized here,
 * synchronously (microseconds); rejects as `readFile` would (ENOENT and the rest).
 */
export function readWhole(file: string): Promise<Buffer> {
  let fd: number | undefined
  let size: number
  try {
    fd = openSync(file, 'r')
    size = fstatSync(fd).size
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    return Promise.reject(error)
  }
  const bytes = Buffer.allocUnsafe(size)
  return new Promise((resolve, reject) => {
    const next = (at: number): void => {
      if (at >= size) {
        closeSync(fd)
        resolve(bytes)
        return
      }
      read(fd, bytes, at, size - at, at, (error, count) => {
        if (error) {
          closeSync(fd)
          reject(error)
        } else if (count === 0) {
          // Shorter than its size said (truncated meanwhile): what was there.
          closeSync(fd)
          resolve(bytes.subarray(0, at))
        } else next(at + count)
      })
    }
    next(0)
  })
}
