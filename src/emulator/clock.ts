/**
 * The emulator's notion of "now". Expiry (tokens, processes) and every date it returns read it, so a
 * test can move time forward through the control API instead of sleeping.
 */
export class Clock {
  #offsetMs = 0

  now(): number {
    return Date.now() + this.#offsetMs
  }

  advance(ms: number): void {
    this.#offsetMs += ms
  }

  reset(): void {
    this.#offsetMs = 0
  }

  get offsetMs(): number {
    return this.#offsetMs
  }
}

/** `YYYY-MM-DDThh:mm:ssZ`: the spec's date form, without milliseconds. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
