import type { Dispatcher } from 'undici'
import type { TmsApiError } from './errors'

/**
 * Reading one answer of the service: its envelope, `Retry-After`, the file name of a download, and
 * what a network failure was. The transport (`src/client/http.ts`) decides what to do with them.
 */

type ResponseHeaders = Dispatcher.ResponseData['headers']

export interface ParsedEnvelope {
  code: string
  data: unknown
  errors: unknown
  requestId: string | null
  extra: Record<string, unknown>
}

/** The `{ response: { code, data | errors } }` envelope, or null for anything else. */
export function parseEnvelope(text: string): ParsedEnvelope | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const response = (value as { response?: unknown }).response
  if (!response || typeof response !== 'object') return null
  const { code, data, errors, requestId, ...extra } = response as Record<string, unknown>
  if (typeof code !== 'string' || !code) return null
  return {
    code,
    data: data ?? null,
    errors,
    requestId: typeof requestId === 'string' ? requestId : null,
    extra,
  }
}

/**
 * A success whose body did not arrive whole or in shape (cut off, mangled by a middlebox): the work
 * may have been done, as after a 5xx, so it is asked again only where that is safe. A malformed 4xx
 * (a proxy's HTML 404 or 431) is an answer about the request, and the same request gets it again.
 */
export function isGarbledSuccess(failure: TmsApiError): boolean {
  return failure.code === 'INVALID_RESPONSE' && failure.status >= 200 && failure.status < 300
}

export function withRetryAfter(error: TmsApiError, headers: ResponseHeaders): TmsApiError {
  const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'))
  if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs
  return error
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

export function headerValue(headers: ResponseHeaders, name: string): string | null {
  const value = headers[name]
  if (Array.isArray(value)) return value[0] ?? null
  return value ?? null
}

export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition)
  if (star) {
    try {
      return baseName(decodeURIComponent(star[1].trim().replace(/^"|"$/g, '')))
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)
  return plain ? baseName(plain[1].trim()) : null
}

/**
 * The last path segment only (RFC 6266, 4.3): a caller that saves a download under this name must not
 * be sent into another directory by a `../` or an absolute path in the header.
 */
export function baseName(name: string): string | null {
  const last = name.split(/[/\\]/).pop()!.trim()
  return last === '' || last === '.' || last === '..' ? null : last
}

export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (!flat) return '(empty body)'
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 120)}...` : flat)
}

const UNDICI_TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** An injected dispatcher may have its own, shorter timeouts. */
export function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && UNDICI_TIMEOUTS.has(code)
}

export function describeNetworkError(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, message } = error as { code?: unknown; message?: unknown }
    const text = typeof message === 'string' ? message : 'unknown failure'
    return typeof code === 'string' ? `${code} ${text}` : text
  }
  return String(error)
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
