import { createHash } from 'node:crypto'
import type { DiskCache, ManifestRecord } from '../cache'
import { appMessageSpec, specKey } from '../icu/placeholders'
import type { ResolvedOptions } from '../model/options'
import type { PlaceholderSpec } from '../model/placeholders'
import { counted } from '../wording'
import type { CreatedItem, JobClient, SyncClient, SyncLogger, SyncMessage } from './types'

/**
 * Push: the messages the cache's manifest does not know are created as strings on the service, their
 * hashcodes recorded as each batch lands, and added to the configured job. `src/core/sync/index.ts` decides
 * which messages to push and calls this.
 */

/** The metadata JSON -> its digest: a build compares the digest of every message with the manifest. */
const metaDigests = new Map<string, string>()

/**
 * The metadata sent with a string: a change re-creates it so the service gets the new values. The
 * placeholder spec is the message's own (see `appMessageSpec`): the app's for nearly every message,
 * so their digests are what they were.
 */
export function metaDigest(message: SyncMessage, placeholder: ResolvedOptions['placeholder']): string {
  const spec = appMessageSpec(message.text, placeholder)
  // Most messages have neither: their digest is the placeholder format's, made once per format.
  if (message.instruction === undefined && message.maxLength === undefined && spec === placeholder) {
    const known = plainDigest
    if (known?.format === placeholder.format && known.custom === placeholder.custom) return known.digest
    plainDigest = { format: placeholder.format, custom: placeholder.custom, digest: '' }
    plainDigest.digest = metaDigestOf(message, placeholder)
    return plainDigest.digest
  }
  return metaDigestOf(message, spec)
}

/** The digest of a message without instruction or limit, for the last placeholder format asked. */
let plainDigest: { format: unknown; custom: unknown; digest: string } | undefined

function metaDigestOf(message: SyncMessage, placeholder: PlaceholderSpec): string {
  const meta = JSON.stringify([
    message.instruction ?? null,
    message.maxLength ?? null,
    placeholder.format ?? null,
    placeholder.custom ?? null,
  ])
  let digest = metaDigests.get(meta)
  if (digest === undefined) {
    digest = createHash('sha1').update(meta).digest('hex').slice(0, 16)
    // Bounded: most messages share one metadata (no instruction, no limit); a few have their own.
    if (metaDigests.size >= 10_000) metaDigests.clear()
    metaDigests.set(meta, digest)
  }
  return digest
}

/**
 * The messages in groups of one placeholder spec each (the spec is per create-strings request), in
 * their order; the app's own spec first. An app with no message of its own spec has one group: the
 * same requests as before such specs existed.
 */
export function bySpec<T extends { text: string }>(
  messages: readonly T[],
  placeholder: PlaceholderSpec,
): { spec: PlaceholderSpec; messages: T[] }[] {
  const groups = new Map<string, { spec: PlaceholderSpec; messages: T[] }>()
  groups.set(specKey(placeholder), { spec: placeholder, messages: [] })
  for (const m of messages) {
    const spec = appMessageSpec(m.text, placeholder)
    const key = specKey(spec)
    let group = groups.get(key)
    if (group === undefined) {
      group = { spec, messages: [] }
      groups.set(key, group)
    }
    group.messages.push(m)
  }
  return [...groups.values()].filter((g) => g.messages.length > 0)
}

/** The create-strings request's placeholder fields for a spec. */
export function specFields(
  spec: PlaceholderSpec,
): { placeholderFormatCustom: string } | { placeholderFormat: NonNullable<PlaceholderSpec['format']> } {
  return spec.custom ? { placeholderFormatCustom: spec.custom } : { placeholderFormat: spec.format ?? 'none' }
}

/**
 * Creates the messages in batches of 100 (the client runs them within its concurrency limit and
 * follows 202 answers) and records each batch's hashcodes in `created` and in the cache manifest as
 * soon as it is created, so a batch that fails costs only its own strings. Creating is safe to
 * repeat: the service overwrites a string with the same identity, so the next run creates the rest.
 * Messages of their own placeholder spec go in requests of their own, one spec per request.
 * Rejects with the first failure once every batch has settled; `created` then holds what succeeded.
 */
export async function pushNewMessages(
  client: SyncClient,
  options: ResolvedOptions,
  projectId: string,
  messages: readonly SyncMessage[],
  cache: DiskCache,
  created: Record<string, ManifestRecord> = {},
): Promise<Record<string, ManifestRecord>> {
  const groups = bySpec(messages, options.placeholder)
  const settled = await Promise.allSettled(
    groups.map((group) => pushGroup(client, options, projectId, group.spec, group.messages, cache, created)),
  )
  const failed = settled.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
  return created
}

async function pushGroup(
  client: SyncClient,
  options: ResolvedOptions,
  projectId: string,
  spec: PlaceholderSpec,
  messages: readonly SyncMessage[],
  cache: DiskCache,
  created: Record<string, ManifestRecord>,
): Promise<void> {
  const record = async (batch: { first: number; result: { items: CreatedItem[] } }): Promise<void> => {
    const records: Record<string, ManifestRecord> = {}
    batch.result.items.forEach((item, j) => {
      const m = messages[batch.first + j]
      if (!m) return
      records[m.key] = {
        hashcode: item.hashcode,
        parsed: item.parsedStringText,
        variant: m.variant,
        meta: metaDigest(m, options.placeholder),
      }
    })
    // Known to this run first: the pull can use them even if the disk write fails.
    Object.assign(created, records)
    await cache.recordManifest(records)
  }
  const request = {
    ...specFields(spec),
    namespace: options.namespace,
    strings: messages.map((m) => ({
      stringText: m.text,
      ...(m.variant != null ? { variant: m.variant } : {}),
      ...(m.instruction !== undefined ? { instruction: m.instruction } : {}),
      ...(m.maxLength !== undefined ? { maxLength: m.maxLength } : {}),
    })),
  }
  await client.strings.createInBatches(projectId, request, record)
}

export async function addToJob(
  jobs: JobClient,
  options: ResolvedOptions,
  projectId: string,
  hashcodes: string[],
  logger: SyncLogger,
): Promise<void> {
  if (!options.job || hashcodes.length === 0) return
  const name = options.job.name
  const found = await jobs.findByName(projectId, name)
  if (found && (found.jobStatus === 'CLOSED' || found.jobStatus === 'CANCELLED')) {
    logger.warn(
      `job "${name}" is ${found.jobStatus}: ${counted(hashcodes.length, 'new string')} ${hashcodes.length === 1 ? 'was' : 'were'} not added to it; name a new job in the job option`,
    )
    return
  }
  const job = found ?? (await jobs.create(projectId, { jobName: name, targetLocaleIds: options.locales }))
  const added = await jobs.addStrings(projectId, job.translationJobUid, {
    hashcodes,
    targetLocaleIds: options.locales,
  })
  const skipped = added.failCount > 0 ? ` (${added.failCount} already in another job)` : ''
  logger.info(
    `added ${added.successCount} string${added.successCount === 1 ? '' : 's'} to job "${name}"${skipped}`,
  )
  // Only content waiting for authorization can be authorized; a job whose new strings were all
  // skipped stays where it was.
  if (
    options.job.authorize &&
    (await jobs.get(projectId, job.translationJobUid)).jobStatus === 'AWAITING_AUTHORIZATION'
  ) {
    await jobs.authorize(projectId, job.translationJobUid)
  }
}
