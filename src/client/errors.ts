/** One entry of the envelope's `errors`: the service sometimes sends a single object, we always keep an array. */
export interface TmsErrorItem {
  key: string
  message: string
  details?: unknown
}

/**
 * Codes of the service's envelope plus the client's own codes for answers that never reached the
 * envelope: `INVALID_RESPONSE` (not a JSON envelope: an HTML 502 page, a truncated body), `TIMEOUT`,
 * `NETWORK_ERROR` (refused or dropped connection), `INVALID_REQUEST` (rejected before sending),
 * `PROCESS_FAILED`, `PROCESS_EXPIRED`, `PROCESS_TIMEOUT` (asynchronous work that did not complete),
 * `CLIENT_CLOSED` (a request after `close()`).
 */
export type TmsErrorCode =
  | 'VALIDATION_ERROR'
  | 'AUTHENTICATION_ERROR'
  | 'AUTHORIZATION_ERROR'
  | 'RESOURCE_LOCKED'
  | 'MAX_OPERATIONS_LIMIT_EXCEEDED'
  | 'GENERAL_ERROR'
  | 'MAINTENANCE_MODE_ERROR'
  | 'NOT_FOUND_ERROR'
  | 'INVALID_RESPONSE'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'INVALID_REQUEST'
  | 'PROCESS_FAILED'
  | 'PROCESS_EXPIRED'
  | 'PROCESS_TIMEOUT'
  | 'CLIENT_CLOSED'
  | (string & {})

/** What was sent, with the Authorization header, tokens and secrets blanked. */
export interface TmsRequestCopy {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
}

export interface TmsApiErrorInit {
  code: TmsErrorCode
  status: number
  message: string
  errors?: TmsErrorItem[]
  requestId?: string | null
  request: TmsRequestCopy
  /** Validation answers may carry `message`/`details` beside `errors`. */
  details?: unknown
  /** How many HTTP attempts were made before giving up. */
  attempts?: number
  cause?: unknown
}

export const REDACTED = '[REDACTED]'

/**
 * The one error of the client. `status` is the HTTP status, or 0 when no answer arrived (timeout,
 * network error) or the request was refused before sending.
 */
export class TmsApiError extends Error {
  override readonly name = 'TmsApiError'
  readonly code: TmsErrorCode
  readonly status: number
  readonly errors: TmsErrorItem[]
  readonly requestId: string | null
  readonly request: TmsRequestCopy
  readonly details: unknown
  /** HTTP attempts made before giving up (0: refused before sending). */
  attempts: number
  /** The answer's `Retry-After`, in milliseconds, when it had one. */
  retryAfterMs: number | null = null

  constructor(init: TmsApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.code = init.code
    this.status = init.status
    this.errors = init.errors ?? []
    this.requestId = init.requestId ?? null
    this.request = init.request
    this.details = init.details
    this.attempts = init.attempts ?? 1
  }
}

const SECRET_KEYS = new Set(['usersecret', 'refreshtoken', 'accesstoken', 'authorization', 'password'])

/** A deep copy of a request body with every secret-bearing field blanked. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody)
  if (body && typeof body === 'object') {
    if (isFormDataLike(body)) return '[form data]'
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body)) {
      out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactBody(value)
    }
    return out
  }
  return body
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : value
  }
  return out
}

function isFormDataLike(value: object): boolean {
  return typeof (value as { append?: unknown }).append === 'function' && Symbol.iterator in value
}

/**
 * Replaces every known secret value in a text. The service could echo a token or the secret in an
 * error message; the message is copied into ours, so it is scrubbed first.
 */
export function scrubSecrets(text: string, secrets: Iterable<string | null | undefined>): string {
  let out = text
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED)
  }
  return out
}

/** Turns the envelope's `errors` (array, single object or absent) into an array of items. */
export function normalizeErrorItems(raw: unknown): TmsErrorItem[] {
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : []
  return list.map((item) => {
    const record = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>
    const out: TmsErrorItem = {
      key: typeof record.key === 'string' ? record.key : 'unknown',
      message: typeof record.message === 'string' ? record.message : String(record.message ?? ''),
    }
    if (record.details !== undefined) out.details = record.details
    return out
  })
}

/**
 * A request refused before sending: `field` names the offending parameter
 * (`strings[3].stringText`), in `errors[0].details.field` as the service does it.
 */
export function invalidRequest(method: string, route: string, field: string, problem: string): TmsApiError {
  return new TmsApiError({
    code: 'INVALID_REQUEST',
    status: 0,
    message: `${method} ${route} not sent: ${field} ${problem}`,
    errors: [{ key: 'invalid_parameter', message: `${field} ${problem}`, details: { field } }],
    request: { method, url: route, headers: {} },
    attempts: 0,
  })
}
