import type { PlaceholderFormat } from '../core/model/placeholders'
import type { StringTranslation } from '../core/model/wire'
import type { Page } from './paging'

/** The strings area of the spec: its request and answer shapes and the API the client offers. */

export type CallbackMethod = 'GET' | 'POST'

export interface NewString {
  /** At most 10000 characters. */
  stringText: string
  variant?: string | null
  callbackUrl?: string
  callbackMethod?: CallbackMethod
  instruction?: string
  maxLength?: number
  format?: string
}

export interface CreateStringsRequest {
  placeholderFormat?: PlaceholderFormat
  /** A regular expression whose matches are placeholders. */
  placeholderFormatCustom?: string
  /** Part of every hashcode; the service's default namespace when absent, `null` allowed. */
  namespace?: string | null
  /** At most 100. */
  strings: NewString[]
}

export interface CreatedString {
  variant: string | null
  stringText: string
  parsedStringText: string
  hashcode: string
  /** True when a string with the same hashcode existed and was overwritten. */
  overWritten: boolean
}

export interface CreateStringsResult {
  wordCount: number
  stringCount: number
  /**
   * The string-creation process the service answered with (on a 200 as on a 202, which was followed to
   * its end); null only when there was nothing to send or the service left it out.
   */
  processUid: string | null
  items: CreatedString[]
}

export type StringsProcessState = 'open' | 'closed' | 'failed'

export interface StringsProcess {
  processUid: string
  processState: StringsProcessState
  createdDate: string
  modifiedDate: string
  processStatistics: { requested: number; processed: number; errored: number; skipped: number }
}

export interface SourceString {
  hashcode: string
  /** Null for strings not created through the strings interface. */
  stringText: string | null
  parsedStringText: string
  stringVariant: string | null
  maxLength: number | null
  stringInstructions: string[]
  keys: unknown[]
}

export type { StringTranslation }

export interface TranslationItem {
  hashcode: string
  stringText: string | null
  parsedStringText: string
  stringVariant: string | null
  targetLocaleId: string
  workflowStepUid: string | null
  /** Empty for an authorized string with no translation yet. */
  translations: StringTranslation[]
}

export type RetrievalType = 'published' | 'pending'

export interface SourceStringsQuery {
  hashcodes?: readonly string[]
  fileUri?: string
}

export interface TranslationsQuery {
  targetLocaleId: string
  hashcodes?: readonly string[]
  retrievalType?: RetrievalType
  fileUri?: string
  /** `false`: translations in the `{0}` form instead of with the original placeholders. */
  showPlaceholderValues?: boolean
}

/** One batch of {@link StringsApi.createInBatches}, as it is created. */
export interface CreatedBatch {
  /** Index in `request.strings` of the batch's first string. */
  first: number
  result: CreateStringsResult
}

export interface PageRequest {
  /** At most 500 (the default). */
  limit?: number
  offset?: number
}

export interface StringsApi {
  /**
   * Create strings: one request of at most 100, checked before sending; a 202 is followed through the
   * process endpoint until the process closes.
   */
  create(projectId: string, request: CreateStringsRequest): Promise<CreateStringsResult>
  /**
   * Any number of strings, 100 per request, the requests running within the client's concurrency.
   * Items come back in the order of `request.strings`. Each batch created is handed to `onBatch` as
   * soon as it is (and awaited), so a caller keeps what succeeded when another batch fails: the
   * promise then rejects with the first failure once every batch has settled.
   */
  createInBatches(
    projectId: string,
    request: CreateStringsRequest,
    onBatch?: (batch: CreatedBatch) => void | Promise<void>,
  ): Promise<CreateStringsResult[]>
  /** `GET .../processes/{processUid}`. */
  process(projectId: string, processUid: string): Promise<StringsProcess>
  /** Polls a process until it is no longer `open`; `failed` and an expired uid are errors. */
  waitForProcess(projectId: string, processUid: string): Promise<StringsProcess>
  /** One page of `GET .../source-strings`; the caller keeps the request line short. */
  sourceStringsPage(projectId: string, query: SourceStringsQuery & PageRequest): Promise<Page<SourceString>>
  /** Every source string, hashcodes split so no request line passes the limit, all pages. */
  sourceStrings(projectId: string, query: SourceStringsQuery): AsyncGenerator<SourceString, void, undefined>
  /** One page of `GET .../translations`. */
  translationsPage(projectId: string, query: TranslationsQuery & PageRequest): Promise<Page<TranslationItem>>
  /** Every translation item, hashcodes split so no request line passes the limit, all pages. */
  translations(projectId: string, query: TranslationsQuery): AsyncGenerator<TranslationItem, void, undefined>
}
