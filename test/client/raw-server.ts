import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Hit {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  at: number
}

export interface RawServer {
  url: string
  hits: Hit[]
  close(): Promise<void>
}

/**
 * A bare HTTP server on 127.0.0.1 for answers the emulator never gives (HTML error pages, truncated
 * bodies, Retry-After, hanging requests). It answers authentication with a token pair itself.
 */
export async function startRawServer(
  handle: (hit: Hit, res: ServerResponse, index: number) => void,
): Promise<RawServer> {
  const hits: Hit[] = []
  // Request lines of up to 16 KiB (a pull's hashcode lists) plus headers: above Node's 16 KiB default.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const hit: Hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      if (hit.url === '/auth-api/v2/authenticate' || hit.url === '/auth-api/v2/authenticate/refresh') {
        const n = hits.filter((h) => h.url.startsWith('/auth-api')).length
        hits.push(hit)
        return envelope(res, 200, {
          code: 'SUCCESS',
          data: {
            accessToken: `at-${n}`,
            refreshToken: `rt-${n}`,
            expiresIn: 480,
            refreshExpiresIn: 3660,
            tokenType: 'Bearer',
          },
        })
      }
      hits.push(hit)
      handle(hit, res, hits.filter((h) => !h.url.startsWith('/auth-api')).length - 1)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function envelope(
  res: ServerResponse,
  status: number,
  response: unknown,
  headers: Record<string, string> = {},
) {
  const body = JSON.stringify({ response })
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  })
  res.end(body)
}
