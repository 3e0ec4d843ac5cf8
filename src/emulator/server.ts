import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import type { EmulatorContext } from './context'
import { ApiError, notFoundError, sendError, storeErrorToApi, validationError } from './http/envelope'
import { registerAuthRoutes } from './routes/auth'
import { registerControlRoutes } from './routes/control'
import { registerFilesRoutes } from './routes/files'
import { registerGlossaryRoutes } from './routes/glossaries'
import { registerIssueRoutes } from './routes/issues'
import { registerJobRoutes } from './routes/jobs'
import { registerStringsRoutes } from './routes/strings'
import { StoreError } from './store/errors'
import { sleep } from './timers'

/** Request lines longer than this get 414, as the service's front ends do. */
export const MAX_REQUEST_LINE_BYTES: number = 16 * 1024

/**
 * One function per API area (routes/<area>.ts). A new area (jobs, issues, files, glossaries) adds
 * its function here; in it, it registers its routes, its store part (`ctx.store.register(part)`,
 * persisted and reset with the rest) and its event listeners (`ctx.store.events.on(...)`), and
 * checks auth with `requireProject`/`requireAccount` from http/auth.ts. Errors are thrown as
 * `ApiError` (http/envelope.ts); answers go out through `sendData`.
 */
const ROUTE_AREAS: ((app: FastifyInstance, ctx: EmulatorContext) => void)[] = [
  registerAuthRoutes,
  registerStringsRoutes,
  registerControlRoutes,
  registerJobRoutes,
  registerIssueRoutes,
  registerGlossaryRoutes,
  registerFilesRoutes,
]

const CONTROL_PREFIX = '/_emulator/'

function requestLineBytes(raw: IncomingMessage): number {
  return Buffer.byteLength(`${raw.method} ${raw.url} HTTP/${raw.httpVersion}`)
}

/** A caller's own `X-SL-RequestId` is echoed when it is a sane token; otherwise a new uuid. */
function requestId(raw: IncomingMessage): string {
  const given = raw.headers['x-sl-requestid']
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID()
}

/** The fastify app of the emulator: envelope, 414, request log and faults around every route area. */
export function buildServer(ctx: EmulatorContext): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Node answers 431 by itself past its 16 KiB header limit; raise it so the 414 below is ours.
    http: { maxHeaderSize: 1024 * 1024 },
    bodyLimit: 32 * 1024 * 1024,
    forceCloseConnections: true,
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
  })

  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    // A POST with a JSON content type and no body (authorize, reset) is an empty object, not an error.
    if (body === '') return done(null, undefined)
    try {
      done(null, JSON.parse(body as string))
    } catch (error) {
      done(validationError('body', `is not valid JSON: ${(error as Error).message}`), undefined)
    }
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-SL-RequestId', request.id)
    const route = request.routeOptions.url
    const isSpecRoute = route !== undefined && !route.startsWith(CONTROL_PREFIX)
    if (isSpecRoute) ctx.requestLog.record(request.method, route)
    if (requestLineBytes(request.raw) > MAX_REQUEST_LINE_BYTES) {
      throw new ApiError(
        'VALIDATION_ERROR',
        [
          {
            key: 'uri_too_long',
            message: `The request line is over ${MAX_REQUEST_LINE_BYTES} bytes; split long parameter lists`,
          },
        ],
        414,
      )
    }
    if (!isSpecRoute) return
    // Faults strike before the handler runs, so a faulted request never changes state.
    if (ctx.faults.latencyMs > 0) {
      await sleep(ctx.faults.latencyMs)
      if (request.raw.socket?.destroyed) {
        reply.hijack()
        return
      }
    }
    const fault = ctx.faults.decide()
    if (fault?.kind === 'drop') {
      reply.hijack()
      request.raw.socket?.destroy()
      return
    }
    if (fault?.kind === 'error') throw fault.error
  })

  app.addHook('onResponse', async (request, reply) => {
    const url = request.url.length > 300 ? `${request.url.slice(0, 300)}...` : request.url
    ctx.log(`${request.method} ${url} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`)
  })

  app.setErrorHandler((thrown: FastifyError | ApiError | StoreError, request, reply) => {
    const error = thrown instanceof StoreError ? storeErrorToApi(thrown) : thrown
    if (error instanceof ApiError) {
      // The spec asks callers to wait and retry after these two: the header says how long.
      if (error.status === 429 || error.status === 503)
        reply.header('Retry-After', String(ctx.config.retryAfterSeconds))
      return sendError(reply, error)
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500)
      return sendError(reply, clientError(error, request.headers['content-type']))
    ctx.log(`error in ${request.method} ${request.routeOptions.url}: ${error.stack ?? error.message}`)
    return sendError(
      reply,
      new ApiError('GENERAL_ERROR', [{ key: 'general_error', message: 'Unexpected error' }]),
    )
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]
    return sendError(reply, notFoundError(`No endpoint ${request.method} ${path}`, 'endpoint_not_found'))
  })

  for (const register of ROUTE_AREAS) register(app, ctx)
  return app
}

/**
 * Fastify's own client errors (an unsupported Content-Type, a body too large or not JSON) in the
 * spec's terms: `VALIDATION_ERROR` (400) naming the field, never a fastify-internal code as the key.
 * The status stays what fastify chose only where HTTP gives it a meaning a client acts on (413).
 */
function clientError(error: FastifyError, contentType: string | undefined): ApiError {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return validationError(
      'body',
      `Content-Type ${JSON.stringify(contentType ?? '')} is not accepted: send application/json (multipart/form-data for file uploads and imports)`,
    )
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ApiError(
      'VALIDATION_ERROR',
      [{ key: 'invalid_parameter', message: `body: ${error.message}`, details: { field: 'body' } }],
      413,
    )
  }
  return validationError('body', error.message)
}
