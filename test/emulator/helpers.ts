import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index'

export interface ApiResult {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: test assertions walk the JSON freely
  body: any
}

export interface CallOptions {
  body?: unknown
  token?: string
  headers?: Record<string, string>
}

export interface TestEmulator {
  readonly emulator: RunningEmulator
  readonly url: string
  call(method: string, path: string, options?: CallOptions): Promise<ApiResult>
  /** A fresh access token of the demo user. */
  login(): Promise<string>
  /** A spec call with the demo user's token (logged in once per test). */
  api(method: string, path: string, body?: unknown): Promise<ApiResult>
  control(method: string, path: string, body?: unknown): Promise<ApiResult>
  createStrings(strings: Record<string, unknown>[], extra?: Record<string, unknown>): Promise<string[]>
}

export const PROJECT = 'demo-project'
export const STRINGS = `/strings-api/v2/projects/${PROJECT}`

/**
 * One emulator per test file on a free port of 127.0.0.1, reset before each test. Everything goes
 * over real HTTP with fetch.
 */
export function useEmulator(options: EmulatorOptions = {}): TestEmulator {
  let emulator: RunningEmulator | undefined
  let token: string | undefined
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<ApiResult> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.body !== undefined) headers['content-type'] ??= 'application/json'
    if (options.token) headers.authorization = `Bearer ${options.token}`
    const response = await fetch(emulator!.url + path, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
  }
  const login = async (): Promise<string> => {
    const r = await call('POST', '/auth-api/v2/authenticate', {
      body: { userIdentifier: 'demo-user', userSecret: 'demo-secret' },
    })
    if (r.status !== 200) throw new Error(`login failed: ${JSON.stringify(r.body)}`)
    return r.body.response.data.accessToken
  }
  const api = async (method: string, path: string, body?: unknown): Promise<ApiResult> => {
    token ??= await login()
    return call(method, path, { body, token })
  }
  const harness: TestEmulator = {
    get emulator() {
      return emulator!
    },
    get url() {
      return emulator!.url
    },
    call,
    login,
    api,
    control: (method, path, body) => call(method, `/_emulator${path}`, { body }),
    async createStrings(strings, extra = {}) {
      const r = await api('POST', STRINGS, { strings, ...extra })
      if (r.status !== 200) throw new Error(`create strings failed: ${JSON.stringify(r.body)}`)
      return r.body.response.data.items.map((i: { hashcode: string }) => i.hashcode)
    },
  }
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options })
  })
  afterAll(async () => {
    await emulator?.close()
  })
  beforeEach(async () => {
    token = undefined
    const r = await call('POST', '/_emulator/reset')
    if (r.status !== 200) throw new Error(`reset failed: ${JSON.stringify(r.body)}`)
  })
  return harness
}

/** The error envelope's code, first key and field, for compact assertions. */
export function errorOf(r: ApiResult): { status: number; code: string; key?: string; field?: unknown } {
  const first = r.body?.response?.errors?.[0]
  return { status: r.status, code: r.body?.response?.code, key: first?.key, field: first?.details?.field }
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error('condition not met in time')
    await sleep(10)
  }
}
