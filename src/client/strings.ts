import { PLACEHOLDER_FORMATS } from '../core/model/placeholders'
import { type ClientContext, fetchList, pollProcess, type RawPage, toPage } from './context'
import { invalidRequest } from './errors'
import type { HttpRequest } from './http'
import { chunk, listsInParallel, overLongLine, paginate, splitByLength } from './paging'
import { buildQuery, type QueryParams, seg } from './query'
import type {
  CreatedBatch,
  CreatedString,
  CreateStringsRequest,
  CreateStringsResult,
  PageRequest,
  SourceString,
  SourceStringsQuery,
  StringsApi,
  StringsProcess,
  TranslationItem,
  TranslationsQuery,
} from './strings-types'

const MAX_STRINGS_PER_REQUEST = 100
const MAX_STRING_LENGTH = 10_000
const PAGE_LIMIT = 500
/** The offset reserved when measuring a request line: pages far beyond any real list still fit. */
const WIDEST_OFFSET = 9_999_999_999

const ROUTE_CREATE = '/strings-api/v2/projects/:projectId'
const ROUTE_PROCESS = '/strings-api/v2/projects/:projectId/processes/:processUid'
const ROUTE_SOURCE = '/strings-api/v2/projects/:projectId/source-strings'
const ROUTE_TRANSLATIONS = '/strings-api/v2/projects/:projectId/translations'

/** Checks a create request; `first` is the index of `strings[0]` in the caller's array, for messages. */
function validateCreate(request: CreateStringsRequest, first = 0): void {
  const fail = (field: string, problem: string) => invalidRequest('POST', ROUTE_CREATE, field, problem)
  if (!request || !Array.isArray(request.strings)) throw fail('strings', 'must be an array')
  if (request.placeholderFormat !== undefined && !PLACEHOLDER_FORMATS.includes(request.placeholderFormat)) {
    throw fail('placeholderFormat', `must be one of ${PLACEHOLDER_FORMATS.join(', ')}`)
  }
  if (request.placeholderFormatCustom !== undefined && typeof request.placeholderFormatCustom !== 'string') {
    throw fail('placeholderFormatCustom', 'must be a string')
  }
  if (
    request.namespace !== undefined &&
    request.namespace !== null &&
    typeof request.namespace !== 'string'
  ) {
    throw fail('namespace', 'must be a string or null')
  }
  request.strings.forEach((item, i) => {
    const at = `strings[${first + i}]`
    if (!item || typeof item !== 'object') throw fail(at, 'must be an object')
    if (typeof item.stringText !== 'string' || item.stringText.length === 0) {
      throw fail(`${at}.stringText`, 'must be a non-empty string')
    }
    if (item.stringText.length > MAX_STRING_LENGTH) {
      throw fail(`${at}.stringText`, `has ${item.stringText.length} characters; at most ${MAX_STRING_LENGTH}`)
    }
    if (item.variant !== undefined && item.variant !== null && typeof item.variant !== 'string') {
      throw fail(`${at}.variant`, 'must be a string or null')
    }
    if (
      item.callbackMethod !== undefined &&
      item.callbackMethod !== 'GET' &&
      item.callbackMethod !== 'POST'
    ) {
      throw fail(`${at}.callbackMethod`, 'must be GET or POST')
    }
    if (item.maxLength !== undefined && (!Number.isInteger(item.maxLength) || item.maxLength < 0)) {
      throw fail(`${at}.maxLength`, 'must be a non-negative integer')
    }
  })
}

/**
 * The strings area of the client. Long because each method of the area closes over the one client
 * context; every method is short and stands alone, and a split would only pass the context around.
 */
export function createStringsApi(ctx: ClientContext): StringsApi {
  const { http } = ctx

  function projectPath(projectId: string, method: string, route: string): string {
    if (typeof projectId !== 'string' || projectId.length === 0) {
      throw invalidRequest(method, route, 'projectId', 'must be a non-empty string')
    }
    return `/strings-api/v2/projects/${seg(projectId)}`
  }

  async function processOf(projectId: string, processUid: string): Promise<StringsProcess> {
    if (typeof processUid !== 'string' || !processUid) {
      throw invalidRequest('GET', ROUTE_PROCESS, 'processUid', 'must be a non-empty string')
    }
    const { data } = await http.json<StringsProcess>({
      method: 'GET',
      path: `${projectPath(projectId, 'GET', ROUTE_PROCESS)}/processes/${seg(processUid)}`,
      route: ROUTE_PROCESS,
      idempotent: true,
    })
    return data
  }

  async function waitForProcess(projectId: string, processUid: string): Promise<StringsProcess> {
    const req: HttpRequest = {
      method: 'GET',
      path: `${projectPath(projectId, 'GET', ROUTE_PROCESS)}/processes/${seg(processUid)}`,
      route: ROUTE_PROCESS,
      idempotent: true,
    }
    const done = await pollProcess(
      ctx,
      req,
      () => processOf(projectId, processUid),
      (p) => p.processState === 'open',
      `process ${processUid}`,
      'open',
    )
    if (done.processState === 'failed') {
      const stats = JSON.stringify(done.processStatistics ?? {})
      throw http.error(req, 'PROCESS_FAILED', 200, `process ${processUid} failed ${stats}`, 1)
    }
    return done
  }

  async function create(projectId: string, request: CreateStringsRequest): Promise<CreateStringsResult> {
    validateCreate(request)
    if (request.strings.length > MAX_STRINGS_PER_REQUEST) {
      throw invalidRequest(
        'POST',
        ROUTE_CREATE,
        'strings',
        `has ${request.strings.length} items; at most ${MAX_STRINGS_PER_REQUEST} per request`,
      )
    }
    const path = projectPath(projectId, 'POST', ROUTE_CREATE)
    if (request.strings.length === 0) return { wordCount: 0, stringCount: 0, processUid: null, items: [] }
    const body: Record<string, unknown> = {}
    if (request.placeholderFormat !== undefined) body.placeholderFormat = request.placeholderFormat
    if (request.placeholderFormatCustom !== undefined)
      body.placeholderFormatCustom = request.placeholderFormatCustom
    if (request.namespace !== undefined) body.namespace = request.namespace
    body.strings = request.strings
    // Creating a string again overwrites it with the same values (spec, create strings, rule 2: a
    // string's identity is its parsed text, variant and namespace): safe to repeat, also after a
    // success whose answer came back garbled.
    const count = request.strings.length
    const req: HttpRequest = {
      method: 'POST',
      path,
      route: ROUTE_CREATE,
      body,
      idempotent: true,
      check: (data) => (isAccepted(data) ? undefined : createdItemsProblem(data, count)),
    }
    let answer = await http.json<RawCreateResult | null>(req)
    const processUid = typeof answer.data?.processUid === 'string' ? answer.data.processUid : null
    if (answer.status === 202) {
      if (!processUid)
        throw http.error(req, 'INVALID_RESPONSE', 202, 'a 202 answer without processUid', answer.attempts)
      const listed = answer.data?.items
      await waitForProcess(projectId, processUid)
      if (!Array.isArray(listed) || listed.length !== request.strings.length) {
        // The 202 did not list the strings: once the process has closed, sending again overwrites them
        // and answers with their hashcodes.
        answer = await http.json<RawCreateResult | null>(req)
      }
    }
    const problem = createdItemsProblem(answer.data, count)
    if (problem) throw http.error(req, 'INVALID_RESPONSE', answer.status, problem, answer.attempts)
    const items = (answer.data as RawCreateResult & { items: RawCreatedString[] }).items
    return {
      wordCount: Number(answer.data?.wordCount ?? 0),
      stringCount: Number(answer.data?.stringCount ?? items.length),
      processUid,
      items: items.map(normalizeCreated),
    }
  }

  async function createInBatches(
    projectId: string,
    request: CreateStringsRequest,
    onBatch?: (batch: CreatedBatch) => void | Promise<void>,
  ): Promise<CreateStringsResult[]> {
    // Everything is checked before the first request goes out, with indexes into the caller's array.
    validateCreate(request)
    projectPath(projectId, 'POST', ROUTE_CREATE)
    const batches = chunk(request.strings, MAX_STRINGS_PER_REQUEST)
    // Every batch runs to its end before a failure is reported, so no request is left running unseen.
    const settled = await Promise.allSettled(
      batches.map(async (strings, i) => {
        const result = await create(projectId, { ...request, strings })
        await onBatch?.({ first: i * MAX_STRINGS_PER_REQUEST, result })
        return result
      }),
    )
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return settled.map((r) => (r as PromiseFulfilledResult<CreateStringsResult>).value)
  }

  /** Hashcode runs short enough that every page request of a run stays within the request-line limit. */
  function hashcodeRuns(
    pathFor: (hashcodes: string[]) => string,
    hashcodes: readonly string[],
    route: string,
  ): string[][] {
    const base = http.requestLineLength('GET', pathFor([]))
    try {
      return splitByLength(
        hashcodes,
        base,
        (h) => `&hashcodes=${encodeURIComponent(h)}`.length,
        ctx.maxRequestLineBytes,
      )
    } catch (error) {
      throw invalidRequest('GET', route, 'hashcodes', (error as Error).message)
    }
  }

  /** Refuses a page request whose line is too long, naming its hashcodes (what makes a line long). */
  function fitsLine(
    path: string,
    route: string,
    query: { hashcodes?: readonly string[] },
    list: string,
  ): void {
    const length = http.requestLineLength('GET', path)
    const problem = overLongLine(length, ctx.maxRequestLineBytes, query.hashcodes?.length ?? 0, list)
    if (problem) throw invalidRequest('GET', route, 'hashcodes', problem)
  }

  function sourcePath(projectId: string, query: SourceStringsQuery & PageRequest): string {
    const params: QueryParams = {
      hashcodes: query.hashcodes,
      fileUri: query.fileUri,
      limit: query.limit,
      offset: query.offset,
    }
    return `${projectPath(projectId, 'GET', ROUTE_SOURCE)}/source-strings${buildQuery(params, 'repeat')}`
  }

  function translationsPath(projectId: string, query: TranslationsQuery & PageRequest): string {
    if (typeof query?.targetLocaleId !== 'string' || !query.targetLocaleId) {
      throw invalidRequest('GET', ROUTE_TRANSLATIONS, 'targetLocaleId', 'must be a non-empty string')
    }
    const params: QueryParams = {
      hashcodes: query.hashcodes,
      targetLocaleId: query.targetLocaleId,
      retrievalType: query.retrievalType,
      fileUri: query.fileUri,
      showPlaceholderValues: query.showPlaceholderValues,
      limit: query.limit,
      offset: query.offset,
    }
    return `${projectPath(projectId, 'GET', ROUTE_TRANSLATIONS)}/translations${buildQuery(params, 'repeat')}`
  }

  function sourceRaw(
    projectId: string,
    query: SourceStringsQuery & PageRequest,
  ): Promise<RawPage<SourceString>> {
    return fetchList(http, {
      method: 'GET',
      path: sourcePath(projectId, query),
      route: ROUTE_SOURCE,
      idempotent: true,
    })
  }

  async function translationsRaw(
    projectId: string,
    query: TranslationsQuery & PageRequest,
  ): Promise<RawPage<TranslationItem>> {
    const path = translationsPath(projectId, query)
    return fetchList<TranslationItem>(http, {
      method: 'GET',
      path,
      route: ROUTE_TRANSLATIONS,
      idempotent: true,
      check: translationItemsProblem,
    })
  }

  /**
   * Every item a list query matches. With hashcodes, one list per run of them that fits a request line,
   * the first alone and then the others at once ({@link listsInParallel}); each list all its pages.
   */
  function hashcodeList<Q extends { hashcodes?: readonly string[] }, T>(
    query: Q,
    route: string,
    pathFor: (query: Q & PageRequest) => string,
    raw: (query: Q & PageRequest) => Promise<RawPage<T>>,
  ): AsyncGenerator<T, void, undefined> {
    const runs = query.hashcodes
      ? hashcodeRuns(
          (hashcodes) => pathFor({ ...query, hashcodes, limit: PAGE_LIMIT, offset: WIDEST_OFFSET }),
          query.hashcodes,
          route,
        )
      : [undefined]
    return listsInParallel(
      runs.map(
        (hashcodes) => () =>
          paginate(
            (offset, limit) => raw({ ...query, hashcodes, offset, limit }),
            PAGE_LIMIT,
            hashcodes?.length,
          ),
      ),
    )
  }

  async function* sourceStrings(
    projectId: string,
    query: SourceStringsQuery,
  ): AsyncGenerator<SourceString, void, undefined> {
    yield* hashcodeList(
      query,
      ROUTE_SOURCE,
      (q) => sourcePath(projectId, q),
      (q) => sourceRaw(projectId, q),
    )
  }

  async function* translations(
    projectId: string,
    query: TranslationsQuery,
  ): AsyncGenerator<TranslationItem, void, undefined> {
    yield* hashcodeList(
      query,
      ROUTE_TRANSLATIONS,
      (q) => translationsPath(projectId, q),
      (q) => translationsRaw(projectId, q),
    )
  }

  return {
    create,
    createInBatches,
    process: processOf,
    waitForProcess,
    sourceStringsPage: async (projectId, query) => {
      fitsLine(sourcePath(projectId, query), ROUTE_SOURCE, query, 'sourceStrings()')
      return toPage(await sourceRaw(projectId, query))
    },
    sourceStrings,
    translationsPage: async (projectId, query) => {
      fitsLine(translationsPath(projectId, query), ROUTE_TRANSLATIONS, query, 'translations()')
      return toPage(await translationsRaw(projectId, query))
    },
    translations,
  }
}

/**
 * Callers read `item.translations[]` directly: a wrong shape is named (and the page asked again), not
 * met as a TypeError.
 */
function translationItemsProblem(data: unknown): string | undefined {
  const items = (data as { items: (Partial<TranslationItem> | null)[] }).items
  const bad = items.findIndex(
    (item) => !item || typeof item.hashcode !== 'string' || !Array.isArray(item.translations),
  )
  if (bad < 0) return undefined
  const field = typeof items[bad]?.hashcode !== 'string' ? 'hashcode' : 'translations'
  return `the answer's items[${bad}].${field} is not ${field === 'hashcode' ? 'a string' : 'an array'}`
}

interface RawCreateResult {
  wordCount?: number
  stringCount?: number
  processUid?: string | null
  items?: RawCreatedString[]
}

interface RawCreatedString extends Omit<CreatedString, 'overWritten'> {
  overWritten: boolean | string
}

/** A 202's data: the process to follow; its items, if any, are checked once it has closed. */
function isAccepted(data: unknown): boolean {
  const processUid = (data as RawCreateResult | null)?.processUid
  return typeof processUid === 'string' && processUid !== ''
}

/** Why a create answer's `data` cannot be used: too few items, or one without a hashcode. */
function createdItemsProblem(data: unknown, count: number): string | undefined {
  const items = (data as RawCreateResult | null)?.items
  if (!Array.isArray(items) || items.length !== count) {
    return `the answer has ${Array.isArray(items) ? `${items.length} items for ${count} strings` : 'no items'}`
  }
  // A hashcode that is not a string would be kept in the cache and make every later read of it fail.
  const bad = items.findIndex((item) => !isCreatedString(item))
  if (bad < 0) return undefined
  const item = items[bad] as unknown as Record<string, unknown> | null
  const field = typeof item?.hashcode !== 'string' || !item.hashcode ? 'hashcode' : 'parsedStringText'
  return `the answer's items[${bad}].${field} is not a string (${JSON.stringify(item?.[field] ?? null)?.slice(0, 40)})`
}

function isCreatedString(item: RawCreatedString | null | undefined): boolean {
  return (
    !!item &&
    typeof item.hashcode === 'string' &&
    item.hashcode !== '' &&
    typeof item.parsedStringText === 'string'
  )
}

function normalizeCreated(item: RawCreatedString): CreatedString {
  return {
    variant: item.variant ?? null,
    stringText: item.stringText,
    parsedStringText: item.parsedStringText,
    hashcode: item.hashcode,
    // The spec types it "string/boolean".
    overWritten: item.overWritten === true || item.overWritten === 'true',
  }
}
