import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ApiResult, PROJECT, type TestEmulator } from './helpers'

export const FILES = `/files-api/v2/projects/${PROJECT}`
export const FIXTURES: string = join(import.meta.dirname, '../fixtures/emulator/files')

export function fixture(path: string): Buffer {
  return readFileSync(join(FIXTURES, path))
}

export interface FilePart {
  content: string | Uint8Array
  name?: string
  type?: string
}

export interface Download {
  status: number
  headers: Headers
  bytes: Buffer
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: error answers are JSON envelopes read freely
  json: any
}

/** A multipart form as a real client builds it (fetch's FormData), `[]` fields repeated per value. */
export function formOf(fields: Record<string, string | string[] | undefined>, file?: FilePart): FormData {
  const form = new FormData()
  if (file) {
    // A copy on a plain ArrayBuffer, which is what Blob's types accept.
    const bytes = new Uint8Array(
      typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content,
    )
    form.append(
      'file',
      new Blob([bytes], { type: file.type ?? 'application/octet-stream' }),
      file.name ?? 'upload',
    )
  }
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v)
  }
  return form
}

/** Test helpers over the files interface, with the demo user's token. */
export function filesApi(t: TestEmulator) {
  let token: string | undefined
  const auth = async () => {
    token ??= await t.login()
    return { authorization: `Bearer ${token}` }
  }
  const send = async (
    method: string,
    path: string,
    body?: FormData | string,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(t.url + path, { method, headers: { ...(await auth()), ...headers }, body })
    const bytes = Buffer.from(await response.arrayBuffer())
    const text = bytes.toString('utf8')
    let json: unknown = null
    const isEnvelope =
      !response.headers.get('content-disposition') &&
      (response.headers.get('content-type') ?? '').startsWith('application/json')
    if (isEnvelope) json = JSON.parse(text)
    return { status: response.status, headers: response.headers, bytes, text, json } satisfies Download
  }
  const asResult = (d: Download): ApiResult => ({ status: d.status, headers: d.headers, body: d.json })
  return {
    /** Forget the token (the emulator's reset keeps sessions, but each test logs in afresh). */
    forget(): void {
      token = undefined
    },
    async upload(fields: Record<string, string | string[] | undefined>, file?: FilePart): Promise<ApiResult> {
      return asResult(await send('POST', `${FILES}/file`, formOf(fields, file)))
    },
    /** Uploads and fails the test on anything but 200. */
    async put(
      fileUri: string,
      fileType: string,
      content: string | Uint8Array,
      extra: Record<string, string | string[]> = {},
    ) {
      const r = await this.upload(
        { fileUri, fileType, ...extra },
        { content, name: fileUri.split('/').pop() },
      )
      if (r.status !== 200) throw new Error(`upload of ${fileUri} failed: ${JSON.stringify(r.body)}`)
      return r.body.response.data as { overWritten: boolean; stringCount: number; wordCount: number }
    },
    async form(
      path: string,
      fields: Record<string, string | string[] | undefined>,
      file?: FilePart,
    ): Promise<ApiResult> {
      return asResult(await send('POST', `${FILES}${path}`, formOf(fields, file)))
    },
    async formRaw(
      path: string,
      fields: Record<string, string | string[] | undefined>,
      file?: FilePart,
    ): Promise<Download> {
      return send('POST', `${FILES}${path}`, formOf(fields, file))
    },
    async get(path: string): Promise<ApiResult> {
      return asResult(await send('GET', `${FILES}${path}`))
    },
    async download(path: string): Promise<Download> {
      return send('GET', `${FILES}${path}`)
    },
    send,
    /** The file's strings as the strings API lists them (source-strings by fileUri). */
    async sourceStrings(fileUri: string) {
      const r = await t.api(
        'GET',
        `/strings-api/v2/projects/${PROJECT}/source-strings?fileUri=${encodeURIComponent(fileUri)}`,
      )
      if (r.status !== 200) throw new Error(JSON.stringify(r.body))
      return r.body.response.data.items as {
        hashcode: string
        stringText: string | null
        parsedStringText: string
        stringVariant: string | null
        keys: string[]
      }[]
    },
    /** Saves translations in `{0}` form through the control API, keyed by the string's first key. */
    async translate(fileUri: string, localeId: string, byKey: Record<string, string>, published = true) {
      const all = await this.sourceStrings(fileUri)
      for (const [key, translation] of Object.entries(byKey)) {
        const s = all.find((x) => x.keys.includes(key))
        if (!s) throw new Error(`no string with key ${key} in ${fileUri}`)
        const r = await t.control('POST', `/projects/${PROJECT}/translations`, {
          hashcode: s.hashcode,
          localeId,
          translation,
          published,
        })
        if (r.status !== 200) throw new Error(JSON.stringify(r.body))
      }
    },
  }
}

export const q = encodeURIComponent
