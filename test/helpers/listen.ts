/**
 * vite 8 serves `port: 0` by asking the system for a free port, closing it, then binding it again:
 * between the two, another test's connection can take that port ("Port 46603 is already in use",
 * seen once in CI). Starting again asks for another port; any other failure is the test's.
 */
const TAKEN = /Port \d+ is already in use/
const TRIES = 5

/**
 * The error to reject with for a server in a child process that ended with `output`: vite's message
 * alone when the race ended it (so that `onFreePort` starts another), else `exited`.
 */
export const portTakenOr = (output: string, exited: Error): Error => {
  const taken = TAKEN.exec(output)
  return taken ? new Error(taken[0]) : exited
}

export async function onFreePort<T>(start: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await start()
    } catch (error) {
      if (tried === TRIES || !(error instanceof Error) || !TAKEN.test(error.message)) throw error
    }
  }
}
