/**
 * Strings that exist on the service and still get no translation: the translations endpoint returns
 * only authorized, active strings (an authorized string with no translation yet comes back with
 * `translations: []`), so a hashcode a pull asked for and did not get back is unauthorized, inactive
 * or excluded for that locale, or unknown to the service. The source-strings endpoint returns every
 * string of the project, so it tells the first three (a content owner must act) from the last (the
 * cache names a string the project lacks).
 */

/** Strings on the service that get no translation until authorized: how many, and per locale. */
export interface Unauthorized {
  strings: number
  locales: Record<string, number>
}

/** The call this needs of the client (`createClient().strings` has it). */
export interface SourceStringsClient {
  sourceStrings(
    projectId: string,
    query: { hashcodes?: readonly string[] },
  ): AsyncIterable<{ hashcode: string }>
}

/**
 * How many of the strings a pull did not get back exist on the service, in all and per locale: they
 * wait for an authorization (or are inactive). One source-strings query for all locales, only when
 * some string is missing; a failure of it drops the hint, never the build.
 */
export async function awaitingAuthorization(
  client: Partial<SourceStringsClient> | undefined,
  projectId: string,
  absent: ReadonlyMap<string, readonly string[]>,
): Promise<Unauthorized | undefined> {
  const all = [...new Set([...absent.values()].flat())].sort()
  if (!client?.sourceStrings || all.length === 0) return undefined
  const onService = new Set<string>()
  try {
    for await (const item of client.sourceStrings(projectId, { hashcodes: all })) onService.add(item.hashcode)
  } catch {
    return undefined
  }
  const locales: Record<string, number> = {}
  const strings = new Set<string>()
  for (const [locale, hashcodes] of [...absent].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const waiting = hashcodes.filter((h) => onService.has(h))
    for (const h of waiting) strings.add(h)
    if (waiting.length > 0) locales[locale] = waiting.length
  }
  return strings.size > 0 ? { strings: strings.size, locales } : undefined
}
