import { validationError } from './envelope'

/** The path parameters of every route under `/projects/:projectId`. */
export interface ProjectParams {
  projectId: string
}

/** What fastify hands over as `request.query`: every value a string or a list of strings. */
export type Query = Record<string, string | string[] | undefined>

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

/**
 * An array parameter of a query string. Clients send it as repeated `name=` or as repeated
 * `name[]=` (the spec's form); both are read, in order, and may even be mixed. `commaSeparated`
 * also splits `a,b` (glossaryUids).
 */
export function queryArray(query: Query, name: string, commaSeparated = false): string[] {
  const values = [...asList(query[name]), ...asList(query[`${name}[]`])]
  if (!commaSeparated) return values
  return values.flatMap((v) => v.split(',')).filter((v) => v !== '')
}

/** A single-valued query parameter; given twice, the first value counts. */
export function queryString(query: Query, name: string): string | undefined {
  return asList(query[name])[0]
}

export interface IntRange {
  min: number
  max: number
  fallback: number
}

export function queryInt(query: Query, name: string, range: IntRange): number {
  const raw = queryString(query, name)
  if (raw === undefined || raw === '') return range.fallback
  if (!/^-?\d+$/.test(raw)) throw validationError(name, `must be an integer; got ${JSON.stringify(raw)}`)
  const value = Number(raw)
  if (value < range.min || value > range.max) {
    throw validationError(name, `must be between ${range.min} and ${range.max}; got ${value}`)
  }
  return value
}

export function queryBoolean(query: Query, name: string, fallback: boolean): boolean {
  const raw = queryString(query, name)
  if (raw === undefined || raw === '') return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw validationError(name, `must be true or false; got ${JSON.stringify(raw)}`)
}

/** The JSON body as an object, or a VALIDATION_ERROR naming the body. */
export function bodyObject(body: unknown, allowMissing = false): Record<string, unknown> {
  if ((body === undefined || body === null) && allowMissing) return {}
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object')
  }
  return body as Record<string, unknown>
}

export function requiredString(obj: Record<string, unknown>, key: string, field: string = key): string {
  const value = obj[key]
  if (value === undefined || value === null || value === '') throw validationError(field, 'is required')
  if (typeof value !== 'string') throw validationError(field, 'must be a string')
  return value
}

export function optionalString(
  obj: Record<string, unknown>,
  key: string,
  field: string = key,
): string | null {
  const value = obj[key]
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') throw validationError(field, 'must be a string')
  return value
}

export function optionalStringArray(
  obj: Record<string, unknown>,
  key: string,
  field: string = key,
): string[] | null {
  const value = obj[key]
  if (value === undefined || value === null) return null
  if (!Array.isArray(value)) throw validationError(field, 'must be an array of strings')
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw validationError(`${field}[${i}]`, 'must be a string')
  })
  return value as string[]
}

export function optionalNumber(
  obj: Record<string, unknown>,
  key: string,
  range: { min: number; max: number; integer?: boolean },
  field: string = key,
): number | null {
  const value = obj[key]
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isFinite(value)) throw validationError(field, 'must be a number')
  if (range.integer && !Number.isInteger(value)) throw validationError(field, 'must be an integer')
  if (value < range.min || value > range.max) {
    throw validationError(field, `must be between ${range.min} and ${range.max}; got ${value}`)
  }
  return value
}

export function optionalBoolean(
  obj: Record<string, unknown>,
  key: string,
  field: string = key,
): boolean | null {
  const value = obj[key]
  if (value === undefined || value === null) return null
  if (typeof value !== 'boolean') throw validationError(field, 'must be true or false')
  return value
}
