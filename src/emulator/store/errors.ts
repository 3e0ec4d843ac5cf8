/**
 * What the store refuses, in its own words: the store knows no HTTP. The server's error handler
 * (`storeErrorToApi` in `src/emulator/http/envelope.ts`) answers each kind with the spec's envelope:
 * `invalid` is VALIDATION_ERROR, `locked` RESOURCE_LOCKED, `busy` MAX_OPERATIONS_LIMIT_EXCEEDED.
 */
export type StoreErrorKind = 'invalid' | 'locked' | 'busy'

export class StoreError extends Error {
  readonly kind: StoreErrorKind
  /** The spec's error key, such as `invalid_parameter`. */
  readonly key: string
  readonly details: Record<string, unknown> | undefined
  constructor(kind: StoreErrorKind, key: string, message: string, details?: Record<string, unknown>) {
    super(message)
    this.name = 'StoreError'
    this.kind = kind
    this.key = key
    this.details = details
  }
}

/** A request the store cannot apply, naming the offending parameter (`details.field` and the message). */
export function invalidInput(field: string, message: string, key = 'invalid_parameter'): StoreError {
  return new StoreError('invalid', key, `${field}: ${message}`, { field })
}
