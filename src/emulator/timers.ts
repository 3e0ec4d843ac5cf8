/**
 * Timers of background work (publish delays, async processes, callback retries), tracked so that
 * reset and close cancel them instead of letting them touch state later.
 */
export class TimerSet {
  #timers = new Set<NodeJS.Timeout>()

  after(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      fn()
    }, ms)
    // The HTTP server keeps the process alive; pending work alone should not.
    timer.unref()
    this.#timers.add(timer)
  }

  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }

  get size(): number {
    return this.#timers.size
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
