import type { FastifyInstance } from 'fastify'
import {
  type PlaceholderFormat,
  type PlaceholderSpec,
  PlaceholderSpecError,
  restorePlaceholders,
} from '../../core/model/placeholders'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { requireProject } from '../http/auth'
import { notFoundError, sendData, validationError } from '../http/envelope'
import {
  bodyObject,
  optionalNumber,
  optionalString,
  type ProjectParams,
  type Query,
  queryArray,
  queryBoolean,
  queryInt,
  queryString,
} from '../http/params'
import type { PlaceholderParser } from '../placeholder-sandbox'
import {
  computeHashcode,
  DEFAULT_NAMESPACE,
  type StoredString,
  type StringInput,
  workflowStepOf,
  workflowStepUid,
} from '../store'
import { sleep } from '../timers'
import { countWords } from '../words'

export const MAX_STRINGS_PER_REQUEST = 100
export const MAX_STRING_LENGTH = 10_000
export const MAX_PAGE_SIZE = 500

// Words of a parsed text (also the word counts of job progress): literal text only (see ../words.ts).
export { countWords }

function readPlaceholderSpec(ctx: EmulatorContext, body: Record<string, unknown>): PlaceholderSpec {
  const spec: PlaceholderSpec = {
    format: optionalString(body, 'placeholderFormat') as PlaceholderFormat | null,
    custom: optionalString(body, 'placeholderFormatCustom'),
  }
  try {
    ctx.placeholders.check(spec)
  } catch (error) {
    if (error instanceof PlaceholderSpecError) throw validationError(error.field, error.message)
    throw error
  }
  return spec
}

/** The placeholders of the request's texts, found off the main thread when the regex is the caller's. */
async function readPlaceholders(
  ctx: EmulatorContext,
  spec: PlaceholderSpec,
  items: unknown[],
): Promise<PlaceholderParser> {
  // Texts over the limit are refused item by item afterwards; they need no scan.
  const texts = items.map((raw) => {
    const text = (raw as { stringText?: unknown } | null)?.stringText
    return typeof text === 'string' && text.length <= MAX_STRING_LENGTH * 2 ? text : ''
  })
  try {
    return await ctx.placeholders.parser(spec, texts)
  } catch (error) {
    if (error instanceof PlaceholderSpecError) throw validationError(error.field, error.message)
    throw error
  }
}

function readNamespace(body: Record<string, unknown>): string | null {
  if (body.namespace === undefined) return DEFAULT_NAMESPACE
  if (body.namespace === null) return null
  if (typeof body.namespace !== 'string') throw validationError('namespace', 'must be a string or null')
  return body.namespace
}

function readCallbackUrl(item: Record<string, unknown>, field: string): string | null {
  const value = optionalString(item, 'callbackUrl', field)
  if (value === null || value === '') return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw validationError(field, 'must be an absolute http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError(field, 'must be an absolute http or https URL')
  }
  return url.href
}

function readStringItem(
  raw: unknown,
  i: number,
  namespace: string | null,
  placeholders: PlaceholderParser,
): StringInput {
  const at = `strings[${i}]`
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw validationError(at, 'must be an object')
  const item = raw as Record<string, unknown>
  const stringText = item.stringText
  if (stringText === undefined || stringText === null || stringText === '') {
    throw validationError(`${at}.stringText`, 'is required')
  }
  if (typeof stringText !== 'string') throw validationError(`${at}.stringText`, 'must be a string')
  // Characters are code points: an emoji is one character, as a translator counts it.
  let length = 0
  for (const _ of stringText) length++
  if (length > MAX_STRING_LENGTH) {
    throw validationError(`${at}.stringText`, `is ${length} characters long; at most ${MAX_STRING_LENGTH}`)
  }
  const method = optionalString(item, 'callbackMethod', `${at}.callbackMethod`)
  const callbackMethod = method === null ? null : method.toUpperCase()
  if (callbackMethod !== null && callbackMethod !== 'GET' && callbackMethod !== 'POST') {
    throw validationError(`${at}.callbackMethod`, `must be GET or POST; got ${JSON.stringify(method)}`)
  }
  const { parsed, placeholders: originals } = placeholders.parse(stringText)
  return {
    namespace,
    variant: optionalString(item, 'variant', `${at}.variant`),
    stringText,
    parsedStringText: parsed,
    placeholders: originals,
    placeholderSpec: placeholders.spec,
    instruction: optionalString(item, 'instruction', `${at}.instruction`),
    maxLength: optionalNumber(
      item,
      'maxLength',
      { min: 1, max: 1_000_000, integer: true },
      `${at}.maxLength`,
    ),
    format: optionalString(item, 'format', `${at}.format`),
    callbackUrl: readCallbackUrl(item, `${at}.callbackUrl`),
    callbackMethod: callbackMethod as 'GET' | 'POST' | null,
  }
}

/** Filters of the two GET queries: hashcodes and/or fileUri; neither selects nothing. */
function selectStrings(all: StoredString[], query: Query): StoredString[] | null {
  const hashcodes = queryArray(query, 'hashcodes')
  const fileUri = queryString(query, 'fileUri')
  if (hashcodes.length === 0 && (fileUri === undefined || fileUri === '')) return null
  const wanted = new Set(hashcodes)
  return all.filter(
    (s) => (wanted.size === 0 || wanted.has(s.hashcode)) && (!fileUri || s.fileUris.includes(fileUri)),
  )
}

function readPage(query: Query): { limit: number; offset: number } {
  return {
    limit: queryInt(query, 'limit', { min: 1, max: MAX_PAGE_SIZE, fallback: MAX_PAGE_SIZE }),
    offset: queryInt(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
  }
}

/**
 * `strings-api/v2`: create strings, process status, source strings, translations. Long because each
 * route is a few lines over the same store part and context; the routes of one API area read best together.
 */
export function registerStringsRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Params: ProjectParams }>('/strings-api/v2/projects/:projectId', async (request, reply) => {
    const { projectId } = request.params
    requireProject(ctx, request, projectId)
    const body = bodyObject(request.body)
    const spec = readPlaceholderSpec(ctx, body)
    const namespace = readNamespace(body)
    if (body.strings === undefined || body.strings === null) throw validationError('strings', 'is required')
    if (!Array.isArray(body.strings)) throw validationError('strings', 'must be an array')
    if (body.strings.length > MAX_STRINGS_PER_REQUEST) {
      throw validationError(
        'strings',
        `has ${body.strings.length} items; at most ${MAX_STRINGS_PER_REQUEST} per request`,
      )
    }
    const placeholders = await readPlaceholders(ctx, spec, body.strings)
    const inputs = body.strings.map((raw, i) => readStringItem(raw, i, namespace, placeholders))
    const wordCount = inputs.reduce((n, s) => n + countWords(s.parsedStringText), 0)
    const process = ctx.store.processes.open(projectId, inputs.length, ctx.now(), ctx.config.processTtlMs)

    const describe = (overWritten: (s: StringInput, hashcode: string) => boolean) =>
      inputs.map((s) => {
        const hashcode = computeHashcode(s.namespace, s.variant, s.parsedStringText)
        return {
          variant: s.variant,
          stringText: s.stringText,
          parsedStringText: s.parsedStringText,
          hashcode,
          overWritten: overWritten(s, hashcode),
        }
      })
    const apply = () => {
      const seen = new Map<string, boolean>()
      for (const input of inputs) {
        const hashcode = computeHashcode(input.namespace, input.variant, input.parsedStringText)
        if (seen.has(hashcode)) continue
        seen.set(hashcode, ctx.store.strings.upsert(projectId, input, ctx.now()).overWritten)
      }
      const skipped = inputs.length - seen.size
      ctx.store.processes.finish(
        process.processUid,
        'closed',
        { requested: inputs.length, processed: seen.size, errored: 0, skipped },
        ctx.now(),
      )
      // A string repeated within one request is written once; its later copies report that write.
      return describe((_s, hashcode) => seen.get(hashcode)!)
    }
    const result = { wordCount, stringCount: inputs.length, processUid: process.processUid }

    const { syncWindowMs, processingMs } = ctx.config
    if (syncWindowMs > 0 && processingMs < syncWindowMs) {
      if (processingMs > 0) await sleep(processingMs)
      return sendData(reply, { ...result, items: apply() })
    }
    if (syncWindowMs > 0) await sleep(syncWindowMs)
    // Past the window: 202 with the hashcodes (a client needs them) while the work goes on.
    const items = describe((_s, hashcode) => ctx.store.strings.get(projectId, hashcode) !== undefined)
    ctx.timers.after(Math.max(0, processingMs - syncWindowMs), () => {
      if (ctx.faults.shouldFailProcess()) {
        const stats = { requested: inputs.length, processed: 0, errored: inputs.length, skipped: 0 }
        ctx.store.processes.finish(process.processUid, 'failed', stats, ctx.now())
      } else {
        apply()
      }
    })
    return sendData(reply, { ...result, items }, 'ACCEPTED')
  })

  app.get<{ Params: ProjectParams & { processUid: string } }>(
    '/strings-api/v2/projects/:projectId/processes/:processUid',
    async (request, reply) => {
      const { projectId, processUid } = request.params
      requireProject(ctx, request, projectId)
      const record = ctx.store.processes.find(projectId, processUid, ctx.now(), ctx.config.processTtlMs)
      if (!record) throw notFoundError(`Process ${processUid} not found or expired`, 'process_not_found')
      return sendData(reply, {
        processUid: record.processUid,
        processState: record.processState,
        createdDate: isoDate(record.createdDate),
        modifiedDate: isoDate(record.modifiedDate),
        processStatistics: record.processStatistics,
      })
    },
  )

  app.get<{ Params: ProjectParams }>(
    '/strings-api/v2/projects/:projectId/source-strings',
    async (request, reply) => {
      const { projectId } = request.params
      requireProject(ctx, request, projectId)
      const query = request.query as Query
      const { limit, offset } = readPage(query)
      const selected = selectStrings(ctx.store.strings.list(projectId), query) ?? []
      const items = selected.slice(offset, offset + limit).map((s) => ({
        hashcode: s.hashcode,
        stringText: s.stringText,
        parsedStringText: s.parsedStringText,
        stringVariant: s.variant,
        maxLength: s.maxLength,
        stringInstructions: s.instruction ? [s.instruction] : [],
        keys: s.keys,
      }))
      return sendData(reply, { totalCount: selected.length, items })
    },
  )

  app.get<{ Params: ProjectParams }>(
    '/strings-api/v2/projects/:projectId/translations',
    async (request, reply) => {
      const { projectId } = request.params
      const { project } = requireProject(ctx, request, projectId)
      const query = request.query as Query
      const targetLocaleId = queryString(query, 'targetLocaleId')
      if (!targetLocaleId) throw validationError('targetLocaleId', 'is required')
      if (!project.targetLocaleIds.includes(targetLocaleId)) {
        throw validationError(
          'targetLocaleId',
          `${targetLocaleId} is not a target locale of project ${projectId}`,
        )
      }
      const retrievalType = queryString(query, 'retrievalType') || 'published'
      if (retrievalType !== 'published' && retrievalType !== 'pending') {
        throw validationError(
          'retrievalType',
          `must be published or pending; got ${JSON.stringify(retrievalType)}`,
        )
      }
      const showPlaceholderValues = queryBoolean(query, 'showPlaceholderValues', true)
      const { limit, offset } = readPage(query)
      const selected = (selectStrings(ctx.store.strings.list(projectId), query) ?? []).filter(
        (s) => s.active && s.authorizedLocaleIds.includes(targetLocaleId),
      )
      const items = selected.slice(offset, offset + limit).map((s) => {
        const state = s.translations[targetLocaleId]
        const version =
          retrievalType === 'published' ? state?.published : (state?.pending ?? state?.published)
        return {
          hashcode: s.hashcode,
          stringText: s.stringText,
          parsedStringText: s.parsedStringText,
          stringVariant: s.variant,
          targetLocaleId,
          workflowStepUid: workflowStepUid(projectId, workflowStepOf(state)),
          translations: version
            ? [
                {
                  translation: showPlaceholderValues
                    ? restorePlaceholders(version.text, s.placeholders)
                    : version.text,
                  pluralForm: null,
                  modifiedDate: isoDate(version.modifiedDate),
                },
              ]
            : [],
        }
      })
      return sendData(reply, { totalCount: selected.length, items })
    },
  )
}
