import type { HttpRequest, HttpTransport } from './http'
import type { Page } from './paging'

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
