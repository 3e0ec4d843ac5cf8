import type { ResolvedOptions } from '../model/options'
import type { StringTranslation } from '../model/wire'
import type { SourceStringsClient } from './authorization'

/**
 * What the sync engine (`src/core/sync/index.ts`) and its parts (push, the manifest reads) take in: the
 * messages, the slice of the API client, the logger. Apart from the engine so that its parts depend
 * on these shapes, not on the engine that calls them.
 */

/** A string the service created: its hashcode and its text in the `{0}` form. */
export interface CreatedItem {
  hashcode: string
  parsedStringText: string
}

/** What the engine needs of an extracted message (the extractor's Message has all of it). */
export interface SyncMessage {
  key: string
  text: string
  parsed: string
  placeholders: string[]
  variant: string | null
  instruction?: string
  maxLength?: number
  locations: { file: string; line: number; column: number }[]
}

/** The slice of the API client the engine uses; `createClient()` gives all of it. */
export interface SyncClient {
  strings: {
    createInBatches(
      projectId: string,
      request: {
        placeholderFormat?: Exclude<ResolvedOptions['placeholder']['format'], null>
        placeholderFormatCustom?: string
        namespace?: string | null
        strings: { stringText: string; variant?: string | null; instruction?: string; maxLength?: number }[]
      },
      /** Each batch as soon as it is created; the call rejects after every batch has settled. */
      onBatch?: (batch: { first: number; result: { items: CreatedItem[] } }) => Promise<void>,
    ): Promise<unknown>
    translations(
      projectId: string,
      query: {
        targetLocaleId: string
        hashcodes?: readonly string[]
        retrievalType?: 'published' | 'pending'
        showPlaceholderValues?: boolean
      },
    ): AsyncIterable<{
      hashcode: string
      translations: Pick<StringTranslation, 'translation' | 'pluralForm'>[]
    }>
    /** Tells an unauthorized string from one the service lacks (see awaitingAuthorization). */
    sourceStrings?: SourceStringsClient['sourceStrings']
  }
  jobs?: JobClient
}

/** The jobs calls a `job` option needs. */
export interface JobClient {
  findByName(
    projectId: string,
    jobName: string,
  ): Promise<{ translationJobUid: string; jobStatus: string } | undefined>
  create(
    projectId: string,
    job: { jobName: string; targetLocaleIds: string[] },
  ): Promise<{ translationJobUid: string; jobStatus: string }>
  addStrings(
    projectId: string,
    jobUid: string,
    request: { hashcodes: string[]; targetLocaleIds?: string[]; moveEnabled?: boolean },
  ): Promise<{ successCount: number; failCount: number }>
  get(projectId: string, jobUid: string): Promise<{ jobStatus: string }>
  authorize(projectId: string, jobUid: string): Promise<unknown>
}

export interface SyncLogger {
  info(message: string): void
  warn(message: string): void
}
