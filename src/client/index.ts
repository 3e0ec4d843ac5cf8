import type { Dispatcher } from 'undici'
import { VERSION } from '../version'
import { type AuthApi, TokenManager } from './auth'
import type { ClientContext } from './context'
import { createFilesApi, type FilesApi } from './files'
import { createGlossariesApi, type GlossariesApi } from './glossaries'
import {
  type AnswerEvent,
  DEFAULT_RETRY,
  HttpTransport,
  type RequestStats,
  type RetryEvent,
  type RetryOptions,
} from './http'
import { createIssuesApi, type IssuesApi } from './issues'
import { createJobsApi } from './jobs'
import type { JobsApi } from './jobs-types'
import { createStringsApi } from './strings'
import type { StringsApi } from './strings-types'

export type { AuthApi, TokenPair } from './auth'
export type { TmsErrorCode, TmsErrorItem, TmsRequestCopy } from './errors'
export { TmsApiError } from './errors'
export type * from './files'
export type * from './glossaries'
export type { AnswerEvent, RequestStats, RetryEvent, RetryOptions } from './http'
export { DEFAULT_RETRY, HEALTHY_RETRY_FACTOR } from './http'
export type * from './issues'
export type * from './jobs-types'
export type { Page } from './paging'
export type * from './strings-types'

export interface ClientOptions {
  /** API root, e.g. `https://api.example.com` or an emulator's `http://127.0.0.1:PORT`. */
  baseUrl: string
  userIdentifier: string
  /** Never logged, never copied into an error. */
  userSecret: string
  /** An undici dispatcher to send through; by default the client owns a keep-alive Agent. */
  dispatcher?: Dispatcher
  /**
   * HTTP requests of this client in flight at once.
   * @default 8
   */
  concurrency?: number
  /**
   * Time limit of one HTTP attempt, answer body included.
   * @default 30000
   */
  timeoutMs?: number
  /** Backoff of retried requests; merged over {@link DEFAULT_RETRY}. */
  retry?: Partial<RetryOptions>
  /**
   * First wait between polls of an asynchronous (HTTP 202) process; later waits grow to 8 times this.
   * @default 1000
   */
  pollIntervalMs?: number
  /**
   * Give up on an asynchronous process after this long.
   * @default 600000
   */
  pollTimeoutMs?: number
  /**
   * Longest request line (`GET <target> HTTP/1.1`) sent; hashcode lists are split below it. The
   * default leaves 2 KiB of the 8 KiB that proxies commonly allow for the request line and headers
   * together (nginx, Apache, Node's `--max-http-header-size=8192`) to the headers, the access token
   * among them. Raise it only when every hop to the service accepts longer lines: fewer requests.
   * @default 6144
   */
  maxRequestLineBytes?: number
  /** Called before each retry, e.g. to log "retrying after 503". */
  onRetry?: (event: RetryEvent) => void
  /** Called after each attempt with its status (0: no answer), e.g. to learn that the service took the credentials. */
  onAnswer?: (answer: AnswerEvent) => void
  /** The clock used for token lifetimes (tests move it). @default Date.now */
  now?: () => number
}

export interface TmsClient {
  auth: AuthApi
  strings: StringsApi
  jobs: JobsApi
  issues: IssuesApi
  files: FilesApi
  glossaries: GlossariesApi
  /** A snapshot of the requests made so far. */
  readonly stats: RequestStats
  /** Releases the dispatcher when the client created it; later requests fail with `CLIENT_CLOSED`. */
  close(): Promise<void>
}

export const CLIENT_DEFAULTS: {
  concurrency: number
  timeoutMs: number
  pollIntervalMs: number
  pollTimeoutMs: number
  maxRequestLineBytes: number
} = {
  concurrency: 8,
  timeoutMs: 30_000,
  pollIntervalMs: 1_000,
  pollTimeoutMs: 600_000,
  maxRequestLineBytes: 6 * 1024,
} as const satisfies Partial<ClientOptions>

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new TypeError(
      `[unplugin-tms] client option ${name} must be a number >= ${min}, got ${String(value)}`,
    )
  }
  return value
}

/** The typed client of the service: one object per set of credentials. */
export function createClient(options: ClientOptions): TmsClient {
  if (!options || typeof options.baseUrl !== 'string' || !options.baseUrl) {
    throw new TypeError('[unplugin-tms] client option baseUrl is required (or set TMS_BASE_URL)')
  }
  if (typeof options.userIdentifier !== 'string' || !options.userIdentifier) {
    throw new TypeError(
      '[unplugin-tms] client option userIdentifier is required (or set TMS_USER_IDENTIFIER)',
    )
  }
  if (typeof options.userSecret !== 'string' || !options.userSecret) {
    throw new TypeError('[unplugin-tms] client option userSecret is required (or set TMS_USER_SECRET)')
  }
  const retry: RetryOptions = { ...DEFAULT_RETRY }
  for (const key of Object.keys(DEFAULT_RETRY) as Array<keyof RetryOptions>) {
    retry[key] = positive(`retry.${key}`, options.retry?.[key], DEFAULT_RETRY[key], 0)
  }
  const concurrency = Math.floor(positive('concurrency', options.concurrency, CLIENT_DEFAULTS.concurrency))
  const secret = options.userSecret
  const http = new HttpTransport({
    baseUrl: options.baseUrl,
    dispatcher: options.dispatcher,
    concurrency,
    timeoutMs: positive('timeoutMs', options.timeoutMs, CLIENT_DEFAULTS.timeoutMs),
    retry,
    userAgent: `unplugin-tms/${VERSION}`,
    onRetry: options.onRetry,
    onAnswer: options.onAnswer,
    secrets: () => [secret],
  })
  const auth = new TokenManager(
    http,
    { userIdentifier: options.userIdentifier, userSecret: secret },
    options.now ?? Date.now,
  )
  http.useTokens(auth)
  const ctx: ClientContext = {
    http,
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs, CLIENT_DEFAULTS.pollIntervalMs),
    pollTimeoutMs: positive('pollTimeoutMs', options.pollTimeoutMs, CLIENT_DEFAULTS.pollTimeoutMs),
    maxRequestLineBytes: positive(
      'maxRequestLineBytes',
      options.maxRequestLineBytes,
      CLIENT_DEFAULTS.maxRequestLineBytes,
      256,
    ),
  }
  const authApi: AuthApi = {
    authenticate: () => auth.authenticate(),
    refresh: () => auth.refresh(),
    accessToken: () => auth.accessToken(),
    clear: () => auth.clear(),
  }
  return {
    auth: authApi,
    strings: createStringsApi(ctx),
    jobs: createJobsApi(ctx),
    issues: createIssuesApi(ctx),
    files: createFilesApi(ctx),
    glossaries: createGlossariesApi(ctx),
    get stats(): RequestStats {
      const { total, retries, byRoute, byStatus } = http.stats
      return { total, retries, byRoute: { ...byRoute }, byStatus: { ...byStatus } }
    },
    close: () => http.close(),
  }
}
