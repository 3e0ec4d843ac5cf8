/** One page of a list endpoint: `data` is `{ totalCount, items }`. */
export interface Page<T> {
  totalCount: number
  items: T[]
}

/**
 * Every item of every page. `totalCount` decides the end when the service sends it (a service may
 * cap a page below the asked limit); a short or empty page ends it otherwise. `maxItems` is how many
 * items the query can match at most (one per hashcode asked for): past it the list ends whatever
 * `totalCount` says, so a service that repeats its pages and announces a billion items cannot keep
 * the caller asking for ever.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<{ totalCount?: number; items: T[] }>,
  limit: number,
  maxItems: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<T, void, undefined> {
  let offset = 0
  for (;;) {
    const page = await fetchPage(offset, limit)
    const items = page.items
    yield* items
    offset += items.length
    if (items.length === 0 || offset >= maxItems) return
    if (typeof page.totalCount === 'number') {
      if (offset >= page.totalCount) return
    } else if (items.length < limit) return
  }
}

/**
 * Every item of several independent lists, in list order. The first list is read alone: a service
 * that fails it (maintenance, an outage) is not asked for the others. Then the others are all asked
 * at once, each kept until its turn (the client's concurrency limit still paces the requests): a
 * pull of ten runs of hashcodes waits for two round trips, not ten. A later list's failure is thrown
 * when its turn comes, after the items before it.
 */
export async function* listsInParallel<T>(
  lists: readonly (() => AsyncGenerator<T, void, undefined>)[],
): AsyncGenerator<T, void, undefined> {
  if (lists.length === 0) return
  yield* lists[0]!()
  const rest = lists.slice(1).map((list) => collect(list()))
  // Each one is awaited in its turn; until then a failure must not count as unhandled.
  for (const pending of rest) pending.catch(() => undefined)
  for (const pending of rest) yield* await pending
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/**
 * Splits values into runs whose request line stays within `maxLength`: `baseLength` is the line
 * without any of the values, `costOf` what one value adds (`&name=value`, encoded).
 */
export function splitByLength(
  values: readonly string[],
  baseLength: number,
  costOf: (value: string) => number,
  maxLength: number,
  maxPerChunk: number = Number.POSITIVE_INFINITY,
): string[][] {
  const chunks: string[][] = []
  let current: string[] = []
  let length = baseLength
  for (const value of values) {
    const cost = costOf(value)
    if (baseLength + cost > maxLength) {
      throw new RangeError(
        `a single value is too long for a request line of ${maxLength} bytes: ${value.slice(0, 40)}`,
      )
    }
    if (current.length > 0 && (length + cost > maxLength || current.length >= maxPerChunk)) {
      chunks.push(current)
      current = []
      length = baseLength
    }
    current.push(value)
    length += cost
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}

/**
 * Why one page request is refused before it is sent: its request line is over `maxLength`
 * (`maxRequestLineBytes`; a front end would answer 414). A page cannot be split without changing what
 * `offset` and `limit` mean, so the caller splits, or calls `list`, whose runs each fit a line.
 */
export function overLongLine(
  lineLength: number,
  maxLength: number,
  items: number,
  list: string,
): string | undefined {
  if (lineLength <= maxLength) return undefined
  return `has ${items} items: a request line of ${lineLength} bytes, over maxRequestLineBytes (${maxLength}); ${list} splits them into requests that fit`
}

/** Plain fixed-size chunks (100 strings per create, 1000 hashcodes per job add). */
export function chunk<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size))
  return out
}

export interface PollOptions {
  intervalMs: number
  timeoutMs: number
}

/**
 * Asks `check` until `isDone`, waiting `intervalMs` first and then up to 8 times as long (x1.5 each
 * round); gives up with `onTimeout()` once `timeoutMs` has passed.
 */
export async function pollUntil<T>(
  check: () => Promise<T>,
  isDone: (value: T) => boolean,
  options: PollOptions,
  onTimeout: () => Error,
): Promise<T> {
  const started = Date.now()
  let wait = options.intervalMs
  for (;;) {
    const value = await check()
    if (isDone(value)) return value
    if (Date.now() - started + wait > options.timeoutMs) throw onTimeout()
    await new Promise((resolve) => setTimeout(resolve, wait))
    wait = Math.min(wait * 1.5, options.intervalMs * 8)
  }
}
