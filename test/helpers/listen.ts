/**
 * vite 8 serves `port: 0` by asking the system for a free port, closing it, then binding it again:
 * between the two, another test's connection can take that port ("Port 46603 is already in use",
 * seen once in CI). Starting again asks for another port; any other failure is the test's.
 */
const TAKEN = /^Port \d+ is already in use$/
const TRIES = 5

export async function onFreePort<T>(start: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await start()
    } catch (error) {
      if (tried === TRIES || !(error instanceof Error) || !TAKEN.test(error.message)) throw error
    }
  }
}
