import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * Who may call the overlay's dev endpoints: the dev page itself. A request must come from this
 * server's own origin (the browser sets `Origin` on every POST, and a page cannot forge it) and carry
 * the token the overlay's module was served with. Another origin that read the module (vite answers
 * localhost origins' CORS requests) still fails on its `Origin`; a request from a tool without
 * `Origin` fails too.
 */

export const TOKEN_HEADER = 'x-tms-overlay-token'

/** Why a request is forbidden (403), or undefined when it may go on. */
export function forbiddenReason(req: IncomingMessage, token: string): string | undefined {
  if (req.method !== 'POST') return 'only POST requests are accepted'
  const host = req.headers.host
  const origin = req.headers.origin
  if (!host) return 'the request has no Host header'
  if (!origin) return 'the request has no Origin header: only the dev page may call these endpoints'
  let from: URL
  try {
    from = new URL(origin)
  } catch {
    return `the Origin ${JSON.stringify(origin)} is not a URL`
  }
  if (from.host !== host) return `the Origin ${origin} is not this dev server`
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin') return `the request is ${site}, not same-origin`
  const given = req.headers[TOKEN_HEADER]
  if (typeof given !== 'string' || !sameToken(given, token)) return 'the overlay token is missing or wrong'
  return undefined
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}
