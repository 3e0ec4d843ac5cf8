import { type ClientContext, fetchList, pollProcess, type RawPage, toPage } from './context'
import { invalidRequest, TmsApiError } from './errors'
import type { EnvelopeResult, HttpMethod, HttpRequest } from './http'
import type {
  AddStringsRequest,
  CreateJobRequest,
  Job,
  JobCountResult,
  JobProcess,
  JobStatus,
  JobSummary,
  JobsApi,
  ListJobsQuery,
  ProgressReport,
  RemoveStringsRequest,
  SearchJobsRequest,
} from './jobs-types'
import { chunk, listsInParallel, overLongLine, type Page, paginate, splitByLength } from './paging'
import { buildQuery, seg } from './query'
import type { PageRequest } from './strings-types'

const BASE = '/jobs-api/v3/projects/:projectId'
const MAX_HASHCODES_PER_ADD = 1000
const MAX_UIDS_PER_LIST = 500
const PAGE_LIMIT = 500
/** The widest `offset` a page request of a run may carry, counted when the run is cut. */
const WIDEST_OFFSET = 9_999_999_999

interface AcceptedData {
  message?: string
  url?: string
}

/**
 * The jobs area of the client. Long because each method of the area closes over the one client
 * context; every method is short and stands alone, and a split would only pass the context around.
 */
export function createJobsApi(ctx: ClientContext): JobsApi {
  const { http } = ctx

  function need(method: HttpMethod, route: string, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.length === 0)
      throw invalidRequest(method, route, field, 'must be a non-empty string')
    return seg(value)
  }

  function jobPath(method: HttpMethod, route: string, projectId: string, jobUid: string): string {
    return `/jobs-api/v3/projects/${need(method, route, 'projectId', projectId)}/jobs/${need(method, route, 'translationJobUid', jobUid)}`
  }

  function processRequest(projectId: string, jobUid: string, processUid: string): HttpRequest {
    const route = `${BASE}/jobs/:translationJobUid/processes/:processUid`
    return {
      method: 'GET',
      path: `${jobPath('GET', route, projectId, jobUid)}/processes/${need('GET', route, 'processUid', processUid)}`,
      route,
      idempotent: true,
    }
  }

  async function processOf(projectId: string, jobUid: string, processUid: string): Promise<JobProcess> {
    return (await http.json<JobProcess>(processRequest(projectId, jobUid, processUid))).data
  }

  async function waitFor(req: HttpRequest, label: string): Promise<JobProcess> {
    const done = await pollProcess(
      ctx,
      req,
      async () => (await http.json<JobProcess>(req)).data,
      (p) => p?.processState === 'IN_PROGRESS',
      `job process ${label}`,
      'in progress',
    )
    if (done?.processState !== 'COMPLETED') {
      throw http.error(
        req,
        'PROCESS_FAILED',
        200,
        `job process ${label} ended ${done?.processState ?? 'without a state'}`,
        1,
      )
    }
    return done
  }

  /** Follows a 202 `{ message, url }` to the end of its job process. */
  async function follow(
    projectId: string,
    jobUid: string,
    answer: EnvelopeResult<unknown>,
    origin: HttpRequest,
  ): Promise<JobProcess> {
    const data = (answer.data ?? {}) as AcceptedData
    if (typeof data.url !== 'string' || !data.url) {
      throw http.error(
        origin,
        'INVALID_RESPONSE',
        202,
        'a 202 answer without the process url',
        answer.attempts,
      )
    }
    const own = http.pathOf(data.url)
    const processUid = decodeURIComponent(data.url.split('?')[0].replace(/\/+$/, '').split('/').pop() ?? '')
    // The token is only ever sent to the base URL: a process URL elsewhere is rebuilt from its uid.
    const req: HttpRequest = own
      ? {
          method: 'GET',
          path: own,
          route: `${BASE}/jobs/:translationJobUid/processes/:processUid`,
          idempotent: true,
        }
      : processRequest(projectId, jobUid, processUid)
    return waitFor(req, processUid)
  }

  /** Sends a job operation; a 202 is followed to completion. */
  async function operate<T>(
    projectId: string,
    jobUid: string,
    req: HttpRequest,
  ): Promise<{ data: T | null; process: JobProcess | null }> {
    const answer = await http.json<T>(req)
    if (answer.status === 202) return { data: null, process: await follow(projectId, jobUid, answer, req) }
    return { data: answer.data, process: null }
  }

  function listPath(projectId: string, query: ListJobsQuery & PageRequest): string {
    const params = {
      jobName: query.jobName,
      translationJobUids: query.translationJobUids,
      translationJobStatus: query.translationJobStatus,
      limit: query.limit,
      offset: query.offset,
      sortBy: query.sortBy,
      sortDirection: query.sortDirection,
    }
    return `/jobs-api/v3/projects/${need('GET', `${BASE}/jobs`, 'projectId', projectId)}/jobs${buildQuery(params, 'repeat')}`
  }

  function listRaw(projectId: string, query: ListJobsQuery & PageRequest): Promise<RawPage<JobSummary>> {
    const uids = query.translationJobUids
    if (uids !== undefined) {
      if (!Array.isArray(uids))
        throw invalidRequest('GET', `${BASE}/jobs`, 'translationJobUids', 'must be an array')
      if (uids.length > MAX_UIDS_PER_LIST) {
        throw invalidRequest(
          'GET',
          `${BASE}/jobs`,
          'translationJobUids',
          `has ${uids.length} items; at most ${MAX_UIDS_PER_LIST} per page request (list() takes any number)`,
        )
      }
    }
    return fetchList(http, {
      method: 'GET',
      path: listPath(projectId, query),
      route: `${BASE}/jobs`,
      idempotent: true,
    })
  }

  /** Job uids in runs whose every page request fits a request line and the spec's 500. */
  function uidRuns(projectId: string, query: ListJobsQuery, uids: readonly string[]): string[][] {
    const route = `${BASE}/jobs`
    if (!Array.isArray(uids)) throw invalidRequest('GET', route, 'translationJobUids', 'must be an array')
    const bad = uids.findIndex((u) => typeof u !== 'string' || !u)
    if (bad >= 0)
      throw invalidRequest('GET', route, `translationJobUids[${bad}]`, 'must be a non-empty string')
    const widest = { ...query, translationJobUids: [], limit: PAGE_LIMIT, offset: WIDEST_OFFSET }
    try {
      return splitByLength(
        [...new Set(uids)],
        http.requestLineLength('GET', listPath(projectId, widest)),
        (uid) => `&translationJobUids=${encodeURIComponent(uid)}`.length,
        ctx.maxRequestLineBytes,
        MAX_UIDS_PER_LIST,
      )
    } catch (error) {
      throw invalidRequest('GET', route, 'translationJobUids', (error as Error).message)
    }
  }

  async function* list(
    projectId: string,
    query: ListJobsQuery = {},
  ): AsyncGenerator<JobSummary, void, undefined> {
    const uids = query.translationJobUids
    if (uids === undefined) {
      yield* paginate((offset, limit) => listRaw(projectId, { ...query, offset, limit }), PAGE_LIMIT)
      return
    }
    // A uid names at most one job: a run's list ends after as many jobs as it has uids.
    yield* listsInParallel(
      uidRuns(projectId, query, uids).map(
        (translationJobUids) => () =>
          paginate(
            (offset, limit) => listRaw(projectId, { ...query, translationJobUids, offset, limit }),
            PAGE_LIMIT,
            translationJobUids.length,
          ),
      ),
    )
  }

  async function findByName(projectId: string, jobName: string): Promise<JobSummary | undefined> {
    need('GET', `${BASE}/jobs`, 'jobName', jobName)
    for await (const job of list(projectId, { jobName })) {
      if (job.jobName === jobName) return job
    }
    return undefined
  }

  async function create(projectId: string, request: CreateJobRequest): Promise<Job> {
    const route = `${BASE}/jobs`
    const path = `/jobs-api/v3/projects/${need('POST', route, 'projectId', projectId)}/jobs`
    need('POST', route, 'jobName', request?.jobName)
    if (request.description !== undefined && request.description.length > 2000) {
      throw invalidRequest(
        'POST',
        route,
        'description',
        `has ${request.description.length} characters; at most 2000`,
      )
    }
    try {
      // Retried after an uncertain failure: a duplicate name on a later attempt means an earlier one landed.
      return (await http.json<Job>({ method: 'POST', path, route, body: request, idempotent: true })).data
    } catch (error) {
      if (error instanceof TmsApiError && error.code === 'VALIDATION_ERROR' && error.attempts > 1) {
        const found = await findByName(projectId, request.jobName)
        if (found) return found
      }
      throw error
    }
  }

  async function findOrCreate(projectId: string, request: CreateJobRequest): Promise<JobSummary> {
    return (await findByName(projectId, request?.jobName)) ?? create(projectId, request)
  }

  async function get(projectId: string, jobUid: string): Promise<Job> {
    const route = `${BASE}/jobs/:translationJobUid`
    return (
      await http.json<Job>({
        method: 'GET',
        path: jobPath('GET', route, projectId, jobUid),
        route,
        idempotent: true,
      })
    ).data
  }

  async function search(projectId: string, request: SearchJobsRequest): Promise<Page<JobSummary>> {
    const route = `${BASE}/jobs/search`
    const path = `/jobs-api/v3/projects/${need('POST', route, 'projectId', projectId)}/jobs/search`
    return toPage(
      await fetchList<JobSummary>(http, {
        method: 'POST',
        path,
        route,
        body: request ?? {},
        idempotent: true,
      }),
    )
  }

  function filesRaw(projectId: string, jobUid: string, page: PageRequest): Promise<RawPage<{ uri: string }>> {
    const route = `${BASE}/job/:translationJobUid/files`
    const path = `/jobs-api/v3/projects/${need('GET', route, 'projectId', projectId)}/job/${need('GET', route, 'translationJobUid', jobUid)}/files${buildQuery({ limit: page.limit, offset: page.offset }, 'repeat')}`
    return fetchList(http, { method: 'GET', path, route, idempotent: true })
  }

  async function* files(projectId: string, jobUid: string): AsyncGenerator<{ uri: string }, void, undefined> {
    yield* paginate((offset, limit) => filesRaw(projectId, jobUid, { offset, limit }), PAGE_LIMIT)
  }

  async function fileProgress(projectId: string, jobUid: string, fileUri: string): Promise<ProgressReport> {
    const route = `${BASE}/jobs/:translationJobUid/file/progress`
    need('GET', route, 'fileUri', fileUri)
    const path = `${jobPath('GET', route, projectId, jobUid)}/file/progress${buildQuery({ fileUri }, 'repeat')}`
    return (await http.json<ProgressReport>({ method: 'GET', path, route, idempotent: true })).data
  }

  async function progress(
    projectId: string,
    jobUid: string,
    query: { targetLocaleId?: string } = {},
  ): Promise<ProgressReport> {
    const route = `${BASE}/jobs/:translationJobUid/progress`
    const path = `${jobPath('GET', route, projectId, jobUid)}/progress${buildQuery({ targetLocaleId: query.targetLocaleId }, 'repeat')}`
    return (await http.json<ProgressReport>({ method: 'GET', path, route, idempotent: true })).data
  }

  async function countOperation(
    projectId: string,
    jobUid: string,
    suffix: string,
    bodies: Array<Record<string, unknown>>,
    idempotent: boolean,
  ): Promise<JobCountResult> {
    const route = `${BASE}/jobs/:translationJobUid/${suffix}`
    const path = `${jobPath('POST', route, projectId, jobUid)}/${suffix}`
    const result: JobCountResult = { successCount: 0, failCount: 0, processes: [] }
    // One call after another: calls on the same job would compete for its lock.
    for (const body of bodies) {
      const outcome = await operate<{ successCount?: number; failCount?: number }>(projectId, jobUid, {
        method: 'POST',
        path,
        route,
        body,
        idempotent,
      })
      if (outcome.process) result.processes.push(outcome.process)
      result.successCount += Number(outcome.data?.successCount ?? 0)
      result.failCount += Number(outcome.data?.failCount ?? 0)
    }
    return result
  }

  function hashcodeBodies(
    route: string,
    hashcodes: readonly string[],
    rest: Record<string, unknown>,
  ): Array<Record<string, unknown>> {
    if (!Array.isArray(hashcodes)) throw invalidRequest('POST', route, 'hashcodes', 'must be an array')
    const bad = hashcodes.findIndex((h) => typeof h !== 'string' || !h)
    if (bad >= 0) throw invalidRequest('POST', route, `hashcodes[${bad}]`, 'must be a non-empty string')
    return chunk(hashcodes, MAX_HASHCODES_PER_ADD).map((part) => ({ hashcodes: part, ...rest }))
  }

  async function addStrings(
    projectId: string,
    jobUid: string,
    request: AddStringsRequest,
  ): Promise<JobCountResult> {
    const rest: Record<string, unknown> = {}
    if (request.targetLocaleIds !== undefined) rest.targetLocaleIds = request.targetLocaleIds
    if (request.moveEnabled !== undefined) rest.moveEnabled = request.moveEnabled
    const bodies = hashcodeBodies(`${BASE}/jobs/:translationJobUid/strings/add`, request?.hashcodes, rest)
    // Adding a string that is already in the job changes nothing: safe to repeat.
    return countOperation(projectId, jobUid, 'strings/add', bodies, true)
  }

  async function removeStrings(
    projectId: string,
    jobUid: string,
    request: RemoveStringsRequest,
  ): Promise<JobCountResult> {
    const rest: Record<string, unknown> = {}
    if (request.localeIds !== undefined) rest.localeIds = request.localeIds
    const bodies = hashcodeBodies(`${BASE}/jobs/:translationJobUid/strings/remove`, request?.hashcodes, rest)
    return countOperation(projectId, jobUid, 'strings/remove', bodies, true)
  }

  async function addFile(
    projectId: string,
    jobUid: string,
    request: { fileUri: string; targetLocaleIds?: string[] },
  ): Promise<JobCountResult> {
    need('POST', `${BASE}/jobs/:translationJobUid/file/add`, 'fileUri', request?.fileUri)
    return countOperation(projectId, jobUid, 'file/add', [{ ...request }], true)
  }

  async function removeFile(
    projectId: string,
    jobUid: string,
    request: { fileUri: string },
  ): Promise<JobCountResult> {
    need('POST', `${BASE}/jobs/:translationJobUid/file/remove`, 'fileUri', request?.fileUri)
    return countOperation(projectId, jobUid, 'file/remove', [{ ...request }], false)
  }

  async function addLocale(
    projectId: string,
    jobUid: string,
    localeId: string,
    query: { syncContent?: boolean } = {},
  ): Promise<JobProcess | null> {
    const route = `${BASE}/jobs/:translationJobUid/locales/:localeId`
    const path = `${jobPath('POST', route, projectId, jobUid)}/locales/${need('POST', route, 'localeId', localeId)}${buildQuery({ syncContent: query.syncContent }, 'repeat')}`
    return (await operate(projectId, jobUid, { method: 'POST', path, route, idempotent: true })).process
  }

  async function removeLocale(
    projectId: string,
    jobUid: string,
    localeId: string,
  ): Promise<JobProcess | null> {
    const route = `${BASE}/jobs/:translationJobUid/locales/:localeId`
    const path = `${jobPath('DELETE', route, projectId, jobUid)}/locales/${need('DELETE', route, 'localeId', localeId)}`
    return (await operate(projectId, jobUid, { method: 'DELETE', path, route, idempotent: false })).process
  }

  /**
   * A state change retried after an uncertain failure: the later attempt's VALIDATION_ERROR ("not in a
   * state that allows it") is success when the job is already where the change would take it.
   */
  async function transition(
    projectId: string,
    jobUid: string,
    action: 'close' | 'cancel' | 'authorize',
    body: Record<string, unknown> | undefined,
    reached: readonly JobStatus[],
  ): Promise<JobProcess | null> {
    const route = `${BASE}/jobs/:translationJobUid/${action}`
    const path = `${jobPath('POST', route, projectId, jobUid)}/${action}`
    try {
      return (await operate(projectId, jobUid, { method: 'POST', path, route, body, idempotent: true }))
        .process
    } catch (error) {
      if (error instanceof TmsApiError && error.code === 'VALIDATION_ERROR' && error.attempts > 1) {
        const job = await get(projectId, jobUid)
        if (reached.includes(job.jobStatus)) return null
      }
      throw error
    }
  }

  return {
    listPage: async (projectId, query = {}) => {
      const length = http.requestLineLength('GET', listPath(projectId, query))
      const uids = query.translationJobUids?.length ?? 0
      const problem = overLongLine(length, ctx.maxRequestLineBytes, uids, 'list()')
      // Without uids only a long jobName can make the line long.
      if (problem)
        throw invalidRequest('GET', `${BASE}/jobs`, uids ? 'translationJobUids' : 'jobName', problem)
      return toPage(await listRaw(projectId, query))
    },
    list,
    findByName,
    create,
    findOrCreate,
    get,
    search,
    filesPage: async (projectId, jobUid, page = {}) => toPage(await filesRaw(projectId, jobUid, page)),
    files,
    fileProgress,
    progress,
    addStrings,
    removeStrings,
    addFile,
    removeFile,
    addLocale,
    removeLocale,
    close: async (projectId, jobUid) => {
      await transition(projectId, jobUid, 'close', undefined, ['CLOSED'])
    },
    cancel: async (projectId, jobUid, request = {}) =>
      transition(
        projectId,
        jobUid,
        'cancel',
        request.reason === undefined ? {} : { reason: request.reason },
        ['CANCELLED'],
      ),
    authorize: async (projectId, jobUid, request = {}) => {
      const body = request.localeWorkflows ? { localeWorkflows: request.localeWorkflows } : {}
      await transition(projectId, jobUid, 'authorize', body, ['IN_PROGRESS', 'COMPLETE'])
    },
    process: processOf,
    waitForProcess: async (projectId, jobUid, processUid) =>
      waitFor(processRequest(projectId, jobUid, processUid), processUid),
  }
}
