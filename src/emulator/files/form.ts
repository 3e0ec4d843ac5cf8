import type { FastifyRequest } from 'fastify'
import { validationError } from '../http/envelope'

export interface UploadedFile {
  bytes: Buffer
  fileName: string
  /** The part's own Content-Type, which may carry a charset. */
  contentType: string | null
}

/** A multipart or url-encoded form: values per field name (`name[]` read as `name`) and the file part. */
export class Form {
  readonly #fields = new Map<string, string[]>()
  file: UploadedFile | null = null

  add(name: string, value: string): void {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name
    const list = this.#fields.get(key) ?? []
    list.push(value)
    this.#fields.set(key, list)
  }

  get names(): string[] {
    return [...this.#fields.keys()]
  }

  string(name: string): string | null {
    return this.#fields.get(name)?.[0] ?? null
  }

  required(name: string): string {
    const value = this.string(name)
    if (value === null || value === '') throw validationError(name, 'is required')
    return value
  }

  list(name: string): string[] {
    return this.#fields.get(name) ?? []
  }

  boolean(name: string): boolean | null {
    const value = this.string(name)
    if (value === null || value === '') return null
    const lower = value.toLowerCase()
    if (lower === 'true') return true
    if (lower === 'false') return false
    throw validationError(name, `must be true or false; got ${JSON.stringify(value)}`)
  }

  requireFile(): UploadedFile {
    if (!this.file) throw validationError('file', 'is required (a multipart file part named file)')
    return this.file
  }

  /** Rejects fields the endpoint does not know, as the service does. */
  allowOnly(known: readonly string[], allowDirectives = false): void {
    for (const name of this.names) {
      if (known.includes(name)) continue
      if (allowDirectives && name.startsWith('svc.') && name.length > 4) continue
      throw validationError(
        name,
        `is not a field of this request; known: ${known.join(', ')}`,
        'unknown_field',
      )
    }
  }
}

/** Reads the request's form: multipart (with at most one file, named `file`) or url-encoded. */
export async function readForm(request: FastifyRequest): Promise<Form> {
  const form = new Form()
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer()
          throw validationError(part.fieldname, 'is not a file field; the file goes in the part named file')
        }
        if (form.file) throw validationError('file', 'was sent twice; send one file per request')
        form.file = {
          bytes: await part.toBuffer(),
          fileName: part.filename,
          contentType: part.mimetype ?? null,
        }
      } else {
        form.add(part.fieldname, String(part.value))
      }
    }
    return form
  }
  const body = request.body
  if (typeof body === 'string') {
    for (const [name, value] of new URLSearchParams(body)) form.add(name, value)
  } else if (body !== undefined && body !== null) {
    throw validationError('body', 'must be multipart/form-data or application/x-www-form-urlencoded')
  }
  return form
}
