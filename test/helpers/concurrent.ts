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
