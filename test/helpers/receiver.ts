import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  /** The path and query as sent. */
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  readonly base: string
  close(): Promise<void>
}

/**
 * A callback receiver on a free port of 127.0.0.1: each request, with its whole body, goes to
 * `onRequest`, and the answer has the status it returns (200 when it returns no number).
 */
export async function startReceiver(onRequest: (request: ReceivedRequest) => unknown): Promise<Receiver> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      const status = onRequest({ method: req.method!, url: req.url!, headers: req.headers, body })
      res.statusCode = typeof status === 'number' ? status : 200
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
