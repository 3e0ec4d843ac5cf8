import type { FastifyReply } from 'fastify'
import type { StoreError, StoreErrorKind } from '../store/errors'

export type ResponseCode =
  | 'SUCCESS'
  | 'ACCEPTED'
  | 'VALIDATION_ERROR'
  | 'AUTHENTICATION_ERROR'
  | 'AUTHORIZATION_ERROR'
  | 'NOT_FOUND_ERROR'
  | 'RESOURCE_LOCKED'
  | 'MAX_OPERATIONS_LIMIT_EXCEEDED'
  | 'GENERAL_ERROR'
  | 'MAINTENANCE_MODE_ERROR'

/** The codes of the spec's error table, with the HTTP status each one travels with. */
export const RESPONSE_STATUS: Readonly<Record<ResponseCode, number>> = {
  SUCCESS: 200,
  ACCEPTED: 202,
  VALIDATION_ERROR: 400,
  AUTHENTICATION_ERROR: 401,
  AUTHORIZATION_ERROR: 401,
  NOT_FOUND_ERROR: 404,
  RESOURCE_LOCKED: 423,
  MAX_OPERATIONS_LIMIT_EXCEEDED: 429,
  GENERAL_ERROR: 500,
  MAINTENANCE_MODE_ERROR: 503,
}

export interface ErrorItem {
  key: string
  message: string
  details?: Record<string, unknown>
}

/**
 * An error answered as the spec's envelope. Thrown anywhere below a route (validation, store,
 * auth); the server's error handler turns it into `{ response: { code, errors, requestId } }`.
 */
export class ApiError extends Error {
  readonly code: ResponseCode
  readonly status: number
  readonly errors: ErrorItem[]
  constructor(code: ResponseCode, errors: ErrorItem[], status: number = RESPONSE_STATUS[code]) {
    super(errors.map((e) => e.message).join('; '))
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.errors = errors
  }
}

/** VALIDATION_ERROR naming the offending parameter in `details.field` (and in the message). */
export function validationError(field: string, message: string, key = 'invalid_parameter'): ApiError {
  return new ApiError('VALIDATION_ERROR', [{ key, message: `${field}: ${message}`, details: { field } }])
}

export function notFoundError(message: string, key = 'not_found'): ApiError {
  return new ApiError('NOT_FOUND_ERROR', [{ key, message }])
}

export function authenticationError(message: string, key = 'invalid_token'): ApiError {
  return new ApiError('AUTHENTICATION_ERROR', [{ key, message }])
}

const STORE_ERROR_CODES: Readonly<Record<StoreErrorKind, ResponseCode>> = {
  invalid: 'VALIDATION_ERROR',
  locked: 'RESOURCE_LOCKED',
  busy: 'MAX_OPERATIONS_LIMIT_EXCEEDED',
}

/** The envelope's error for a refusal of the store. */
export function storeErrorToApi(error: StoreError): ApiError {
  const item: ErrorItem = { key: error.key, message: error.message }
  if (error.details) item.details = error.details
  return new ApiError(STORE_ERROR_CODES[error.kind], [item])
}

export interface Envelope {
  response: { code: ResponseCode; data?: unknown; errors?: ErrorItem[]; requestId: string }
}

export function dataEnvelope(requestId: string, data: unknown, code: ResponseCode = 'SUCCESS'): Envelope {
  return { response: { code, data, requestId } }
}

export function errorEnvelope(requestId: string, code: ResponseCode, errors: ErrorItem[]): Envelope {
  return { response: { code, errors, requestId } }
}

/** Sends `data` in the envelope; the status follows the code (`ACCEPTED` is 202). */
export function sendData(reply: FastifyReply, data: unknown, code: ResponseCode = 'SUCCESS'): FastifyReply {
  return reply.code(RESPONSE_STATUS[code]).send(dataEnvelope(String(reply.request.id), data, code))
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).send(errorEnvelope(String(reply.request.id), error.code, error.errors))
}
