/** The public shapes of `unplugin-tms/emulator`. */

export interface EmulatorSeedUser {
  userIdentifier: string
  userSecret: string
  /**
   * Accounts this user may work in (emulator extension). Absent: every account. A request for a
   * project of another account gets 401 `AUTHORIZATION_ERROR`.
   */
  accountUids?: string[]
}

export interface EmulatorSeedProject {
  projectId: string
  sourceLocaleId: string
  targetLocaleIds: string[]
}

export interface EmulatorSeedAccount {
  accountUid: string
  projects: EmulatorSeedProject[]
}

export interface TranslationMemoryEntry {
  localeId: string
  /** Source text in `{0}` form (the parsed text of a string). */
  source: string
  /** Target text in `{0}` form. */
  target: string
}

export interface EmulatorSeed {
  users: EmulatorSeedUser[]
  accounts: EmulatorSeedAccount[]
  translationMemory?: TranslationMemoryEntry[]
}

export type AutoTranslateMode = 'memory' | 'pseudo' | 'off'

export interface AutoTranslateSettings {
  mode: AutoTranslateMode
  /** Time between filling a translation (pending) and publishing it. 0 publishes at once. */
  publishDelayMs?: number
}

export interface FaultSettings {
  /** Delay before each spec request is handled. */
  latencyMs?: number
  /** Share (0..1) of spec requests answered with this status and its envelope. */
  rates?: Partial<Record<'429' | '423' | '500' | '503', number>>
  /** Share of spec requests whose connection is destroyed without an answer. */
  dropRate?: number
  /** Share of asynchronous (202) create-strings processes that end `failed` with nothing created. */
  processFailRate?: number
  /** Seed of the fault dice, for reproducible runs. */
  seed?: number
}

export interface EmulatorOptions {
  /** 0 = a free port. @default 0 (the CLI's default is 4870) */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** An object or the path of a JSON file. @default DEMO_SEED */
  seed?: EmulatorSeed | string
  /** Persist state atomically (temp file + rename) and load it at start. */
  dataFile?: string
  /** Access token lifetime in seconds. @default 480 */
  expiresIn?: number
  /** Refresh token lifetime in seconds. @default 3660 */
  refreshExpiresIn?: number
  /** Create-strings synchronous window; past it the answer is 202. 0 = always 202. @default 60000 */
  syncWindowMs?: number
  /** How long a create-strings request takes to process (emulator extension). @default 0 */
  processingMs?: number
  /** How long a finished create-strings process stays queryable. @default 3600000 */
  processTtlMs?: number
  /** Retries of a failed callback (after the first attempt). @default 3 */
  callbackRetries?: number
  /** First retry delay of a failed callback; doubled on each retry. @default 1000 */
  callbackRetryBaseMs?: number
  /** Job operations (add/remove strings, files, locales, cancel) on more hashcodes answer 202. @default 100 */
  jobSyncMaxHashcodes?: number
  /** How long an asynchronous (202) job operation takes before it is applied. @default 0 */
  jobProcessMs?: number
  /** How long a file upload, import, rename or delete holds its file (RESOURCE_LOCKED) and one of the project's 10 operation slots. @default 0 */
  fileOperationMs?: number
  /** How long an asynchronous file delete takes; until then the URI cannot be uploaded again. @default 60000 */
  fileDeleteMs?: number
  /**
   * The `Retry-After` header, in seconds, of every 429 and 503 answer (injected faults and the
   * project's file-operation limit alike). 0 says "retry at once" and keeps tests fast. @default 0
   */
  retryAfterSeconds?: number
  /** Auto-translator settings applied to every project at start and on reset. @default { mode: 'off' } */
  autoTranslate?: AutoTranslateSettings
  /** Fault injection at start and on reset. @default none */
  faults?: FaultSettings
  /** Where request lines go. @default none */
  log?: (line: string) => void
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  port: number
  close(): Promise<void>
}
