import type { TmsErrorCode } from './errors'

/** What a client tells of its requests: the counts, each retry, each attempt's outcome. */

/** Requests made by one client: every HTTP attempt counts, retries included. */
export interface RequestStats {
  total: number
  /** Attempts beyond the first of a request (backoff retries and 401 refresh-and-retry). */
  retries: number
  /** `"POST /strings-api/v2/projects/:projectId": 10`. */
  byRoute: Record<string, number>
  /** `"200": 31, "503": 4, "network": 2, "timeout": 0`. */
  byStatus: Record<string, number>
}

export interface RetryEvent {
  method: string
  route: string
  /** The attempt that failed, from 1. */
  attempt: number
  delayMs: number
  /** Envelope code or client code of the failure (`MAX_OPERATIONS_LIMIT_EXCEEDED`, `NETWORK_ERROR`, ...). */
  code: TmsErrorCode
  status: number
}

/** One attempt's outcome: the HTTP status, or 0 when no answer came (network failure, timeout). */
export interface AnswerEvent {
  method: string
  route: string
  status: number
}
