import type { Clock } from './clock'

interface PendingTimer {
  due: number
  fn: () => void
}

/**
 * Timers of background work (publish delays, async processes, callback retries), tracked so that
 * reset and close cancel them instead of letting them touch state later. They run on the emulator's
 * clock: moving it forward through the control API runs the work that came due at once, so a test
 * waits for nothing and sees each state for as long as it likes.
 */
export class TimerSet {
  #timers = new Map<NodeJS.Timeout, PendingTimer>()
  readonly #clock: Clock

  constructor(clock: Clock) {
    this.#clock = clock
  }

  after(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      fn()
    }, ms)
    // The HTTP server keeps the process alive; pending work alone should not.
    timer.unref()
    this.#timers.set(timer, { due: this.#clock.now() + ms, fn })
  }

  /** Runs, earliest first, the work due by the clock's now (called after the clock moved forward). */
  runDue(): number {
    const now = this.#clock.now()
    const due = [...this.#timers].filter(([, t]) => t.due <= now).sort(([, a], [, b]) => a.due - b.due)
    for (const [timer, pending] of due) {
      // An earlier one may have cleared the set (a reset).
      if (!this.#timers.delete(timer)) continue
      clearTimeout(timer)
      pending.fn()
    }
    return due.length
  }

  clear(): void {
    for (const timer of this.#timers.keys()) clearTimeout(timer)
    this.#timers.clear()
  }

  get size(): number {
    return this.#timers.size
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
