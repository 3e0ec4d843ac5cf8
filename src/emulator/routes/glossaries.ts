import type { FastifyInstance } from 'fastify'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { requireAccount } from '../http/auth'
import { ApiError, notFoundError, sendData, validationError } from '../http/envelope'
import { bodyObject, optionalString, type Query, queryArray, queryString } from '../http/params'
import { type GlossaryFields, type GlossaryRecord, GlossaryStore } from '../store/glossaries'
import { userUid } from '../store/ids'
import { canonicalLocale, isKnownLocale } from '../store/locales'
import { likeMatcher } from '../store/matching'

export const MAX_GLOSSARY_UIDS = 100

interface AccountParams {
  accountUid: string
}

interface GlossaryParams extends AccountParams {
  glossaryUid: string
}

function describeGlossary(g: GlossaryRecord) {
  return {
    glossaryUid: g.glossaryUid,
    name: g.name,
    description: g.description,
    sourceLocaleId: g.sourceLocaleId,
    createdByUserUid: g.createdByUserUid,
    createdDate: isoDate(g.createdDate),
  }
}

function checkLocale(localeId: string): string {
  const canonical = canonicalLocale(localeId)
  if (canonical === undefined)
    throw validationError('sourceLocaleId', `${JSON.stringify(localeId)} is not a locale`)
  if (canonical !== localeId) {
    throw validationError(
      'sourceLocaleId',
      `${JSON.stringify(localeId)} is not a locale id; did you mean ${canonical}?`,
    )
  }
  if (!isKnownLocale(localeId)) {
    throw validationError(
      'sourceLocaleId',
      `${JSON.stringify(localeId)} is not a valid locale: no such language or region`,
    )
  }
  return localeId
}

/** Create: all three fields are required strings. */
function requiredFields(body: Record<string, unknown>): GlossaryFields {
  const fields = {} as Record<keyof GlossaryFields, string>
  for (const key of ['name', 'description', 'sourceLocaleId'] as const) {
    const value = body[key]
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      throw validationError(key, 'is required')
    }
    if (typeof value !== 'string') throw validationError(key, 'must be a string')
    fields[key] = value
  }
  checkLocale(fields.sourceLocaleId)
  return fields
}

/** Edit: the three values are replaced wholesale; an omitted or blank one is cleared. */
function replacementFields(body: Record<string, unknown>): GlossaryFields {
  const read = (key: keyof GlossaryFields) => {
    const value = optionalString(body, key)
    return value === null || value.trim() === '' ? null : value
  }
  const sourceLocaleId = read('sourceLocaleId')
  if (sourceLocaleId !== null) checkLocale(sourceLocaleId)
  return { name: read('name'), description: read('description'), sourceLocaleId }
}

/** `glossary-api/v2`: list, create, details, edit, delete. */
export function registerGlossaryRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const glossaries = ctx.store.register(new GlossaryStore(() => ctx.persistence?.schedule()))
  const base = '/glossary-api/v2/accounts/:accountUid/glossaries'

  const find = (accountUid: string, glossaryUid: string): GlossaryRecord => {
    const found = glossaries.get(accountUid, glossaryUid)
    if (!found) throw notFoundError(`Glossary ${glossaryUid} not found`, 'glossary_not_found')
    return found
  }

  app.get<{ Params: AccountParams }>(base, async (request, reply) => {
    const { accountUid } = request.params
    requireAccount(ctx, request, accountUid)
    const query = request.query as Query
    const uids = queryArray(query, 'glossaryUids', true)
    if (uids.length > MAX_GLOSSARY_UIDS) {
      throw validationError('glossaryUids', `has ${uids.length} items; at most ${MAX_GLOSSARY_UIDS}`)
    }
    const name = queryString(query, 'name')
    const matches = name ? likeMatcher(name) : () => true
    const wanted = new Set(uids)
    const items = glossaries
      .list(accountUid)
      .filter((g) => (wanted.size === 0 || wanted.has(g.glossaryUid)) && matches(g.name))
      .map(describeGlossary)
    return sendData(reply, { totalCount: items.length, items })
  })

  app.post<{ Params: AccountParams }>(base, async (request, reply) => {
    const { accountUid } = request.params
    const user = requireAccount(ctx, request, accountUid)
    const fields = requiredFields(bodyObject(request.body))
    const created = glossaries.create(accountUid, fields, userUid(user.userIdentifier), ctx.now())
    return sendData(reply, describeGlossary(created))
  })

  app.get<{ Params: GlossaryParams }>(`${base}/:glossaryUid`, async (request, reply) => {
    const { accountUid, glossaryUid } = request.params
    requireAccount(ctx, request, accountUid)
    return sendData(reply, describeGlossary(find(accountUid, glossaryUid)))
  })

  app.put<{ Params: GlossaryParams }>(`${base}/:glossaryUid`, async (request, reply) => {
    const { accountUid, glossaryUid } = request.params
    requireAccount(ctx, request, accountUid)
    const record = find(accountUid, glossaryUid)
    glossaries.replace(record, replacementFields(bodyObject(request.body, true)))
    return sendData(reply, describeGlossary(record))
  })

  app.delete<{ Params: GlossaryParams }>(`${base}/:glossaryUid`, async (request, reply) => {
    const { accountUid, glossaryUid } = request.params
    requireAccount(ctx, request, accountUid)
    const record = find(accountUid, glossaryUid)
    if (record.linguisticPackageUid !== null) {
      throw new ApiError('VALIDATION_ERROR', [
        {
          key: 'glossary_assigned',
          message: `glossaryUid: glossary ${glossaryUid} is assigned to linguistic package ${record.linguisticPackageUid}; unassign it first`,
          details: { field: 'glossaryUid' },
        },
      ])
    }
    glossaries.delete(record)
    return sendData(reply, null)
  })

  // Control API: the dashboard assigns a glossary to a linguistic package (which blocks its deletion).
  app.put<{ Params: { glossaryUid: string } }>(
    '/_emulator/glossaries/:glossaryUid/linguistic-package',
    async (request, reply) => {
      const body = bodyObject(request.body)
      const record = glossaries.snapshot().find((g) => g.glossaryUid === request.params.glossaryUid)
      if (!record)
        throw notFoundError(`Glossary ${request.params.glossaryUid} not found`, 'glossary_not_found')
      if (body.linguisticPackageUid !== null && typeof body.linguisticPackageUid !== 'string') {
        throw validationError('linguisticPackageUid', 'must be a string, or null to unassign')
      }
      glossaries.assign(record, body.linguisticPackageUid)
      return sendData(reply, {
        glossaryUid: record.glossaryUid,
        linguisticPackageUid: record.linguisticPackageUid,
      })
    },
  )
}
