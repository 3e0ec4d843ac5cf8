import { createHash } from 'node:crypto'
import type { DiskCache, ManifestRecord } from '../cache'
import type { ResolvedOptions } from '../model/options'
import { counted } from '../wording'
import type { CreatedItem, JobClient, SyncClient, SyncLogger, SyncMessage } from './types'

/**
 * Push: the messages the cache's manifest does not know are created as strings on the service, their
 * hashcodes recorded as each batch lands, and added to the configured job. `src/core/sync/index.ts` decides
 * which messages to push and calls this.
 */

/** The metadata JSON -> its digest: a build compares the digest of every message with the manifest. */
const metaDigests = new Map<string, string>()

/** The metadata sent with a string: a change re-creates it so the service gets the new values. */
export function metaDigest(message: SyncMessage, placeholder: ResolvedOptions['placeholder']): string {
  // Most messages have neither: their digest is the placeholder format's, made once per format.
  if (message.instruction === undefined && message.maxLength === undefined) {
    const known = plainDigest
    if (known?.format === placeholder.format && known.custom === placeholder.custom) return known.digest
    plainDigest = { format: placeholder.format, custom: placeholder.custom, digest: '' }
    plainDigest.digest = metaDigestOf(message, placeholder)
    return plainDigest.digest
  }
  return metaDigestOf(message, placeholder)
}

/** The digest of a message without instruction or limit, for the last placeholder format asked. */
let plainDigest: { format: unknown; custom: unknown; digest: string } | undefined

function metaDigestOf(message: SyncMessage, placeholder: ResolvedOptions['placeholder']): string {
  const meta = JSON.stringify([
    message.instruction ?? null,
    message.maxLength ?? null,
    placeholder.format,
    placeholder.custom,
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
 * Creates the messages in batches of 100 (the client runs them within its concurrency limit and
 * follows 202 answers) and records each batch's hashcodes in `created` and in the cache manifest as
 * soon as it is created, so a batch that fails costs only its own strings. Creating is safe to
 * repeat: the service overwrites a string with the same identity, so the next run creates the rest.
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
    ...(options.placeholder.custom
      ? { placeholderFormatCustom: options.placeholder.custom }
      : { placeholderFormat: options.placeholder.format ?? 'none' }),
    namespace: options.namespace,
    strings: messages.map((m) => ({
      stringText: m.text,
      ...(m.variant != null ? { variant: m.variant } : {}),
      ...(m.instruction !== undefined ? { instruction: m.instruction } : {}),
      ...(m.maxLength !== undefined ? { maxLength: m.maxLength } : {}),
    })),
  }
  await client.strings.createInBatches(projectId, request, record)
  return created
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
