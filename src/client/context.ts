import { TmsApiError } from './errors'
import type { HttpRequest, HttpTransport } from './http'
import { type Page, pollUntil } from './paging'

/** What every API area shares: the transport and the client-wide limits. */
export interface ClientContext {
  http: HttpTransport
  /** First wait between polls of an asynchronous process. */
  pollIntervalMs: number
  /** Give up on an asynchronous process after this long. */
  pollTimeoutMs: number
  /** Longest request line (`GET <target> HTTP/1.1`) sent; long hashcode lists are split below it. */
  maxRequestLineBytes: number
}

/** A page as the service sent it; `totalCount` may be missing on some lists. */
export interface RawPage<T> {
  totalCount?: number
  items: T[]
}

/**
 * One page of a list endpoint. An answer without an `items` array is an error, never an empty page:
 * taking it for the end of a list would silently drop strings or translations.
 */
export async function fetchList<T>(http: HttpTransport, req: HttpRequest): Promise<RawPage<T>> {
  const answer = await http.json<{ totalCount?: unknown; items: unknown[] }>({
    ...req,
    check: (data) =>
      !data || !Array.isArray((data as { items?: unknown }).items)
        ? 'the list answer has no items array'
        : req.check?.(data),
  })
  const data = answer.data
  const page: RawPage<T> = { items: data.items as T[] }
  if (typeof data.totalCount === 'number') page.totalCount = data.totalCount
  return page
}

export function toPage<T>(raw: RawPage<T>): Page<T> {
  return { totalCount: raw.totalCount ?? raw.items.length, items: raw.items }
}

/**
 * Polls an asynchronous process of the service (`req` reads its state) until `isRunning` says it
 * ended. A process the service no longer knows is `PROCESS_EXPIRED`; one still running after
 * `pollTimeoutMs` is `PROCESS_TIMEOUT`. `what` names it in both messages ("job process <uid>"), and
 * `running` is the word for its running state ("in progress").
 */
export async function pollProcess<T>(
  ctx: ClientContext,
  req: HttpRequest,
  read: () => Promise<T>,
  isRunning: (state: T) => boolean,
  what: string,
  running: string,
): Promise<T> {
  const { http } = ctx
  return pollUntil(
    async () => {
      try {
        return await read()
      } catch (error) {
        if (error instanceof TmsApiError && error.code === 'NOT_FOUND_ERROR') {
          throw http.error(
            req,
            'PROCESS_EXPIRED',
            error.status,
            `${what} expired or is unknown`,
            error.attempts,
            error,
          )
        }
        throw error
      }
    },
    (state) => !isRunning(state),
    { intervalMs: ctx.pollIntervalMs, timeoutMs: ctx.pollTimeoutMs },
    () => http.error(req, 'PROCESS_TIMEOUT', 0, `${what} still ${running} after ${ctx.pollTimeoutMs} ms`, 0),
  )
}
