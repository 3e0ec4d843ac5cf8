/** Counts of spec requests by `METHOD /route/:pattern`, so tests can assert how many calls a build made. */
export class RequestLog {
  #total = 0
  #byRoute = new Map<string, number>()

  record(method: string, route: string): void {
    this.#total++
    const key = `${method} ${route}`
    this.#byRoute.set(key, (this.#byRoute.get(key) ?? 0) + 1)
  }

  summary(): { total: number; byRoute: Record<string, number> } {
    return { total: this.#total, byRoute: Object.fromEntries(this.#byRoute) }
  }

  clear(): void {
    this.#total = 0
    this.#byRoute.clear()
  }
}
