import type { ManifestRecord } from '../cache'
import type { SyncClient, SyncMessage } from './types'

/**
 * A push trusts the cache's manifest: a message it records is not created again. The service can lose
 * strings the manifest records (an emulator restarted empty, a project reset, another environment's
 * cache under the same project id); then the push would say "0 new strings" and every pull would get
 * nothing for them. `tms push` therefore asks the service (one source-strings query for the recorded
 * hashcodes; it also proves the credentials when nothing is new) and creates the lost ones again.
 */

/** The recorded messages whose hashcodes the service no longer has (none when nothing is recorded). */
export async function lostMessages(
  strings: SyncClient['strings'],
  projectId: string,
  messages: readonly SyncMessage[],
  records: readonly (ManifestRecord | undefined)[],
  unknown: readonly SyncMessage[],
): Promise<SyncMessage[]> {
  const pushing = new Set(unknown.map((m) => m.key))
  const recorded = messages
    .map((m, i) => ({ message: m, hashcode: records[i]?.hashcode }))
    .filter(
      (r): r is { message: SyncMessage; hashcode: string } => !!r.hashcode && !pushing.has(r.message.key),
    )
  if (recorded.length === 0 || !strings.sourceStrings) return []
  const onService = new Set<string>()
  const hashcodes = [...new Set(recorded.map((r) => r.hashcode))].sort()
  for await (const item of strings.sourceStrings(projectId, { hashcodes })) onService.add(item.hashcode)
  return recorded.filter((r) => !onService.has(r.hashcode)).map((r) => r.message)
}
