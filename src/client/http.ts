import { Agent, type Dispatcher, type FormData } from 'undici'
import {
  normalizeErrorItems,
  redactBody,
  redactHeaders,
  scrubSecrets,
  TmsApiError,
  type TmsErrorCode,
  type TmsRequestCopy,
} from './errors'
import type { AnswerEvent, RequestStats, RetryEvent } from './events'
import {
  describeNetworkError,
  fileNameOf,
  headerValue,
  isGarbledSuccess,
  isTimeoutError,
  parseEnvelope,
  sleep,
  snippet,
  withRetryAfter,
} from './response'
import { Semaphore } from './semaphore'

export type { AnswerEvent, RequestStats, RetryEvent }

export interface RetryOptions {
  /**
   * Further tries after the first one. While other requests of the client succeed (the service is up
   * and its failures pass), a request may take up to {@link HEALTHY_RETRY_FACTOR} times as many.
   */
  retries: number
  /** Backoff before the first retry; doubles each time, with jitter. */
  minDelayMs: number
  /** Cap of one backoff (a larger `Retry-After` is still honoured while it fits in `maxTotalMs`). */
  maxDelayMs: number
  /** No retry starts once this much time has passed since the first try. */
  maxTotalMs: number
}

export const DEFAULT_RETRY: RetryOptions = {
  retries: 5,
  minDelayMs: 250,
  maxDelayMs: 8_000,
  maxTotalMs: 60_000,
} as const satisfies RetryOptions

/**
 * How far a request's retries stretch while the service answers other requests. A service that
 * refuses everything (maintenance, down) is given up on after `retries`; one that fails a share of
 * requests at random is not: at 35% failures a request exhausts 5 retries once in 550, which in a
 * 5,000-string build (about 120 requests) lost strings one build in five. With 15 it is once in
 * 20 million.
 */
export const HEALTHY_RETRY_FACTOR = 3

export interface TransportOptions {
  baseUrl: string
  dispatcher?: Dispatcher
  concurrency: number
  timeoutMs: number
  retry: RetryOptions
  userAgent: string
  onRetry?: (event: RetryEvent) => void
  onAnswer?: (answer: AnswerEvent) => void
  /** Values to scrub from any text copied into an error (the user secret). */
  secrets: () => Iterable<string | null | undefined>
  random?: () => number
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface HttpRequest {
  method: HttpMethod
  /** Path below the base URL with its query string, e.g. `/strings-api/v2/projects/p1/translations?x=1`. */
  path: string
  /** Template for stats and errors, e.g. `/strings-api/v2/projects/:projectId/translations`. */
  route: string
  /** JSON body. */
  body?: unknown
  /** Multipart body (files interface). */
  form?: FormData
  /** Sends the bearer token (every endpoint but the two authentication ones). */
  auth?: boolean
  /**
   * Safe to send again after a failure that may have reached the service (5xx, dropped connection,
   * timeout). 429/423/503 are retried for every request: the service refused the work.
   */
  idempotent: boolean
  /**
   * What a successful answer's `data` must look like: a problem ("the list answer has no items
   * array") makes the answer malformed, retried like one that does not parse.
   */
  check?: (data: unknown) => string | undefined
}

export interface EnvelopeResult<T> {
  status: number
  code: string
  data: T
  requestId: string | null
  /** `message`/`details` beside `data` in some answers. */
  extra: Record<string, unknown>
  attempts: number
}

export interface BinaryResult {
  status: number
  body: Uint8Array
  contentType: string | null
  /** From `Content-Disposition`, when the service names the file. */
  fileName: string | null
  requestId: string | null
}

/** Supplies and renews the bearer token; implemented by auth.ts. */
export interface TokenSource {
  token(): Promise<string>
  /** Called with a token the service answered 401 to; the next `token()` must not return it. */
  invalidate(token: string): void
  /** Tokens currently held, scrubbed from error texts. */
  held(): Iterable<string | null | undefined>
}

/** Statuses that mean "the service did not do the work, ask again later". */
const REFUSED_STATUSES = new Set([423, 429, 503])
/** Statuses after which the work may or may not have been done. */
const UNCERTAIN_STATUSES = new Set([500, 502, 504])

interface AttemptOutcome {
  status: number
  headers: Dispatcher.ResponseData['headers']
  text?: string
  bytes?: Uint8Array
}

export class HttpTransport {
  readonly stats: RequestStats = { total: 0, retries: 0, byRoute: {}, byStatus: {} }
  private readonly origin: string
  private readonly basePath: string
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly semaphore: Semaphore
  private tokens: TokenSource | null = null
  private closed = false
  /** Requests of this client answered with success so far: tells a flaky service from a dead one. */
  private succeeded = 0

  constructor(private readonly options: TransportOptions) {
    const url = new URL(options.baseUrl)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`[unplugin-tms] client option baseUrl must be an http(s) URL, got ${url.protocol}`)
    }
    this.origin = url.origin
    this.basePath = url.pathname.replace(/\/+$/, '')
    this.ownsDispatcher = !options.dispatcher
    this.dispatcher =
      options.dispatcher ??
      new Agent({ connections: options.concurrency, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 })
    this.semaphore = new Semaphore(options.concurrency)
  }

  useTokens(tokens: TokenSource): void {
    this.tokens = tokens
  }

  /** Length of the request line (`GET <target> HTTP/1.1\r\n`) a path would give. */
  requestLineLength(method: HttpMethod, path: string): number {
    return Buffer.byteLength(`${method} ${this.basePath}${path} HTTP/1.1\r\n`)
  }

  /** Turns an absolute URL the service handed out into a path below the base URL, or null if foreign. */
  pathOf(absoluteUrl: string): string | null {
    let url: URL
    try {
      url = new URL(absoluteUrl, `${this.origin}${this.basePath}/`)
    } catch {
      return null
    }
    if (url.origin !== this.origin) return null
    if (this.basePath && !url.pathname.startsWith(`${this.basePath}/`)) return null
    return url.pathname.slice(this.basePath.length) + url.search
  }

  async json<T>(req: HttpRequest): Promise<EnvelopeResult<T>> {
    return this.run(req, 'json') as Promise<EnvelopeResult<T>>
  }

  async binary(req: HttpRequest): Promise<BinaryResult> {
    return this.run(req, 'binary') as Promise<BinaryResult>
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.ownsDispatcher) await this.dispatcher.close()
  }

  private async run(
    req: HttpRequest,
    kind: 'json' | 'binary',
  ): Promise<EnvelopeResult<unknown> | BinaryResult> {
    const started = Date.now()
    // Successes of other requests once this one started failing: the service is up, the failures pass.
    let succeededAtFirstFailure = -1
    const useAuth = req.auth !== false
    let attempt = 0
    // Backoff retries used; the one replay after a 401 is not one of them.
    let retried = 0
    let replayedAfter401 = false
    for (;;) {
      attempt++
      if (this.closed) throw this.error(req, 'CLIENT_CLOSED', 0, 'the client was closed', attempt)
      if (attempt > 1) this.stats.retries++
      const token = useAuth ? await this.requireTokens().token() : null
      let failure: TmsApiError
      try {
        const outcome = await this.attempt(req, token, kind)
        if (outcome.status === 401 && token && !replayedAfter401) {
          // One refresh-and-retry: the token may have expired between our check and the service's.
          replayedAfter401 = true
          this.requireTokens().invalidate(token)
          continue
        }
        const result = this.checked(req, this.interpret(req, outcome, kind, attempt), attempt)
        if (!(result instanceof TmsApiError)) {
          this.succeeded++
          return result
        }
        failure = result
      } catch (error) {
        if (!(error instanceof TmsApiError)) throw error
        failure = error
      }
      failure.attempts = attempt
      if (succeededAtFirstFailure < 0) succeededAtFirstFailure = this.succeeded
      const serviceAnswers = this.succeeded > succeededAtFirstFailure
      const delay = this.retryDelay(req, failure, retried, started, serviceAnswers)
      if (delay === null) throw failure
      retried++
      this.options.onRetry?.({
        method: req.method,
        route: req.route,
        attempt,
        delayMs: delay,
        code: failure.code,
        status: failure.status,
      })
      await sleep(delay)
    }
  }

  private checked(
    req: HttpRequest,
    result: EnvelopeResult<unknown> | BinaryResult | TmsApiError,
    attempts: number,
  ): EnvelopeResult<unknown> | BinaryResult | TmsApiError {
    if (result instanceof TmsApiError || !req.check || !('data' in result)) return result
    const problem = req.check(result.data)
    return problem ? this.error(req, 'INVALID_RESPONSE', result.status, problem, attempts) : result
  }

  private requireTokens(): TokenSource {
    if (!this.tokens) throw new Error('[unplugin-tms] internal: the client has no token source')
    return this.tokens
  }

  /**
   * Milliseconds to wait before the next try, or null to give up. Kept over undici's RetryAgent
   * (measured 2026-11: 400 requests each refused twice with 503, wall median 18.2 s against 18.9 s,
   * CPU 2.06 s against 1.70 s): RetryAgent caps a Retry-After at its maxTimeout, has no jitter and no
   * total budget, and sees neither a malformed success nor the 401 that asks for a new token.
   */
  private retryDelay(
    req: HttpRequest,
    failure: TmsApiError,
    retried: number,
    started: number,
    serviceAnswers: boolean,
  ): number | null {
    const { retry } = this.options
    if (retried >= retry.retries * (serviceAnswers ? HEALTHY_RETRY_FACTOR : 1)) return null
    const retryable =
      REFUSED_STATUSES.has(failure.status) ||
      (req.idempotent &&
        (UNCERTAIN_STATUSES.has(failure.status) ||
          failure.code === 'NETWORK_ERROR' ||
          failure.code === 'TIMEOUT' ||
          isGarbledSuccess(failure)))
    if (!retryable) return null
    const base = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** retried)
    const random = this.options.random ?? Math.random
    // "Equal jitter": never less than half the backoff, so retries of many requests spread out.
    let delay = Math.round(base / 2 + random() * (base / 2))
    if (failure.retryAfterMs !== null) delay = Math.max(delay, failure.retryAfterMs)
    if (Date.now() - started + delay > retry.maxTotalMs) {
      if (delay === failure.retryAfterMs) {
        // Said in the error: otherwise a give-up on the first try looks like a client that never retries.
        failure.message += ` (the service asked to retry after ${delay / 1000} s, past the client's retry.maxTotalMs of ${retry.maxTotalMs} ms)`
      }
      return null
    }
    return delay
  }

  private async attempt(
    req: HttpRequest,
    token: string | null,
    kind: 'json' | 'binary',
  ): Promise<AttemptOutcome> {
    const headers: Record<string, string> = {
      accept: kind === 'json' ? 'application/json' : '*/*',
      'user-agent': this.options.userAgent,
    }
    if (token) headers.authorization = `Bearer ${token}`
    let body: string | FormData | undefined
    if (req.form) body = req.form
    else if (req.body !== undefined) {
      body = JSON.stringify(req.body)
      headers['content-type'] = 'application/json'
    }
    const routeKey = `${req.method} ${req.route}`
    this.stats.total++
    this.stats.byRoute[routeKey] = (this.stats.byRoute[routeKey] ?? 0) + 1

    await this.semaphore.acquire()
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs)
    try {
      const response = await this.dispatcher.request({
        origin: this.origin,
        path: this.basePath + req.path,
        method: req.method,
        headers,
        body,
        signal: controller.signal,
        // We decide about retries ourselves, with the request's own idempotency.
        idempotent: false,
      })
      const outcome: AttemptOutcome = { status: response.statusCode, headers: response.headers }
      const isBinary = kind === 'binary' && response.statusCode === 200
      if (isBinary) outcome.bytes = new Uint8Array(await response.body.arrayBuffer())
      else outcome.text = await response.body.text()
      this.count(req, response.statusCode)
      return outcome
    } catch (error) {
      if (controller.signal.aborted || isTimeoutError(error)) {
        this.count(req, 'timeout')
        throw this.error(
          req,
          'TIMEOUT',
          0,
          `no complete answer within ${this.options.timeoutMs} ms`,
          1,
          error,
        )
      }
      this.count(req, 'network')
      const detail = describeNetworkError(error)
      throw this.error(req, 'NETWORK_ERROR', 0, `network error: ${detail}`, 1, error)
    } finally {
      clearTimeout(timer)
      this.semaphore.release()
    }
  }

  /** An attempt's outcome: its HTTP status, or no answer ('timeout', 'network', reported as status 0). */
  private count(req: HttpRequest, outcome: number | 'timeout' | 'network'): void {
    this.stats.byStatus[outcome] = (this.stats.byStatus[outcome] ?? 0) + 1
    const status = typeof outcome === 'number' ? outcome : 0
    this.options.onAnswer?.({ method: req.method, route: req.route, status })
  }

  private interpret(
    req: HttpRequest,
    outcome: AttemptOutcome,
    kind: 'json' | 'binary',
    attempts: number,
  ): EnvelopeResult<unknown> | BinaryResult | TmsApiError {
    const requestIdHeader = headerValue(outcome.headers, 'x-sl-requestid')
    if (outcome.bytes) {
      return {
        status: outcome.status,
        body: outcome.bytes,
        contentType: headerValue(outcome.headers, 'content-type'),
        fileName: fileNameOf(headerValue(outcome.headers, 'content-disposition')),
        requestId: requestIdHeader,
      }
    }
    const envelope = parseEnvelope(outcome.text ?? '')
    if (!envelope) {
      const type = headerValue(outcome.headers, 'content-type') ?? 'no content type'
      const error = this.error(
        req,
        'INVALID_RESPONSE',
        outcome.status,
        `HTTP ${outcome.status} answer is not a JSON envelope (${type}, ${Buffer.byteLength(outcome.text ?? '')} bytes): ${snippet(outcome.text ?? '')}`,
        attempts,
      )
      return withRetryAfter(error, outcome.headers)
    }
    const requestId = envelope.requestId ?? requestIdHeader
    const ok =
      (outcome.status === 200 && envelope.code === 'SUCCESS') ||
      (outcome.status === 202 && envelope.code === 'ACCEPTED')
    if (ok && kind === 'json') {
      return {
        status: outcome.status,
        code: envelope.code,
        data: envelope.data,
        requestId,
        extra: envelope.extra,
        attempts,
      }
    }
    if (ok) {
      // A download answered with an envelope instead of content.
      return this.error(
        req,
        'INVALID_RESPONSE',
        outcome.status,
        'expected file content, got an envelope',
        attempts,
      )
    }
    const errors = normalizeErrorItems(envelope.errors)
    const serviceMessage =
      errors.map((e) => e.message).find((m) => m) ??
      (typeof envelope.extra.message === 'string' ? envelope.extra.message : '')
    const error = new TmsApiError({
      code: envelope.code,
      status: outcome.status,
      message: this.message(
        req,
        `${outcome.status} ${envelope.code}${serviceMessage ? `: ${serviceMessage}` : ''}`,
      ),
      errors: errors.map((e) => ({ ...e, message: this.scrub(e.message) })),
      requestId,
      request: this.copy(req),
      details: envelope.extra.details,
      attempts,
    })
    return withRetryAfter(error, outcome.headers)
  }

  private message(req: HttpRequest, text: string): string {
    const path = req.path.split('?')[0]
    return this.scrub(`${req.method} ${path} failed: ${text}`)
  }

  private scrub(text: string): string {
    const held = this.tokens ? [...this.tokens.held()] : []
    return scrubSecrets(text, [...this.options.secrets(), ...held])
  }

  private copy(req: HttpRequest): TmsRequestCopy {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent }
    if (req.auth !== false) headers.authorization = 'Bearer'
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    const copy: TmsRequestCopy = {
      method: req.method,
      url: `${this.origin}${this.basePath}${req.path}`,
      headers: redactHeaders(headers),
    }
    if (req.form) copy.body = '[form data]'
    else if (req.body !== undefined) copy.body = redactBody(req.body)
    return copy
  }

  error(
    req: HttpRequest,
    code: TmsErrorCode,
    status: number,
    text: string,
    attempts: number,
    cause?: unknown,
  ): TmsApiError {
    return new TmsApiError({
      code,
      status,
      message: this.message(req, text),
      request: this.copy(req),
      attempts,
      cause,
    })
  }
}
