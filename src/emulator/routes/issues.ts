import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { requireAccount, requireProject, requireUser } from '../http/auth'
import { ApiError, notFoundError, sendData, validationError } from '../http/envelope'
import {
  bodyObject,
  optionalBoolean,
  optionalNumber,
  optionalString,
  optionalStringArray,
  type ProjectParams,
  type Query,
  queryInt,
  queryString,
  requiredString,
} from '../http/params'
import type { ProjectRecord, UserRecord } from '../store'
import { userUid } from '../store/ids'
import {
  type CommentRecord,
  ISSUE_STATES,
  ISSUE_TYPES,
  type IssueRecord,
  type IssueStateCode,
  IssueStore,
  type IssueTypeCode,
  type WatcherRecord,
} from '../store/issues'
import { characterCount } from '../store/matching'

export const MAX_ISSUE_TEXT = 4000
export const DEFAULT_FIND_LIMIT = 30
export const MAX_FIND_LIMIT = 1000
const MAX_WATCHER_PAGE = 500

/** Fields find issues may sort by; each maps an issue to a comparable value (null sorts first). */
const SORT_FIELDS: Record<string, (i: IssueRecord) => string | number | null> = {
  createdDate: (i) => i.createdDate,
  resolvedDate: (i) => i.resolvedDate,
  issueTextModifiedDate: (i) => i.issueTextModifiedDate,
  issueStateCode: (i) => i.issueStateCode,
  issueTypeCode: (i) => i.issueTypeCode,
  issueSubTypeCode: (i) => i.issueSubTypeCode,
  reportedByUserUid: (i) => i.reportedByUserUid,
  answered: (i) => (i.answered ? 1 : 0),
}

interface IssueParams extends ProjectParams {
  issueUid: string
}
interface CommentParams extends IssueParams {
  issueCommentUid: string
}

/** Dates go out in the spec's form; filters compare at that (second) precision too. */
const seconds = (ms: number): number => Math.floor(ms / 1000) * 1000

function describeIssue(i: IssueRecord) {
  return {
    issueUid: i.issueUid,
    projectId: i.projectId,
    string: { hashcode: i.string.hashcode, localeId: i.string.localeId },
    issueText: i.issueText,
    issueTypeCode: i.issueTypeCode,
    issueSubTypeCode: i.issueSubTypeCode,
    issueStateCode: i.issueStateCode,
    reportedByUserUid: i.reportedByUserUid,
    resolvedByUserUid: i.resolvedByUserUid,
    createdDate: isoDate(i.createdDate),
    resolvedDate: i.resolvedDate === null ? null : isoDate(i.resolvedDate),
    issueTextModifiedDate: i.issueTextModifiedDate === null ? null : isoDate(i.issueTextModifiedDate),
    answered: i.answered,
  }
}

function describeComment(c: CommentRecord) {
  return {
    issueCommentUid: c.issueCommentUid,
    commentText: c.commentText,
    createdByUserUid: c.createdByUserUid,
    createdDate: isoDate(c.createdDate),
    commentTextModifiedDate: c.commentTextModifiedDate === null ? null : isoDate(c.commentTextModifiedDate),
  }
}

function describeWatcher(w: WatcherRecord) {
  return {
    uid: w.uid,
    email: w.email,
    name: w.name,
    enabled: w.enabled,
    created: isoDate(w.created),
    modified: isoDate(w.modified),
  }
}

/** Issue and comment text: required, plain, at most 4000 characters, kept exactly as sent. */
function plainText(body: Record<string, unknown>, key: string): string {
  const value = requiredString(body, key)
  const length = characterCount(value)
  if (length > MAX_ISSUE_TEXT) {
    throw validationError(key, `is ${length} characters long; at most ${MAX_ISSUE_TEXT}`)
  }
  return value
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value as T)) {
    throw validationError(field, `must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`)
  }
  return value as T
}

const TYPE_CODES = ISSUE_TYPES.map((t) => t.issueTypeCode)
const SUBTYPE_CODES = ISSUE_TYPES.flatMap((t) => t.subTypes.map((s) => s.issueSubTypeCode))
const STATE_CODES = ISSUE_STATES.map((s) => s.issueStateCode)
const ISO_DATE_INPUT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

function dateFilter(body: Record<string, unknown>, key: string): number | null {
  const value = optionalString(body, key)
  if (value === null) return null
  const ms = Date.parse(value)
  if (!ISO_DATE_INPUT.test(value) || Number.isNaN(ms)) {
    throw validationError(key, `must be a date like 2024-05-01T12:00:00Z; got ${JSON.stringify(value)}`)
  }
  return ms
}

function codesFilter(
  body: Record<string, unknown>,
  key: string,
  allowed: readonly string[],
): Set<string> | null {
  const values = optionalStringArray(body, key)
  if (values === null) return null
  for (const [i, v] of values.entries()) oneOf(v, allowed, `${key}[${i}]`)
  return new Set(values)
}

/** The filters shared by find and count, as one predicate. */
function readFilter(body: Record<string, unknown>): (i: IssueRecord) => boolean {
  const createdBefore = dateFilter(body, 'createdDateBefore')
  const createdAfter = dateFilter(body, 'createdDateAfter')
  const resolvedBefore = dateFilter(body, 'resolvedDateBefore')
  const resolvedAfter = dateFilter(body, 'resolvedDateAfter')
  const answered = optionalBoolean(body, 'answered')
  const reportedBy = optionalString(body, 'reportedByUserUid')
  const states = codesFilter(body, 'issueStateCodes', STATE_CODES)
  const types = codesFilter(body, 'issueTypeCodes', TYPE_CODES)
  const subTypes = codesFilter(body, 'issueSubTypeCodes', SUBTYPE_CODES)
  let hashcodes: Set<string> | null = null
  let localeIds: Set<string> | null = null
  if (body.stringFilter !== undefined && body.stringFilter !== null) {
    if (typeof body.stringFilter !== 'object' || Array.isArray(body.stringFilter)) {
      throw validationError('stringFilter', 'must be an object with hashcodes and localeIds')
    }
    const sf = body.stringFilter as Record<string, unknown>
    const h = optionalStringArray(sf, 'hashcodes', 'stringFilter.hashcodes')
    const l = optionalStringArray(sf, 'localeIds', 'stringFilter.localeIds')
    hashcodes = h && new Set(h)
    localeIds = l && new Set(l)
  }
  return (i) => {
    const created = seconds(i.createdDate)
    const resolved = i.resolvedDate === null ? null : seconds(i.resolvedDate)
    if (createdBefore !== null && !(created < createdBefore)) return false
    if (createdAfter !== null && !(created > createdAfter)) return false
    if (resolvedBefore !== null && (resolved === null || !(resolved < resolvedBefore))) return false
    if (resolvedAfter !== null && (resolved === null || !(resolved > resolvedAfter))) return false
    if (answered !== null && i.answered !== answered) return false
    if (reportedBy !== null && i.reportedByUserUid !== reportedBy) return false
    if (states && !states.has(i.issueStateCode)) return false
    if (types && !types.has(i.issueTypeCode)) return false
    if (subTypes && !subTypes.has(i.issueSubTypeCode)) return false
    if (hashcodes && !hashcodes.has(i.string.hashcode)) return false
    if (localeIds && (i.string.localeId === null || !localeIds.has(i.string.localeId))) return false
    return true
  }
}

function readSort(body: Record<string, unknown>): (a: IssueRecord, b: IssueRecord) => number {
  const keys: { get: (i: IssueRecord) => string | number | null; sign: number }[] = []
  if (body.sortBy !== undefined && body.sortBy !== null) {
    const sortBy = body.sortBy as Record<string, unknown>
    if (typeof sortBy !== 'object' || !Array.isArray(sortBy.items)) {
      throw validationError('sortBy', 'must be an object with items: [{ fieldName, direction }]')
    }
    sortBy.items.forEach((raw, n) => {
      const at = `sortBy.items[${n}]`
      if (typeof raw !== 'object' || raw === null) throw validationError(at, 'must be an object')
      const item = raw as Record<string, unknown>
      const fieldName = oneOf(
        requiredString(item, 'fieldName', `${at}.fieldName`),
        Object.keys(SORT_FIELDS),
        `${at}.fieldName`,
      )
      const direction = (optionalString(item, 'direction', `${at}.direction`) ?? 'ASC').toUpperCase()
      oneOf(direction, ['ASC', 'DESC'], `${at}.direction`)
      keys.push({ get: SORT_FIELDS[fieldName]!, sign: direction === 'DESC' ? -1 : 1 })
    })
  }
  return (a, b) => {
    for (const { get, sign } of keys) {
      const x = get(a)
      const y = get(b)
      if (x === y) continue
      if (x === null) return -sign
      if (y === null) return sign
      return (x < y ? -1 : 1) * sign
    }
    return 0
  }
}

function bodyInt(body: Record<string, unknown>, key: string, max: number, fallback: number): number {
  return optionalNumber(body, key, { min: key === 'limit' ? 1 : 0, max, integer: true }) ?? fallback
}

/**
 * `issues-api/v2`: dictionaries, issues, comments and watchers. Long because each
 * route is a few lines over the same store part and context; the routes of one API area read best together.
 */
export function registerIssueRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const issues = ctx.store.register(new IssueStore(() => ctx.persistence?.schedule()))
  const P = '/issues-api/v2/projects/:projectId/issues'

  const issueOf = (request: FastifyRequest, params: IssueParams) => {
    const { user, project } = requireProject(ctx, request, params.projectId)
    const issue = issues.get(params.projectId, params.issueUid)
    if (!issue) throw notFoundError(`Issue ${params.issueUid} not found`, 'issue_not_found')
    return { user, project, issue }
  }

  const commentOf = (issue: IssueRecord, issueCommentUid: string): CommentRecord => {
    const comment = issue.comments.find((c) => c.issueCommentUid === issueCommentUid)
    if (!comment) throw notFoundError(`Comment ${issueCommentUid} not found`, 'comment_not_found')
    return comment
  }

  const requireAuthor = (user: UserRecord, authorUid: string, what: string): void => {
    if (userUid(user.userIdentifier) !== authorUid) {
      throw new ApiError('AUTHORIZATION_ERROR', [
        { key: 'not_author', message: `Only the author of the ${what} may edit its text` },
      ])
    }
  }

  const dictionary = { totalCount: ISSUE_TYPES.length, items: ISSUE_TYPES }

  app.get('/issues-api/v2/dictionary/issue-types', async (request, reply) => {
    requireUser(ctx, request)
    return sendData(reply, dictionary)
  })

  app.get('/issues-api/v2/dictionary/issue-states', async (request, reply) => {
    requireUser(ctx, request)
    return sendData(reply, { totalCount: ISSUE_STATES.length, items: ISSUE_STATES })
  })

  app.get<{ Params: { accountUid: string } }>(
    '/issues-api/v2/accounts/:accountUid/issue-types',
    async (request, reply) => {
      requireAccount(ctx, request, request.params.accountUid)
      return sendData(reply, dictionary)
    },
  )

  app.post<{ Params: ProjectParams }>(P, async (request, reply) => {
    const { projectId } = request.params
    const { user, project } = requireProject(ctx, request, projectId)
    const body = bodyObject(request.body)
    const issueText = plainText(body, 'issueText')
    const issueTypeCode = oneOf(requiredString(body, 'issueTypeCode'), TYPE_CODES, 'issueTypeCode')
    const subTypes = ISSUE_TYPES.find((t) => t.issueTypeCode === issueTypeCode)!.subTypes.map(
      (s) => s.issueSubTypeCode,
    )
    const issueSubTypeCode = requiredString(body, 'issueSubTypeCode')
    if (!subTypes.includes(issueSubTypeCode)) {
      throw validationError(
        'issueSubTypeCode',
        `${JSON.stringify(issueSubTypeCode)} is not a subtype of ${issueTypeCode}; one of ${subTypes.join(', ')}`,
      )
    }
    const string = readIssueString(body, issueTypeCode, project)
    if (!ctx.store.strings.get(projectId, string.hashcode)) {
      throw validationError('string.hashcode', `unknown hashcode ${string.hashcode} in project ${projectId}`)
    }
    const now = ctx.now()
    const issue = issues.add({
      projectId,
      string,
      issueText,
      issueTypeCode,
      issueSubTypeCode,
      issueStateCode: 'OPENED',
      reportedByUserUid: userUid(user.userIdentifier),
      resolvedByUserUid: null,
      createdDate: now,
      resolvedDate: null,
      issueTextModifiedDate: null,
      answered: false,
    })
    issues.notify(project.accountUid, 'issue.opened', issue, now)
    return sendData(reply, describeIssue(issue))
  })

  app.get<{ Params: IssueParams }>(`${P}/:issueUid`, async (request, reply) => {
    return sendData(reply, describeIssue(issueOf(request, request.params).issue))
  })

  app.put<{ Params: IssueParams }>(`${P}/:issueUid/issueText`, async (request, reply) => {
    const { user, issue } = issueOf(request, request.params)
    const issueText = plainText(bodyObject(request.body), 'issueText')
    requireAuthor(user, issue.reportedByUserUid, 'issue')
    issue.issueText = issueText
    issue.issueTextModifiedDate = ctx.now()
    issues.changed()
    return sendData(reply, { issueText, issueTextModifiedDate: isoDate(issue.issueTextModifiedDate) })
  })

  app.put<{ Params: IssueParams }>(`${P}/:issueUid/state`, async (request, reply) => {
    const { user, project, issue } = issueOf(request, request.params)
    const body = bodyObject(request.body)
    const next = oneOf(
      requiredString(body, 'issueStateCode'),
      STATE_CODES,
      'issueStateCode',
    ) as IssueStateCode
    if (next !== issue.issueStateCode) {
      const now = ctx.now()
      issue.issueStateCode = next
      issue.resolvedByUserUid = next === 'RESOLVED' ? userUid(user.userIdentifier) : null
      issue.resolvedDate = next === 'RESOLVED' ? now : null
      issues.changed()
      issues.notify(project.accountUid, next === 'RESOLVED' ? 'issue.resolved' : 'issue.opened', issue, now)
    }
    return sendData(reply, { issueStateCode: issue.issueStateCode })
  })

  app.put<{ Params: IssueParams }>(`${P}/:issueUid/answered`, async (request, reply) => {
    const { issue } = issueOf(request, request.params)
    const answered = optionalBoolean(bodyObject(request.body), 'answered')
    if (answered === null) throw validationError('answered', 'is required (true or false)')
    issue.answered = answered
    issues.changed()
    return sendData(reply, { answered })
  })

  app.post<{ Params: ProjectParams }>(`${P}/list`, async (request, reply) => {
    const { projectId } = request.params
    requireProject(ctx, request, projectId)
    const body = bodyObject(request.body, true)
    const matches = readFilter(body)
    const order = readSort(body)
    const limit = bodyInt(body, 'limit', MAX_FIND_LIMIT, DEFAULT_FIND_LIMIT)
    const offset = bodyInt(body, 'offset', Number.MAX_SAFE_INTEGER, 0)
    // Array sort is stable: ties keep the order of creation.
    const found = issues.list(projectId).filter(matches).sort(order)
    return sendData(reply, {
      totalCount: found.length,
      items: found.slice(offset, offset + limit).map(describeIssue),
    })
  })

  app.post<{ Params: ProjectParams }>(`${P}/count`, async (request, reply) => {
    const { projectId } = request.params
    requireProject(ctx, request, projectId)
    const matches = readFilter(bodyObject(request.body, true))
    return sendData(reply, { count: issues.list(projectId).filter(matches).length })
  })

  app.post<{ Params: IssueParams }>(`${P}/:issueUid/comments`, async (request, reply) => {
    const { user, project, issue } = issueOf(request, request.params)
    const commentText = plainText(bodyObject(request.body), 'commentText')
    const now = ctx.now()
    const comment = issues.addComment(issue, commentText, userUid(user.userIdentifier), now)
    issues.notify(project.accountUid, 'issue.commented', issue, now)
    return sendData(reply, describeComment(comment))
  })

  app.get<{ Params: IssueParams }>(`${P}/:issueUid/comments`, async (request, reply) => {
    const { issue } = issueOf(request, request.params)
    return sendData(reply, { totalCount: issue.comments.length, items: issue.comments.map(describeComment) })
  })

  app.post<{ Params: CommentParams }>(`${P}/:issueUid/comments/:issueCommentUid`, async (request, reply) => {
    const { user, issue } = issueOf(request, request.params)
    const comment = commentOf(issue, request.params.issueCommentUid)
    const commentText = plainText(bodyObject(request.body), 'commentText')
    requireAuthor(user, comment.createdByUserUid, 'comment')
    comment.commentText = commentText
    comment.commentTextModifiedDate = ctx.now()
    issues.changed()
    return sendData(reply, describeComment(comment))
  })

  app.get<{ Params: CommentParams }>(`${P}/:issueUid/comments/:issueCommentUid`, async (request, reply) => {
    const { issue } = issueOf(request, request.params)
    return sendData(reply, describeComment(commentOf(issue, request.params.issueCommentUid)))
  })

  const W = '/issues-api/v2/accounts/:accountUid/watchers'

  app.get<{ Params: { accountUid: string } }>(W, async (request, reply) => {
    const { accountUid } = request.params
    requireAccount(ctx, request, accountUid)
    const query = request.query as Query
    const email = queryString(query, 'email')?.toLowerCase()
    const limit = queryInt(query, 'limit', { min: 1, max: MAX_WATCHER_PAGE, fallback: MAX_WATCHER_PAGE })
    const offset = queryInt(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
    const found = issues.watchers(accountUid).filter((w) => !email || w.email.toLowerCase() === email)
    return sendData(reply, {
      totalCount: found.length,
      items: found.slice(offset, offset + limit).map(describeWatcher),
    })
  })

  app.post<{ Params: { accountUid: string } }>(W, async (request, reply) => {
    const { accountUid } = request.params
    requireAccount(ctx, request, accountUid)
    const body = bodyObject(request.body)
    const email = requiredString(body, 'email').trim()
    // One @, something on each side, no spaces: enough to catch a wrong field, not an RFC 5322 parser.
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw validationError('email', `${JSON.stringify(email)} is not an e-mail address`)
    }
    if (issues.watchers(accountUid).some((w) => w.email.toLowerCase() === email.toLowerCase())) {
      throw validationError(
        'email',
        `${email} is already a watcher of account ${accountUid}`,
        'duplicate_watcher',
      )
    }
    const name = optionalString(body, 'name') ?? ''
    const enabled = optionalBoolean(body, 'enabled') ?? true
    return sendData(reply, describeWatcher(issues.addWatcher(accountUid, email, name, enabled, ctx.now())))
  })

  app.get<{ Params: IssueParams & { accountUid: string } }>(
    '/issues-api/v2/accounts/:accountUid/projects/:projectId/issues/:issueUid/watchers',
    async (request, reply) => {
      const { accountUid, projectId } = request.params
      requireAccount(ctx, request, accountUid)
      const { project } = issueOf(request, request.params)
      if (project.accountUid !== accountUid) {
        throw notFoundError(`Project ${projectId} not found in account ${accountUid}`, 'project_not_found')
      }
      // Watchers are per account: every enabled one hears about every issue of its projects.
      const items = issues
        .watchers(accountUid)
        .filter((w) => w.enabled)
        .map(describeWatcher)
      return sendData(reply, { totalCount: items.length, items })
    },
  )

  // Control API: the e-mails watchers would have received.
  app.get('/_emulator/notifications', async (_request, reply) => {
    const items = issues.notifications.map((n) => ({ ...n, date: isoDate(n.date) }))
    return sendData(reply, { totalCount: items.length, items })
  })
}

/** The issue's string: a SOURCE issue has no locale, a TRANSLATION issue one of the project's targets. */
function readIssueString(
  body: Record<string, unknown>,
  issueTypeCode: IssueTypeCode,
  project: ProjectRecord,
): { hashcode: string; localeId: string | null } {
  if (typeof body.string !== 'object' || body.string === null || Array.isArray(body.string)) {
    throw validationError('string', 'is required: { hashcode, localeId }')
  }
  const s = body.string as Record<string, unknown>
  const hashcode = requiredString(s, 'hashcode', 'string.hashcode')
  const localeId = optionalString(s, 'localeId', 'string.localeId')
  if (issueTypeCode === 'SOURCE') {
    if (localeId !== null && localeId !== '' && localeId !== project.sourceLocaleId) {
      throw validationError(
        'string.localeId',
        `must be null (or the source locale) for a SOURCE issue; got ${localeId}`,
      )
    }
    return { hashcode, localeId: null }
  }
  if (localeId === null || localeId === '')
    throw validationError('string.localeId', 'is required for a TRANSLATION issue')
  if (!project.targetLocaleIds.includes(localeId)) {
    throw validationError(
      'string.localeId',
      `${localeId} is not a target locale of project ${project.projectId}`,
    )
  }
  return { hashcode, localeId }
}
