import { type ClientContext, fetchList, toPage } from './context'
import { invalidRequest } from './errors'
import type { HttpMethod } from './http'
import { chunk, type Page } from './paging'
import { buildQuery, seg } from './query'

export interface Glossary {
  glossaryUid: string
  name: string
  /** Null once an edit left it out (edits replace all three fields). */
  description: string | null
  sourceLocaleId: string
  createdByUserUid: string
  createdDate: string
}

export interface GlossaryFields {
  name: string
  description: string
  sourceLocaleId: string
}

export interface ListGlossariesQuery {
  /** Case-insensitive LIKE. */
  name?: string
  /** Any number: sent in requests of at most 100. */
  glossaryUids?: readonly string[]
}

export interface GlossariesApi {
  /** One list request; at most 100 `glossaryUids`. */
  listPage(accountUid: string, query?: ListGlossariesQuery): Promise<Page<Glossary>>
  /** Every matching glossary, `glossaryUids` split into requests of 100. */
  list(accountUid: string, query?: ListGlossariesQuery): AsyncGenerator<Glossary, void, undefined>
  create(accountUid: string, fields: GlossaryFields): Promise<Glossary>
  get(accountUid: string, glossaryUid: string): Promise<Glossary>
  /** Replaces all three fields: an omitted or blank one deletes the stored value. */
  edit(accountUid: string, glossaryUid: string, fields: Partial<GlossaryFields>): Promise<Glossary>
  /** The spec does not show the answer; its `data` passes through. */
  delete(accountUid: string, glossaryUid: string): Promise<unknown>
}

const R = '/glossary-api/v2/accounts/:accountUid/glossaries'
const MAX_UIDS = 100

export function createGlossariesApi(ctx: ClientContext): GlossariesApi {
  const { http } = ctx

  function need(method: HttpMethod, route: string, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.length === 0)
      throw invalidRequest(method, route, field, 'must be a non-empty string')
    return seg(value)
  }

  function collection(method: HttpMethod, accountUid: string): string {
    return `/glossary-api/v2/accounts/${need(method, R, 'accountUid', accountUid)}/glossaries`
  }

  function one(method: HttpMethod, accountUid: string, glossaryUid: string): string {
    return `${collection(method, accountUid)}/${need(method, `${R}/:glossaryUid`, 'glossaryUid', glossaryUid)}`
  }

  async function listPage(accountUid: string, query: ListGlossariesQuery = {}): Promise<Page<Glossary>> {
    if (query.glossaryUids && query.glossaryUids.length > MAX_UIDS) {
      throw invalidRequest(
        'GET',
        R,
        'glossaryUids',
        `has ${query.glossaryUids.length} items; at most ${MAX_UIDS}`,
      )
    }
    const path = `${collection('GET', accountUid)}${buildQuery({ name: query.name, glossaryUids: query.glossaryUids }, 'comma')}`
    return toPage(await fetchList<Glossary>(http, { method: 'GET', path, route: R, idempotent: true }))
  }

  function checkFields(
    method: HttpMethod,
    route: string,
    fields: Partial<GlossaryFields>,
    required: boolean,
  ): void {
    for (const key of ['name', 'description', 'sourceLocaleId'] as const) {
      const value = fields?.[key]
      if (required) need(method, route, key, value)
      else if (value !== undefined && typeof value !== 'string')
        throw invalidRequest(method, route, key, 'must be a string')
    }
  }

  return {
    listPage,
    async *list(accountUid, query = {}) {
      if (!query.glossaryUids) {
        yield* (await listPage(accountUid, query)).items
        return
      }
      for (const glossaryUids of chunk(query.glossaryUids, MAX_UIDS)) {
        yield* (await listPage(accountUid, { ...query, glossaryUids })).items
      }
    },
    async create(accountUid, fields) {
      checkFields('POST', R, fields, true)
      const body = {
        name: fields.name,
        description: fields.description,
        sourceLocaleId: fields.sourceLocaleId,
      }
      return (
        await http.json<Glossary>({
          method: 'POST',
          path: collection('POST', accountUid),
          route: R,
          body,
          idempotent: false,
        })
      ).data
    },
    async get(accountUid, glossaryUid) {
      const path = one('GET', accountUid, glossaryUid)
      return (
        await http.json<Glossary>({ method: 'GET', path, route: `${R}/:glossaryUid`, idempotent: true })
      ).data
    },
    async edit(accountUid, glossaryUid, fields) {
      const route = `${R}/:glossaryUid`
      checkFields('PUT', route, fields, false)
      const path = one('PUT', accountUid, glossaryUid)
      return (
        await http.json<Glossary>({ method: 'PUT', path, route, body: { ...fields }, idempotent: true })
      ).data
    },
    async delete(accountUid, glossaryUid) {
      const path = one('DELETE', accountUid, glossaryUid)
      return (
        await http.json<unknown>({ method: 'DELETE', path, route: `${R}/:glossaryUid`, idempotent: false })
      ).data
    },
  }
}
