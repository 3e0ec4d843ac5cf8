/**
 * Query strings in the spec's three array forms: repeated `name=` (strings and jobs interfaces),
 * `name[]=` repeated even for one value (files interface), and comma separated (`glossaryUids`).
 */
export type ArrayStyle = 'repeat' | 'brackets' | 'comma'

export type QueryScalar = string | number | boolean
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined

export type QueryParams = Record<string, QueryValue>

/** `?a=1&b=2`, or '' when nothing is set. Absent (undefined/null) values and empty arrays are left out. */
export function buildQuery(params: QueryParams, arrayStyle: ArrayStyle): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue
    if (isArray(value)) {
      if (value.length === 0) continue
      if (arrayStyle === 'comma') {
        parts.push(`${encodeURIComponent(name)}=${value.map((v) => encodeURIComponent(String(v))).join(',')}`)
      } else {
        const key = arrayStyle === 'brackets' ? `${encodeURIComponent(name)}[]` : encodeURIComponent(name)
        for (const item of value) parts.push(`${key}=${encodeURIComponent(String(item))}`)
      }
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

function isArray(value: QueryValue): value is readonly QueryScalar[] {
  return Array.isArray(value)
}

/** Encodes one path segment (`projectId`, `fileUri`-free ids, locales). */
export function seg(value: string): string {
  return encodeURIComponent(value)
}
