import { createHash } from 'node:crypto'
import { VERSION } from '../../version'
import type { IdSource } from '../catalog/index'
import type { ResolvedOptions } from '../model/options'

/**
 * The keys of the catalog memos (catalog-memo.ts): what a locale's memo answers for, made of every
 * input its outcome and literals depend on, and what a literal's rows are.
 */

/** Changes whenever what a memo holds, or how a key is made, changes. */
export const MEMO_SCHEMA = 6

/** The options in every locale's key; `root` names the memo files, so apps sharing a cache directory keep one each. */
export type MemoOptions = Pick<ResolvedOptions, 'sourceLocale' | 'placeholder' | 'retrievalType' | 'root'> &
  Partial<Pick<ResolvedOptions, 'formats'>>

/** What a locale's key holds of each message (its hashcode is the manifest's). */
export interface MemoMessage {
  key: string
  text: string
  placeholders: readonly string[]
  instruction?: string
  maxLength?: number
}

/**
 * The rows' key of a catalog literal: its ids in order, what each stands for, and the locale whose
 * source texts fill the gaps (`sourceCatalog`). `described(id)` is `plain` for a message's plain id
 * (the id of sites spelling the placeholders as the message does), written alone: the plain ids are a
 * function of the build start's message keys, which the locale's key covers; any other id is written
 * with its message key and placeholder spelling (undefined: an id with no source).
 */
export function rowsKey(
  ids: readonly string[],
  described: (id: string) => IdSource | 'plain' | undefined,
  fallback: string | undefined,
): string {
  const parts: string[] = [fallback ?? '']
  for (const id of ids) {
    const source = described(id)
    if (source === 'plain') parts.push(id)
    else if (!source) parts.push(`${id}\u0003`)
    else parts.push(`${id}\u0000${source.key}\u0000${source.spelling?.join('\u0001') ?? ''}`)
  }
  return sha256(parts.join('\n'))
}

/**
 * The modules' key of a bundle's catalog literal: what names the ids its modules use without listing
 * them (`remembered`, see `rememberedKeyOf`: each module by the content hash under which the
 * transform memo keeps its ids with `stamp`), with what else its rows' key depends on: the transform
 * memo's inputs (`transform`: its digest) and the fallback locale. A memo notes it beside the
 * literal's rows' key.
 */
export function modulesKey(
  remembered: string,
  scope: { transform: string; stamp: string; fallback: string | undefined },
): string {
  return sha256(`${scope.transform}\u0000${scope.stamp}\u0000${scope.fallback ?? ''}\u0000${remembered}`)
}

/**
 * The translation of each message in message order (`hashcodes[i]` is message i's), which is all of
 * `translations` a check reads: what else a pull or the cache holds does not change its outcome.
 */
export function textsDigest(
  translations: Readonly<Record<string, string>>,
  hashcodes: readonly (string | undefined)[],
): string {
  const parts = new Array<string>(hashcodes.length)
  for (let i = 0; i < hashcodes.length; i++) {
    const hashcode = hashcodes[i]
    const text = hashcode === undefined ? undefined : translations[hashcode]
    parts[i] = text === undefined ? '-' : `${text.length}:${text}`
  }
  return sha256(parts.join('\n'))
}

/**
 * `messages`: the digest of the messages in order (`messagesDigest`: key, text, placeholders,
 * instruction, maxLength); `hashcodes`: what tells each message's hashcode (the manifest's digest, or
 * the pulled memos' own).
 */
export function baseKey(
  projectId: string | null,
  options: MemoOptions,
  messages: { count: number; digest: string },
  hashcodes: string,
): string {
  return sha256(
    JSON.stringify([
      MEMO_SCHEMA,
      VERSION,
      process.version,
      process.versions.icu ?? '',
      options.sourceLocale,
      options.placeholder,
      options.retrievalType,
      // Compiled into the literals, and read by the checks of the translations.
      options.formats ?? {},
      projectId,
      messages.count,
      // The metadata tells whether the manifest's record is up to date (a string to push).
      messages.digest,
      hashcodes,
    ]),
  )
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}
