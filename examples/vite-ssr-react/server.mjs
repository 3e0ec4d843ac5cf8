// The example's own Node server: vite in middleware mode in development (`node server.mjs`), the built
// client and server bundles in production (`node server.mjs --production`, after `node build.mjs`).
// Every request renders in the locale of its path (`/fr-FR/cart`); `/` redirects to the locale the
// request asks for (the `lang` cookie, else Accept-Language: entry-server's requestLocale).
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('.', import.meta.url))

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

/** The page's HTML: the rendered app inside the template, `<html lang dir>` telling the client its locale. */
export function pageHtml(template, rendered) {
  return template
    .replace(/<html[^>]*>/, `<html lang="${rendered.lang}" dir="${rendered.dir}">`)
    .replace('<!--app-title-->', escapeHtml(rendered.title))
    .replace('<!--app-html-->', () => rendered.html)
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Starts the server on 127.0.0.1; `port` 0 takes a free one. */
export async function startServer({ production = false, port = 5174, outDir = join(root, 'dist') } = {}) {
  let vite
  let app
  if (!production) {
    const { createServer: createViteServer } = await import('vite')
    vite = await createViteServer({
      root,
      configFile: join(root, 'vite.config.ts'),
      server: { middlewareMode: true },
      appType: 'custom',
      logLevel: 'warn',
    })
  } else {
    app = {
      template: await readFile(join(outDir, 'client/index.html'), 'utf8'),
      entry: await import(join(outDir, 'server/entry-server.js')),
    }
  }

  const respond = async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    // A malformed escape (`/%`, `/%E0%A4%A`) is the client's mistake, not the server's: 400, not 500.
    const decoded = decodePath(path)
    if (decoded === undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: malformed % escape in the path')
      return
    }
    const entry = vite ? await vite.ssrLoadModule('/src/entry-server.tsx') : app.entry
    if (path === '/') {
      const locale = entry.requestLocale(req.headers)
      // The answer depends on these headers: a cache must not hand one reader's redirect to another.
      res.writeHead(302, { location: `/${locale}/`, vary: 'accept-language, cookie' }).end()
      return
    }
    const found = entry.route(path)
    if (!found) {
      if (!vite && (await sendStatic(join(outDir, 'client'), decoded, res))) return
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    const template = vite
      ? await vite.transformIndexHtml(path, await readFile(join(root, 'index.html'), 'utf8'))
      : app.template
    const rendered = await entry.render(found.page, found.locale)
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-language': rendered.lang })
      .end(pageHtml(template, rendered))
  }

  const server = createServer((req, res) => {
    const handle = () =>
      respond(req, res).catch((error) => {
        vite?.ssrFixStacktrace(error)
        console.error(error)
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end('server error')
      })
    if (vite) vite.middlewares(req, res, handle)
    else handle()
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}`
  return {
    url,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      await vite?.close()
    },
  }
}

function decodePath(path) {
  try {
    return decodeURIComponent(path)
  } catch {
    return undefined
  }
}

/** Sends the built file at `path` (decoded) under `dir`, if there is one. */
async function sendStatic(dir, path, res) {
  const file = normalize(join(dir, path))
  if (!file.startsWith(dir)) return false
  try {
    const body = await readFile(file)
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    return true
  } catch {
    return false
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startServer({ production: process.argv.includes('--production') })
  console.log(`vite-ssr-react example on ${url}`)
}
