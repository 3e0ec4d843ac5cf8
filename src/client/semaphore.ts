/** A counting semaphore: at most `limit` HTTP attempts of one client in flight. */
export class Semaphore {
  private active = 0
  private readonly waiting: Array<() => void> = []
  constructor(private readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++
      return
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.active--
  }
}
