/** A bad extraction option; `option` names it, and the message says how to fix it. */
export class ExtractOptionsError extends Error {
  readonly option: string
  constructor(option: string, message: string) {
    super(`[unplugin-tms] ${message}`)
    this.name = 'ExtractOptionsError'
    this.option = option
  }
}
