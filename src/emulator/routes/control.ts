import type { FastifyInstance } from 'fastify'
import { PlaceholderSpecError, restorePlaceholders } from '../../core/model/placeholders'
import { parseAutoTranslate } from '../auto-translator'
import { isoDate } from '../clock'
import { mergeConfig } from '../config'
import type { EmulatorContext } from '../context'
import { notFoundError, sendData, validationError } from '../http/envelope'
import {
  bodyObject,
  optionalBoolean,
  optionalNumber,
  optionalStringArray,
  type ProjectParams,
  requiredString,
} from '../http/params'
import type { PlaceholderParser } from '../placeholder-sandbox'
import { validateSeed } from '../seed'
import { type ProjectRecord, parseTranslation, type StoredString } from '../store'

function knownProject(ctx: EmulatorContext, projectId: string): ProjectRecord {
  const project = ctx.store.directory.projects.get(projectId)
  if (!project) throw notFoundError(`Project ${projectId} not found`, 'project_not_found')
  return project
}

function summarizeString(s: StoredString) {
  const restore = (text: string | undefined) =>
    text === undefined ? null : restorePlaceholders(text, s.placeholders)
  return {
    hashcode: s.hashcode,
    stringText: s.stringText,
    parsedStringText: s.parsedStringText,
    variant: s.variant,
    namespace: s.namespace,
    instruction: s.instruction,
    maxLength: s.maxLength,
    format: s.format,
    callbackUrl: s.callbackUrl,
    callbackMethod: s.callbackMethod,
    active: s.active,
    authorizedLocaleIds: s.authorizedLocaleIds,
    translations: Object.fromEntries(
      Object.entries(s.translations).map(([localeId, t]) => [
        localeId,
        {
          pending: restore(t.pending?.text),
          published: restore(t.published?.text),
          modifiedDate: isoDate(Math.max(t.pending?.modifiedDate ?? 0, t.published?.modifiedDate ?? 0)),
        },
      ]),
    ),
  }
}

/**
 * `/_emulator/`: the dashboard and the translators, outside the spec. No authentication, never
 * faulted, not counted in the request log.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/reset', async (request, reply) => {
    const body = bodyObject(request.body, true)
    let seed: ReturnType<typeof validateSeed> | undefined
    if (body.seed !== undefined) {
      try {
        seed = validateSeed(body.seed, '(request body)')
      } catch (error) {
        throw validationError('seed', (error as Error).message)
      }
    }
    ctx.reset(seed)
    return sendData(reply, null)
  })

  app.get('/_emulator/state', async (_request, reply) => {
    const projects = [...ctx.store.directory.projects.values()].map((p) => ({
      projectId: p.projectId,
      accountUid: p.accountUid,
      sourceLocaleId: p.sourceLocaleId,
      targetLocaleIds: p.targetLocaleIds,
      autoTranslate: ctx.autoTranslator.get(p.projectId),
      strings: ctx.store.strings.list(p.projectId).map(summarizeString),
    }))
    return sendData(reply, {
      now: isoDate(ctx.now()),
      projects,
      processCount: ctx.store.processes.size,
      pendingTimers: ctx.timers.size,
    })
  })

  /** A POST about one project that must exist; `answer` gets the JSON body and gives the data. */
  const projectPost = (
    path: string,
    body: 'optional' | 'required',
    answer: (projectId: string, body: Record<string, unknown>) => unknown,
  ): void => {
    app.post<{ Params: ProjectParams }>(path, async (request, reply) => {
      const { projectId } = request.params
      knownProject(ctx, projectId)
      return sendData(reply, await answer(projectId, bodyObject(request.body, body === 'optional')))
    })
  }

  projectPost('/_emulator/projects/:projectId/strings/authorize', 'optional', (projectId, body) => {
    const pairs = ctx.store.strings.authorize(
      projectId,
      optionalStringArray(body, 'hashcodes'),
      optionalStringArray(body, 'localeIds'),
    )
    return { authorizedCount: pairs.length, authorized: pairs }
  })

  projectPost('/_emulator/projects/:projectId/strings/unauthorize', 'optional', (projectId, body) => {
    const count = ctx.store.strings.unauthorize(
      projectId,
      optionalStringArray(body, 'hashcodes'),
      optionalStringArray(body, 'localeIds'),
    )
    return { unauthorizedCount: count }
  })

  projectPost('/_emulator/projects/:projectId/strings/deactivate', 'optional', (projectId, body) => {
    const count = ctx.store.strings.deactivate(projectId, optionalStringArray(body, 'hashcodes'))
    return { deactivatedCount: count }
  })

  projectPost('/_emulator/projects/:projectId/translations', 'required', async (projectId, body) => {
    const hashcode = requiredString(body, 'hashcode')
    const localeId = requiredString(body, 'localeId')
    if (typeof body.translation !== 'string') throw validationError('translation', 'is required (a string)')
    const published = optionalBoolean(body, 'published') ?? false
    const string = ctx.store.strings.get(projectId, hashcode)
    if (!string) throw validationError('hashcode', `unknown hashcode ${hashcode} in project ${projectId}`)
    let placeholders: PlaceholderParser
    try {
      placeholders = await ctx.placeholders.parser(string.placeholderSpec, [body.translation])
    } catch (error) {
      if (error instanceof PlaceholderSpecError) throw validationError('translation', error.message)
      throw error
    }
    const text = parseTranslation(string, body.translation, placeholders)
    const state = ctx.store.strings.setTranslation(projectId, hashcode, localeId, text, published, ctx.now())
    return {
      hashcode,
      localeId,
      pending: state.pending && restorePlaceholders(state.pending.text, string.placeholders),
      published: state.published && restorePlaceholders(state.published.text, string.placeholders),
    }
  })

  projectPost('/_emulator/projects/:projectId/auto-translate', 'required', (projectId, body) => {
    const settings = parseAutoTranslate(body)
    ctx.autoTranslator.set(projectId, settings)
    return settings
  })

  app.get('/_emulator/faults', async (_request, reply) => sendData(reply, ctx.faults.settings))

  app.post('/_emulator/faults', async (request, reply) => {
    ctx.faults.set(bodyObject(request.body, true))
    return sendData(reply, ctx.faults.settings)
  })

  app.get('/_emulator/requests', async (_request, reply) => sendData(reply, ctx.requestLog.summary()))

  app.delete('/_emulator/requests', async (_request, reply) => {
    ctx.requestLog.clear()
    return sendData(reply, ctx.requestLog.summary())
  })

  app.get('/_emulator/config', async (_request, reply) => sendData(reply, ctx.config))

  app.post('/_emulator/config', async (request, reply) => {
    ctx.config = mergeConfig(ctx.config, bodyObject(request.body, true))
    return sendData(reply, ctx.config)
  })

  app.post('/_emulator/clock', async (request, reply) => {
    const body = bodyObject(request.body)
    const advanceMs = optionalNumber(body, 'advanceMs', { min: 0, max: 10 * 31_536_000_000, integer: true })
    if (advanceMs === null) throw validationError('advanceMs', 'is required')
    ctx.clock.advance(advanceMs)
    const ran = ctx.timers.runDue()
    return sendData(reply, { now: isoDate(ctx.now()), offsetMs: ctx.clock.offsetMs, ran })
  })

  app.get('/_emulator/callbacks', async (_request, reply) => {
    return sendData(reply, { totalCount: ctx.callbacks.deliveries.length, items: ctx.callbacks.deliveries })
  })
}
