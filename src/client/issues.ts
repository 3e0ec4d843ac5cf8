import type {
  IssueStateCode as WireIssueStateCode,
  IssueTypeCode as WireIssueTypeCode,
} from '../core/model/wire'
import { type ClientContext, fetchList, type RawPage, toPage } from './context'
import { invalidRequest } from './errors'
import type { HttpMethod, HttpRequest } from './http'
import { type Page, paginate } from './paging'
import { buildQuery, seg } from './query'
import type { PageRequest } from './strings'

export type IssueTypeCode = WireIssueTypeCode | (string & {})
export type IssueSubTypeCode =
  | 'CLARIFICATION'
  | 'MISSPELLING'
  | 'POOR_TRANSLATION'
  | 'DOES_NOT_FIT_SPACE'
  | 'PLACEHOLDER_ISSUE'
  | 'GENERAL_ISSUE'
  | 'REVIEW_TRANSLATION'
  | (string & {})
/** The list may grow. */
export type IssueStateCode = WireIssueStateCode | (string & {})

export interface Issue {
  issueUid: string
  projectId: string
  string: { hashcode: string; localeId: string | null }
  issueText: string
  issueTypeCode: IssueTypeCode
  issueSubTypeCode: IssueSubTypeCode
  issueStateCode: IssueStateCode
  reportedByUserUid: string
  resolvedByUserUid: string | null
  createdDate: string
  resolvedDate: string | null
  issueTextModifiedDate: string | null
  answered: boolean
}

export interface IssueComment {
  issueCommentUid: string
  commentText: string
  createdByUserUid: string
  createdDate: string
  commentTextModifiedDate: string | null
}

export interface Watcher {
  uid: string
  email: string
  name: string
  enabled: boolean
  created: string
  modified: string
}

export interface IssueTypeEntry {
  issueTypeCode: IssueTypeCode
  description: string
  subTypes: Array<{ issueSubTypeCode: IssueSubTypeCode; description: string }>
}

export interface IssueStateEntry {
  issueStateCode: IssueStateCode
  description: string
}

export interface CreateIssueRequest {
  /** At most 4000 characters, plain text. */
  issueText: string
  issueTypeCode: IssueTypeCode
  issueSubTypeCode: IssueSubTypeCode
  string: { hashcode: string; localeId: string | null }
}

export interface IssueFilter {
  createdDateBefore?: string
  createdDateAfter?: string
  resolvedDateBefore?: string
  resolvedDateAfter?: string
  answered?: boolean
  stringFilter?: { hashcodes?: string[]; localeIds?: string[] }
  reportedByUserUid?: string
  issueStateCodes?: IssueStateCode[]
  issueTypeCodes?: IssueTypeCode[]
  issueSubTypeCodes?: IssueSubTypeCode[]
}

export interface FindIssuesRequest extends IssueFilter {
  sortBy?: { items: Array<{ fieldName: string; direction: 'ASC' | 'DESC' | (string & {}) }> }
  limit?: number
  offset?: number
}

export interface IssuesApi {
  /** Deprecated by the service, kept for completeness. */
  issueTypes(): Promise<Page<IssueTypeEntry>>
  issueStates(): Promise<Page<IssueStateEntry>>
  accountIssueTypes(accountUid: string): Promise<Page<IssueTypeEntry>>
  create(projectId: string, request: CreateIssueRequest): Promise<Issue>
  /** Only the author may edit. */
  editText(
    projectId: string,
    issueUid: string,
    issueText: string,
  ): Promise<{ issueText: string; issueTextModifiedDate: string | null }>
  setState(
    projectId: string,
    issueUid: string,
    issueStateCode: IssueStateCode,
  ): Promise<{ issueStateCode: IssueStateCode }>
  get(projectId: string, issueUid: string): Promise<Issue>
  setAnswered(projectId: string, issueUid: string, answered: boolean): Promise<{ answered: boolean }>
  /** One page of find issues (the service returns 30 without a limit). */
  findPage(projectId: string, request?: FindIssuesRequest): Promise<Page<Issue>>
  /** Every issue matching the filter, all pages. */
  find(
    projectId: string,
    request?: Omit<FindIssuesRequest, 'limit' | 'offset'>,
  ): AsyncGenerator<Issue, void, undefined>
  count(projectId: string, filter?: IssueFilter): Promise<number>
  createComment(projectId: string, issueUid: string, commentText: string): Promise<IssueComment>
  comments(projectId: string, issueUid: string): Promise<Page<IssueComment>>
  editComment(
    projectId: string,
    issueUid: string,
    issueCommentUid: string,
    commentText: string,
  ): Promise<IssueComment>
  getComment(projectId: string, issueUid: string, issueCommentUid: string): Promise<IssueComment>
  watchersPage(accountUid: string, query?: { email?: string } & PageRequest): Promise<Page<Watcher>>
  watchers(accountUid: string, query?: { email?: string }): AsyncGenerator<Watcher, void, undefined>
  /** The spec shows neither body nor answer of create watcher: both pass through as they are. */
  createWatcher(accountUid: string, body: Record<string, unknown>): Promise<unknown>
  issueWatchers(accountUid: string, projectId: string, issueUid: string): Promise<Watcher[]>
}

const MAX_TEXT = 4000
const PAGE_LIMIT = 100

export function createIssuesApi(ctx: ClientContext): IssuesApi {
  const { http } = ctx

  function need(method: HttpMethod, route: string, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.length === 0)
      throw invalidRequest(method, route, field, 'must be a non-empty string')
    return seg(value)
  }

  function text(method: HttpMethod, route: string, field: string, value: unknown): void {
    need(method, route, field, value)
    if ((value as string).length > MAX_TEXT) {
      throw invalidRequest(
        method,
        route,
        field,
        `has ${(value as string).length} characters; at most ${MAX_TEXT}`,
      )
    }
  }

  function issuePath(method: HttpMethod, route: string, projectId: string, issueUid: string): string {
    return `/issues-api/v2/projects/${need(method, route, 'projectId', projectId)}/issues/${need(method, route, 'issueUid', issueUid)}`
  }

  async function call<T>(req: HttpRequest): Promise<T> {
    return (await http.json<T>(req)).data
  }

  const P = '/issues-api/v2/projects/:projectId/issues'

  function findRaw(projectId: string, request: FindIssuesRequest): Promise<RawPage<Issue>> {
    const route = `${P}/list`
    const path = `/issues-api/v2/projects/${need('POST', route, 'projectId', projectId)}/issues/list`
    // A search, not a change: safe to repeat.
    return fetchList(http, { method: 'POST', path, route, body: request, idempotent: true })
  }

  function watchersRaw(
    accountUid: string,
    query: { email?: string } & PageRequest,
  ): Promise<RawPage<Watcher>> {
    const route = '/issues-api/v2/accounts/:accountUid/watchers'
    const q = buildQuery({ email: query.email, limit: query.limit, offset: query.offset }, 'repeat')
    const path = `/issues-api/v2/accounts/${need('GET', route, 'accountUid', accountUid)}/watchers${q}`
    return fetchList(http, { method: 'GET', path, route, idempotent: true })
  }

  return {
    issueTypes: async () => {
      const route = '/issues-api/v2/dictionary/issue-types'
      return toPage(
        await fetchList<IssueTypeEntry>(http, { method: 'GET', path: route, route, idempotent: true }),
      )
    },
    issueStates: async () => {
      const route = '/issues-api/v2/dictionary/issue-states'
      return toPage(
        await fetchList<IssueStateEntry>(http, { method: 'GET', path: route, route, idempotent: true }),
      )
    },
    accountIssueTypes: async (accountUid) => {
      const route = '/issues-api/v2/accounts/:accountUid/issue-types'
      const path = `/issues-api/v2/accounts/${need('GET', route, 'accountUid', accountUid)}/issue-types`
      return toPage(await fetchList<IssueTypeEntry>(http, { method: 'GET', path, route, idempotent: true }))
    },
    create: async (projectId, request) => {
      text('POST', P, 'issueText', request?.issueText)
      need('POST', P, 'issueTypeCode', request.issueTypeCode)
      need('POST', P, 'issueSubTypeCode', request.issueSubTypeCode)
      need('POST', P, 'string.hashcode', request.string?.hashcode)
      const path = `/issues-api/v2/projects/${need('POST', P, 'projectId', projectId)}/issues`
      return call<Issue>({ method: 'POST', path, route: P, body: request, idempotent: false })
    },
    editText: async (projectId, issueUid, issueText) => {
      const route = `${P}/:issueUid/issueText`
      text('PUT', route, 'issueText', issueText)
      const path = `${issuePath('PUT', route, projectId, issueUid)}/issueText`
      return call({ method: 'PUT', path, route, body: { issueText }, idempotent: true })
    },
    setState: async (projectId, issueUid, issueStateCode) => {
      const route = `${P}/:issueUid/state`
      need('PUT', route, 'issueStateCode', issueStateCode)
      const path = `${issuePath('PUT', route, projectId, issueUid)}/state`
      return call({ method: 'PUT', path, route, body: { issueStateCode }, idempotent: true })
    },
    get: async (projectId, issueUid) => {
      const route = `${P}/:issueUid`
      return call<Issue>({
        method: 'GET',
        path: issuePath('GET', route, projectId, issueUid),
        route,
        idempotent: true,
      })
    },
    setAnswered: async (projectId, issueUid, answered) => {
      const route = `${P}/:issueUid/answered`
      if (typeof answered !== 'boolean') throw invalidRequest('PUT', route, 'answered', 'must be a boolean')
      const path = `${issuePath('PUT', route, projectId, issueUid)}/answered`
      return call({ method: 'PUT', path, route, body: { answered }, idempotent: true })
    },
    findPage: async (projectId, request = {}) => toPage(await findRaw(projectId, request)),
    find: async function* (projectId, request = {}) {
      yield* paginate((offset, limit) => findRaw(projectId, { ...request, offset, limit }), PAGE_LIMIT)
    },
    count: async (projectId, filter = {}) => {
      const route = `${P}/count`
      const path = `/issues-api/v2/projects/${need('POST', route, 'projectId', projectId)}/issues/count`
      const data = await call<{ count: number }>({
        method: 'POST',
        path,
        route,
        body: filter,
        idempotent: true,
      })
      return Number(data?.count ?? 0)
    },
    createComment: async (projectId, issueUid, commentText) => {
      const route = `${P}/:issueUid/comments`
      text('POST', route, 'commentText', commentText)
      const path = `${issuePath('POST', route, projectId, issueUid)}/comments`
      return call<IssueComment>({ method: 'POST', path, route, body: { commentText }, idempotent: false })
    },
    comments: async (projectId, issueUid) => {
      const route = `${P}/:issueUid/comments`
      const path = `${issuePath('GET', route, projectId, issueUid)}/comments`
      return toPage(await fetchList<IssueComment>(http, { method: 'GET', path, route, idempotent: true }))
    },
    editComment: async (projectId, issueUid, issueCommentUid, commentText) => {
      const route = `${P}/:issueUid/comments/:issueCommentUid`
      text('POST', route, 'commentText', commentText)
      const path = `${issuePath('POST', route, projectId, issueUid)}/comments/${need('POST', route, 'issueCommentUid', issueCommentUid)}`
      // Setting the same text twice leaves the same comment.
      return call<IssueComment>({ method: 'POST', path, route, body: { commentText }, idempotent: true })
    },
    getComment: async (projectId, issueUid, issueCommentUid) => {
      const route = `${P}/:issueUid/comments/:issueCommentUid`
      const path = `${issuePath('GET', route, projectId, issueUid)}/comments/${need('GET', route, 'issueCommentUid', issueCommentUid)}`
      return call<IssueComment>({ method: 'GET', path, route, idempotent: true })
    },
    watchersPage: async (accountUid, query = {}) => toPage(await watchersRaw(accountUid, query)),
    watchers: async function* (accountUid, query = {}) {
      yield* paginate((offset, limit) => watchersRaw(accountUid, { ...query, offset, limit }), PAGE_LIMIT)
    },
    createWatcher: async (accountUid, body) => {
      const route = '/issues-api/v2/accounts/:accountUid/watchers'
      const path = `/issues-api/v2/accounts/${need('POST', route, 'accountUid', accountUid)}/watchers`
      return call<unknown>({ method: 'POST', path, route, body, idempotent: false })
    },
    issueWatchers: async (accountUid, projectId, issueUid) => {
      const route = '/issues-api/v2/accounts/:accountUid/projects/:projectId/issues/:issueUid/watchers'
      const path = `/issues-api/v2/accounts/${need('GET', route, 'accountUid', accountUid)}/projects/${need('GET', route, 'projectId', projectId)}/issues/${need('GET', route, 'issueUid', issueUid)}/watchers`
      return (await fetchList<Watcher>(http, { method: 'GET', path, route, idempotent: true })).items
    },
  }
}
