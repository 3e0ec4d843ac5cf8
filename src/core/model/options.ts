import type { Formats } from './formats'
import type { PlaceholderFormat } from './placeholders'
import type { PseudoLocale } from './pseudo'

/**
 * The model folder: the kernel core shares with the client and the emulator, importing nothing outside
 * it. This file is the option model core reads; `wire.ts` the spec's wire types; `placeholders.ts` the
 * placeholder formats (one regex each); `formats.ts` the named formats (`formats`); `pseudo.ts` the one
 * pseudo-localizer.
 */
/**
 * The options as core reads them: their resolved shape, the locale id rule and the error a bad
 * option throws. `src/options.ts` (the public `Options`, defaults, environment, validation) builds
 * them on top of this module, so core never imports the options layer.
 */

export type { PseudoLocale }

/** How the disk cache and the network are used. */
export type CacheMode = 'prefer-network' | 'offline' | 'frozen' | 'refresh'

/**
 * May this run use the network? Not with cache 'offline' or 'frozen', which read the cache only. The
 * one place that says so: the sync, the pipeline's connection (`usesService`, which adds whether the
 * settings make a request possible), the CLI and the review calls ask here.
 */
export function mayUseNetwork(options: { readonly cache: CacheMode }): boolean {
  return options.cache !== 'offline' && options.cache !== 'frozen'
}

/** Credentials, kept apart from the rest so nothing serialises them by accident. */
export interface Credentials {
  userIdentifier: string
  userSecret: string
}

/** Options after defaults, environment and validation; hooks read only these. */
export interface ResolvedOptions {
  root: string
  projectId: string | undefined
  baseUrl: string | undefined
  /** Present only when both parts are set. Not enumerable: never serialised or logged. */
  readonly credentials: Credentials | undefined
  locales: string[]
  sourceLocale: string
  namespace: string | null
  /** The namespace is package.json's name (no `namespace` option): a template's name is warned of. */
  namespaceFromPackage?: boolean
  include: string[]
  exclude: string[]
  keywords: string[]
  placeholder: { format: PlaceholderFormat | null; custom: string | null }
  mode: 'runtime' | 'inline'
  /** Runtime mode: the source locale has a catalog chunk too, and call sites keep only their ids. */
  sourceCatalog: boolean
  /** Named number, date and time formats that messages' styles name (`{n, number, GBP}`). */
  formats: Formats
  retrievalType: 'published' | 'pending'
  push: boolean
  job: { name: string; authorize: boolean } | undefined
  cache: CacheMode
  cacheDir: string
  pseudo: PseudoLocale[]
  failOnMissing: boolean
  minCoverage: number
  report: boolean
  concurrency: number
  maxRequestLineBytes: number
  /** `CI` is set in the environment (not empty, `0` or `false`): a build there must not pass unseen. */
  ci?: boolean
}

const PREFIX = '[unplugin-tms]'

/**
 * A problem whose fix is an option: `option` names it, the message says the fix. Thrown at setup;
 * `ExtractOptionsError` (an extraction option) and `TmsSyncError` (a setting the sync cannot go on
 * with) are its kinds under their own names.
 */
export class TmsConfigError extends Error {
  declare readonly option: string
  constructor(option: string, message: string) {
    super(`${PREFIX} ${message}`)
    this.name = 'TmsConfigError'
    // An expected error: its message names the fix, and a stack trace (ours, or the option printed by
    // util.inspect as `{ option }`) below it in a bundler's output would only bury that message.
    // Bundlers print `stack` minus `name: message`, so the stack is that line alone.
    Object.defineProperty(this, 'option', { value: option, enumerable: false })
    Object.defineProperty(this, 'stack', {
      get: () => `${this.name}: ${this.message}`,
      set: () => undefined,
      configurable: true,
      enumerable: false,
    })
    // Node's util.inspect (vite 8's CLI prints a failed build's error with it) writes a stack with no
    // frames as `[TmsConfigError: ...]`: the line alone reads as every other bundler prints it.
    Object.defineProperty(this, Symbol.for('nodejs.util.inspect.custom'), {
      value: () => this.stack,
      configurable: true,
      enumerable: false,
    })
    // Vite 6 and 7 (and the later releases of 5) put `[<plugin name>] ` before a plugin's error
    // message, which starts with ours already.
    let text = this.message
    Object.defineProperty(this, 'message', {
      get: () => text,
      set: (value: string) => {
        text = String(value).replace(`${PREFIX} ${PREFIX} `, `${PREFIX} `)
      },
      configurable: true,
      enumerable: false,
    })
  }
}

/** Throws the {@link TmsConfigError} of `option`: for checks that report through a callback. */
export function failOption(option: string, message: string): never {
  throw new TmsConfigError(option, message)
}

const LOCALE_ID = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/

/** True for a BCP 47-like locale id; also what keeps locale ids safe as cache file names. */
export function isLocaleId(value: string): boolean {
  return LOCALE_ID.test(value)
}
