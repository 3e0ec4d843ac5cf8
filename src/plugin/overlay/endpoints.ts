import type { IncomingMessage, ServerResponse } from 'node:http'
import { ISSUE_SUBTYPES, type IssueTypeCode } from '../../core/review/issue-types'
import { type IssueWithComments, ReviewService, ReviewUnavailableError } from '../../core/review/service'
import { connectReview } from '../../service'
import type { TmsSession } from '../session'
import { forbiddenReason } from './guard'
import { keyOf, type MessageInfo, messageOf, pseudoStates, translatedIds } from './message-info'

/**
 * The overlay's dev endpoints, `POST <ENDPOINT>/<action>` with a JSON body: this process makes the
 * service calls with the developer's credentials through the client; the page gets only what the
 * panel shows, never a credential or a token of the service.
 */

export const ENDPOINT = '/__tms/overlay'
const MAX_BODY = 64 * 1024

type Body = Record<string, unknown>
type Answer = { status: number; body: unknown }

/** A request the page got wrong: answered 400 with the message. */
class BadRequest extends Error {}

export interface OverlayEndpoints {
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void
  close(): Promise<void>
}

export function overlayEndpoints(session: TmsSession, token: string): OverlayEndpoints {
  let service: ReviewService | undefined
  const review = (): ReviewService => {
    if (service?.options !== session.options) {
      void service?.close()
      service = new ReviewService(session.options, connectReview())
    }
    return service
  }

  const issuesAnswer = async (
    hashcode: string | null,
  ): Promise<{ issues: IssueWithComments[] | null; issuesError?: string }> => {
    if (!hashcode)
      return { issues: null, issuesError: 'the string is not on the service yet: push it first (tms push)' }
    const s = review()
    if (s.unavailable) return { issues: null, issuesError: s.unavailable }
    try {
      return { issues: await s.issuesOf([hashcode]) }
    } catch (error) {
      return { issues: null, issuesError: (error as Error).message }
    }
  }

  const hashcodeOf = (body: Body): string => {
    const found = messageOf(session, text(body, 'id'))?.hashcode
    if (!found) throw new BadRequest('the string is not on the service yet: push it first (tms push)')
    return found
  }

  const actions: Record<string, (body: Body) => Promise<unknown>> = {
    async message(body) {
      const id = text(body, 'id')
      const message = messageOf(session, id)
      if (!message) throw new BadRequest(`no message has the catalog id ${JSON.stringify(id)} in this build`)
      let locales: MessageInfo['locales'] = []
      let statesError: string | undefined
      if (message.hashcode) {
        try {
          locales = await review().localeStates(
            message.hashcode,
            session.build.messages.get(keyOf(session, id)!)!,
          )
        } catch (error) {
          statesError = (error as Error).message
        }
      } else {
        locales = session.options.locales.map((locale) => ({ locale, state: 'missing' as const }))
      }
      const info: MessageInfo = { ...message, locales: [...locales, ...pseudoStates(session, id)] }
      return { ...info, ...(statesError ? { statesError } : {}), ...(await issuesAnswer(message.hashcode)) }
    },
    async translated(body) {
      return { ids: translatedIds(session, text(body, 'locale')) }
    },
    async issue(body) {
      const hashcode = hashcodeOf(body)
      const type = text(body, 'issueTypeCode') as IssueTypeCode
      const subtypes = Object.hasOwn(ISSUE_SUBTYPES, type) ? ISSUE_SUBTYPES[type] : undefined
      if (!subtypes)
        throw new BadRequest(`issueTypeCode must be SOURCE or TRANSLATION, not ${JSON.stringify(type)}`)
      const subtype = text(body, 'issueSubTypeCode')
      if (!subtypes.includes(subtype)) {
        throw new BadRequest(
          `issueSubTypeCode ${JSON.stringify(subtype)} is not one of ${type}: ${subtypes.join(', ')}`,
        )
      }
      const { sourceLocale, locales } = session.options
      const locale = type === 'SOURCE' ? sourceLocale : text(body, 'locale')
      if (type === 'TRANSLATION' && !locales.includes(locale)) {
        throw new BadRequest(
          `a TRANSLATION issue is about a target locale (${locales.join(', ')}), not ${locale}: switch the page to one`,
        )
      }
      const issue = await review().createIssue({
        hashcode,
        locale,
        issueTypeCode: type,
        issueSubTypeCode: subtype,
        issueText: text(body, 'issueText'),
      })
      return { issueUid: issue.issueUid, ...(await issuesAnswer(hashcode)) }
    },
    async comment(body) {
      const hashcode = hashcodeOf(body)
      await review().comment(text(body, 'issueUid'), text(body, 'commentText'))
      return issuesAnswer(hashcode)
    },
    async state(body) {
      const hashcode = hashcodeOf(body)
      const state = text(body, 'issueStateCode')
      if (state !== 'OPENED' && state !== 'RESOLVED')
        throw new BadRequest('issueStateCode must be OPENED or RESOLVED')
      await review().setState(text(body, 'issueUid'), state)
      return issuesAnswer(hashcode)
    },
  }

  const answer = async (req: IncomingMessage, action: string): Promise<Answer> => {
    const why = forbiddenReason(req, token)
    if (why) return { status: 403, body: { error: why } }
    const run = actions[action]
    if (!run || !Object.hasOwn(actions, action))
      return { status: 404, body: { error: `no overlay action ${action}` } }
    try {
      // Hashcodes and catalogs come with the sync; one that failed has warned already, and the
      // panel then says what is missing.
      await session.syncedLatest().catch(() => undefined)
      if (!session.openBuild?.sync)
        throw new ReviewUnavailableError('the dev server has no catalogs yet: see its warnings')
      return { status: 200, body: await run(await readJson(req)) }
    } catch (error) {
      const status = error instanceof BadRequest ? 400 : error instanceof ReviewUnavailableError ? 503 : 502
      return { status, body: { error: (error as Error).message } }
    }
  }

  return {
    handle(req, res, next) {
      const url = req.url ?? ''
      if (!url.startsWith(`${ENDPOINT}/`)) return next()
      const action = url.slice(ENDPOINT.length + 1).split('?')[0]!
      answer(req, action).then(
        ({ status, body }) => send(res, status, body),
        (error: Error) => send(res, 500, { error: error.message }),
      )
    },
    close: async () => {
      await service?.close()
    },
  }
}

function text(body: Body, field: string): string {
  const value = body[field]
  if (typeof value !== 'string' || value.trim() === '')
    throw new BadRequest(`${field} must be a non-empty string`)
  return value
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status
  res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('cache-control', 'no-store')
  res.end(JSON.stringify(body))
}

async function readJson(req: IncomingMessage): Promise<Body> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY) throw new BadRequest(`the body is over ${MAX_BODY} bytes`)
    chunks.push(chunk)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
  } catch {
    throw new BadRequest('the body is not JSON')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new BadRequest('the body must be a JSON object')
  return parsed as Body
}
