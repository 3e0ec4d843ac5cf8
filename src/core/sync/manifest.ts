import { type CacheFs, type CacheRead, DiskCache, type Manifest, type ManifestRecord } from '../cache'
import { projectOfCache } from '../cache/project'
import type { ResolvedOptions } from '../model/options'
import { metaDigest } from './push'
import type { SyncLogger, SyncMessage } from './types'

/**
 * What a sync reads of the manifest for its messages, and what a catalog memo remembers of it so that
 * a build it answers does not parse the manifest (`src/core/sync/catalog-memo.ts`).
 */

/** What the manifest says of the messages, as far as a sync with no network goes. */
export interface ManifestSums {
  /** How many messages it does not know, or knows with other metadata: the ones to push. */
  unknown: number
  /** The index of the first message it has no record of (a frozen cache fails on it), or -1. */
  absent: number
}

/** Each message's hashcode (in message order), as the manifest records it. */
export function recordedHashcodes(
  read: CacheRead<Manifest>,
  messages: readonly { key: string }[],
): (string | undefined)[] {
  const manifest = read.hit ? read.value.entries : {}
  return messages.map((m) => manifest[m.key]?.hashcode)
}

/** Message key -> hashcode of the messages that have one. */
export function hashcodesOf(
  messages: readonly { key: string }[],
  hashcodes: readonly (string | undefined)[],
): Map<string, string> {
  const map = new Map<string, string>()
  for (let i = 0; i < messages.length; i++) {
    const hashcode = hashcodes[i]
    if (hashcode !== undefined) map.set(messages[i]!.key, hashcode)
  }
  return map
}

/** The cache a sync works with, its manifest read: see {@link openCache}. */
export interface OpenedCache {
  cache: DiskCache
  /** The project the cache is read as: the options' project, else the one its manifest records. */
  project: string | undefined
  /** The manifest: parsed at the opening, or (`memo`) when first asked. */
  manifest(): CacheRead<Manifest>
  /** The manifest's digest (`memo`): the catalog memos' keys hold it. */
  manifestDigest?: string
}

/**
 * Opens the cache of a sync and reads its manifest. A build does this while it extracts (see
 * `prepareSync`): read later, the manifest's parse waits behind the bundler's transforms, and the
 * pull, which needs its hashcodes, starts late. With `memo` (a build with no network and catalog
 * memos) the manifest is parsed only if the memos do not answer, and read only then when its digest is
 * known from its stat (`FileDigests`), unless the build is `lasting` (a dev server, a watch: see
 * `FileDigests.readEvery`).
 */
export async function openCache(
  options: ResolvedOptions,
  fs?: CacheFs,
  memo = false,
  lasting = false,
): Promise<OpenedCache> {
  // Only the cache is read as the recorded project's: nothing is ever sent to a guessed project.
  const project = options.projectId ?? (await projectOfCache(options.cacheDir, fs))
  const cache = new DiskCache(options.cacheDir, project, fs)
  if (lasting) cache.digests.readEvery()
  if (!memo) {
    const manifest = await cache.readManifest()
    return { cache, project, manifest: () => manifest }
  }
  const read = await cache.manifestDigest()
  if (!read.hit) return { cache, project, manifest: () => read }
  const { digest, bytes } = read.value
  return { cache, project, manifestDigest: digest, manifest: parsedOnce(cache, digest, bytes) }
}

/**
 * The manifest parsed when first asked, its bytes dropped then: a dev server's build keeps this for
 * as long as it lasts, and the bytes of 20,000 messages' manifest are some 4 MB. A function of its
 * own, so that its closure holds the bytes alone, not the read that brought them.
 */
function parsedOnce(cache: DiskCache, digest: string, read: Buffer | undefined): () => CacheRead<Manifest> {
  let bytes: Buffer | undefined = read
  let parsed: CacheRead<Manifest> | undefined
  return () => {
    parsed ??= cache.parseManifest(bytes ?? cache.bytesOf(cache.manifestFile, digest))
    bytes = undefined
    return parsed
  }
}

/** What a sync reads of the parsed manifest for its messages. */
export interface ManifestRead {
  /** The manifest's records by message key (a push adds to them). */
  manifest: Record<string, ManifestRecord>
  /** Each message's record, in message order. */
  records: (ManifestRecord | undefined)[]
  /** The messages it does not know, or knows with other metadata: the ones to push. */
  unknown: SyncMessage[]
  sums: ManifestSums
}

/** Each message's record, looked up once: a lookup in a manifest of thousands of keys is not free. */
export function readRecords(
  read: CacheRead<Manifest>,
  messages: readonly SyncMessage[],
  placeholder: ResolvedOptions['placeholder'],
): ManifestRead {
  const manifest = read.hit ? read.value.entries : {}
  const records = messages.map((m) => manifest[m.key])
  const unknown = messages.filter((m, i) => records[i]?.meta !== metaDigest(m, placeholder))
  return {
    manifest,
    records,
    unknown,
    sums: { unknown: unknown.length, absent: records.findIndex((r) => !r) },
  }
}

/** What the parsed manifest says of the messages (a warning when it cannot be used); the memos remember it. */
export function readManifest(
  opened: OpenedCache,
  input: { messages: readonly SyncMessage[]; options: ResolvedOptions; logger: SyncLogger },
  memos: { remember(sums: ManifestSums): void } | undefined,
): ManifestRead {
  const read = opened.manifest()
  if (!read.hit && read.reason !== 'no file') {
    input.logger.warn(
      `cache manifest ${opened.cache.manifestFile} ignored (${read.reason}); it will be rebuilt`,
    )
  }
  const records = readRecords(read, input.messages, input.options.placeholder)
  if (read.hit) memos?.remember(records.sums)
  return records
}
