import type { Settings } from './types'

/** A call of the dev server's overlay endpoints: same origin, with the token this page was served. */
export type Api = <T>(action: string, body: Record<string, unknown>) => Promise<T>

export function createApi(settings: Settings): Api {
  return async <T>(action: string, body: Record<string, unknown>): Promise<T> => {
    const res = await fetch(`${settings.endpoint}/${action}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-tms-overlay-token': settings.token },
      body: JSON.stringify(body),
    })
    const data = (await res.json().catch(() => ({}))) as T & { error?: string }
    if (!res.ok) throw new Error(data.error ?? `the dev server answered ${res.status}`)
    return data
  }
}
