import { DiskCache } from '../cache'
import { mayUseNetwork, type ResolvedOptions } from '../model/options'
import { type IssueStateCode, singularTranslation } from '../model/wire'
import type { SyncClient } from '../sync'
import { type LocaleState, localeState, type StateMessage } from './states'

/**
 * The review folder: what the dev overlay and `tms issues` ask of the service. This file calls it
 * through the small `ReviewClient` core defines (`connectReview` in `src/service.ts` hands it the API
 * client); `states.ts` a string's per-locale state, `by-message.ts` open issues grouped by message
 * (`tms issues`), `issue-types.ts` their shapes.
 */
/**
 * The service's review workflow for one project: issues and comments on strings, and where each
 * string stands per locale. The dev server's overlay and `tms issues` both use it; the client (and
 * with it the credentials and the access token) stays in this process. Core does not know the API
 * client: `connectReview` of `src/service.ts` hands it the calls below.
 */

export interface ReviewIssue {
  issueUid: string
  string: { hashcode: string; localeId: string | null }
  issueText: string
  issueTypeCode: string
  issueSubTypeCode: string
  issueStateCode: string
  createdDate: string
  resolvedDate: string | null
}

export interface ReviewComment {
  issueCommentUid: string
  commentText: string
  createdDate: string
}

export type IssueWithComments = ReviewIssue & { comments: ReviewComment[] }

/** The issue calls of the API client that review needs, and the translations call of the sync's. */
export interface ReviewClient {
  issues: {
    find(
      projectId: string,
      request: { stringFilter?: { hashcodes: string[] }; issueStateCodes?: IssueStateCode[] },
    ): AsyncIterable<ReviewIssue>
    create(
      projectId: string,
      request: {
        issueText: string
        issueTypeCode: string
        issueSubTypeCode: string
        string: { hashcode: string; localeId: string | null }
      },
    ): Promise<ReviewIssue>
    comments(projectId: string, issueUid: string): Promise<{ items: ReviewComment[] }>
    createComment(projectId: string, issueUid: string, commentText: string): Promise<ReviewComment>
    setState(projectId: string, issueUid: string, issueStateCode: IssueStateCode): Promise<unknown>
  }
  strings: Pick<SyncClient['strings'], 'translations'>
  close(): Promise<void>
}

/** Opens a client when the options allow network work, else undefined. */
export type ReviewConnector = (options: ResolvedOptions) => Promise<ReviewClient | undefined>

export interface NewIssue {
  hashcode: string
  locale: string
  issueTypeCode: string
  issueSubTypeCode: string
  issueText: string
}

/** Thrown when the options do not allow the service: the message says which setting is missing. */
export class ReviewUnavailableError extends Error {}

export class ReviewService {
  readonly options: ResolvedOptions
  private readonly connect: ReviewConnector
  private client: Promise<ReviewClient | undefined> | undefined

  constructor(options: ResolvedOptions, connect: ReviewConnector) {
    this.options = options
    this.connect = connect
  }

  /** Why the service cannot be used with these options, or undefined when it can. */
  get unavailable(): string | undefined {
    const o = this.options
    if (!mayUseNetwork(o)) return `cache is '${o.cache}': no service calls`
    if (!o.credentials) return 'no credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET'
    if (!o.baseUrl) return 'TMS_BASE_URL is not set (or the baseUrl option)'
    if (!o.projectId) return 'TMS_PROJECT_ID is not set (or the projectId option)'
    return undefined
  }

  private async connected(): Promise<{ client: ReviewClient; projectId: string }> {
    const why = this.unavailable
    if (why) throw new ReviewUnavailableError(why)
    this.client ??= this.connect(this.options)
    const client = await this.client
    if (!client) throw new ReviewUnavailableError('the options allow no service calls')
    return { client, projectId: this.options.projectId! }
  }

  /** The issues of some strings (every state unless `open`), oldest first, each with its comments. */
  async issuesOf(
    hashcodes: readonly string[] | undefined,
    how: { open?: boolean } = {},
  ): Promise<IssueWithComments[]> {
    const { client, projectId } = await this.connected()
    const found: ReviewIssue[] = []
    for await (const issue of client.issues.find(projectId, {
      ...(hashcodes ? { stringFilter: { hashcodes: [...hashcodes] } } : {}),
      ...(how.open ? { issueStateCodes: ['OPENED'] } : {}),
    })) {
      found.push(issue)
    }
    found.sort((a, b) => a.createdDate.localeCompare(b.createdDate) || a.issueUid.localeCompare(b.issueUid))
    return Promise.all(
      found.map(async (issue) => ({
        ...issue,
        comments: (await client.issues.comments(projectId, issue.issueUid)).items,
      })),
    )
  }

  async createIssue(issue: NewIssue): Promise<ReviewIssue> {
    const { client, projectId } = await this.connected()
    return client.issues.create(projectId, {
      issueText: issue.issueText,
      issueTypeCode: issue.issueTypeCode,
      issueSubTypeCode: issue.issueSubTypeCode,
      string: { hashcode: issue.hashcode, localeId: issue.locale },
    })
  }

  async comment(issueUid: string, commentText: string): Promise<ReviewComment> {
    const { client, projectId } = await this.connected()
    return client.issues.createComment(projectId, issueUid, commentText)
  }

  async setState(issueUid: string, state: 'OPENED' | 'RESOLVED'): Promise<void> {
    const { client, projectId } = await this.connected()
    await client.issues.setState(projectId, issueUid, state)
  }

  /**
   * Each target locale's state of one string: from the service when it can be asked (published and
   * pending translations of that one hashcode), else from the cache's files.
   */
  async localeStates(hashcode: string, message: StateMessage): Promise<LocaleState[]> {
    const { locales, placeholder, formats } = this.options
    const texts = this.unavailable ? await this.cachedTexts(hashcode) : await this.serviceTexts(hashcode)
    return locales.map((locale) =>
      localeState(locale, message, texts.get(locale) ?? {}, placeholder, formats),
    )
  }

  private async serviceTexts(
    hashcode: string,
  ): Promise<Map<string, { published?: string; pending?: string }>> {
    const { client, projectId } = await this.connected()
    const out = new Map<string, { published?: string; pending?: string }>()
    await Promise.all(
      this.options.locales.flatMap((locale) =>
        (['published', 'pending'] as const).map(async (retrievalType) => {
          for await (const item of client.strings.translations(projectId, {
            targetLocaleId: locale,
            hashcodes: [hashcode],
            retrievalType,
            showPlaceholderValues: false,
          })) {
            const text = singularTranslation(item.translations)
            if (item.hashcode !== hashcode || typeof text !== 'string') continue
            const texts = out.get(locale) ?? {}
            texts[retrievalType] = text
            out.set(locale, texts)
          }
        }),
      ),
    )
    return out
  }

  private async cachedTexts(
    hashcode: string,
  ): Promise<Map<string, { published?: string; pending?: string }>> {
    const cache = new DiskCache(this.options.cacheDir, this.options.projectId)
    const out = new Map<string, { published?: string; pending?: string }>()
    for (const locale of this.options.locales) {
      const texts: { published?: string; pending?: string } = {}
      for (const retrievalType of ['published', 'pending'] as const) {
        const read = await cache.readLocale(locale, retrievalType)
        const text = read.hit ? read.value.translations[hashcode] : undefined
        if (text !== undefined) texts[retrievalType] = text
      }
      out.set(locale, texts)
    }
    return out
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined)
    this.client = undefined
    await client?.close()
  }
}
