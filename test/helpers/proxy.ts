import { Agent, createServer, type IncomingHttpHeaders, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A small HTTP proxy on 127.0.0.1 in front of the emulator: what stands between a build and the
 * service in real life (a corporate proxy, a front end). It can hold Node's header limit to a
 * proxy's usual 8 KiB, and it can garble every nth answer (the body cut in half, the status and the
 * headers kept), as a flaky middlebox or a truncated transfer does.
 */

export interface ProxyOptions {
  /** Node's limit on the request line's target plus the headers; past it the proxy answers 431. */
  maxHeaderSize?: number
  /** Garble answers number n, 2n, 3n, ... (counted over every answer the proxy forwards). */
  garbleEvery?: number
  /**
   * Answers a request itself with a 400 \`VALIDATION_ERROR\` envelope (which no client retries) when
   * this says so, without forwarding it: a service refusing one request of a run.
   */
  refuse?: (method: string, path: string) => boolean
  /** Every answer waits for this: a service slow to answer, for as long as a test says. */
  hold?: Promise<void>
}

export interface RunningProxy {
  url: string
  /** Answers forwarded, garbled ones included. */
  readonly answers: number
  /** `"<METHOD> <path without query>"` of each garbled answer, in order. */
  readonly garbled: string[]
  /** Request lines the proxy refused as too long (431 from Node's parser). */
  readonly refused: number
  close(): Promise<void>
}

export async function startProxy(target: string, options: ProxyOptions = {}): Promise<RunningProxy> {
  const upstream = new URL(target)
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  const garbled: string[] = []
  let answers = 0
  let refused = 0
  const server = createServer(
    options.maxHeaderSize ? { maxHeaderSize: options.maxHeaderSize } : {},
    (req, res) => {
      if (options.refuse?.(req.method ?? 'GET', req.url?.split('?')[0] ?? '')) {
        req.resume()
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            response: {
              code: 'VALIDATION_ERROR',
              errors: [{ key: 'refused_by_test', message: 'refused by the test proxy', details: {} }],
            },
          }),
        )
        return
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host }
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          const chunks: Buffer[] = []
          answer.on('data', (c: Buffer) => chunks.push(c))
          answer.on('end', () => {
            answers++
            let body = Buffer.concat(chunks)
            if (options.garbleEvery && answers % options.garbleEvery === 0) {
              garbled.push(`${req.method} ${req.url?.split('?')[0]}`)
              body = body.subarray(0, Math.floor(body.length / 2))
            }
            const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers
            const send = (): void => {
              res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': body.length })
              res.end(body)
            }
            if (options.hold) void options.hold.then(send)
            else send()
          })
        },
      )
      out.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`proxy: ${error.message}`)
      })
      req.pipe(out)
    },
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') refused++
    if (socket.writable)
      socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\r\n')
    else socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get answers() {
      return answers
    },
    garbled,
    get refused() {
      return refused
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}
