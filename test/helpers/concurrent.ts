import { get } from 'node:http'

/** One page a concurrent-request check fetches: the locale it must be wholly in, and its path. */
export interface PageRequest {
  locale: string
  /** The path from the server's root, `/fr-FR/cart` say. */
  path: string
}

/** `count` requests cycling through `locales` and then `pages` (each a path after `/<locale>`). */
export function cycle(
  count: number,
  locales: readonly string[],
  pages: readonly string[] = [''],
): PageRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const locale = locales[i % locales.length]!
    return { locale, path: `/${locale}${pages[Math.floor(i / locales.length) % pages.length]}` }
  })
}

/**
 * Fetches every request at once from `url`, so that renders in different locales overlap in one
 * server; `wrong` lists each page `check` finds fault with (by path, with what it says), `checked` how
 * many came back.
 */
export async function concurrentRequests(
  url: string,
  requests: readonly PageRequest[],
  check: (request: PageRequest, status: number, html: string) => string | undefined,
): Promise<{ wrong: string[]; checked: number }> {
  const pages = await Promise.all(
    requests.map(async (request) => {
      const res = await fetch(`${url}${request.path}`)
      return { request, status: res.status, html: await res.text() }
    }),
  )
  const wrong: string[] = []
  for (const { request, status, html } of pages) {
    const problem = check(request, status, html)
    if (problem) wrong.push(`${request.path}: ${problem}`)
  }
  return { wrong, checked: pages.length }
}

/**
 * One GET on a connection of its own (closed after the answer), redirects not followed. fetch's pool
 * would reuse a connection a test's earlier requests left idle, which the server may close at that very
 * moment ("other side closed"), a race on a loaded machine.
 */
export function getOnce(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, body }),
      )
      res.on('error', reject)
    })
    request.on('error', reject)
  })
}
