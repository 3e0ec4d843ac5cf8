import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { runPipeline } from '../../src/core/pipeline'
import { connectService } from '../../src/service'
import { envelope, type Hit, type RawServer, startRawServer } from '../client/raw-server'
import { frenchBuildOptions, makeApp, PROJECT, SECRET } from './helpers'

/**
 * Answers the emulator never gives, from a bare HTTP server on 127.0.0.1: HTML error pages, JSON cut
 * short, fields of the wrong type, a 50 MB body, a totalCount that never ends. The build (here the
 * pipeline the plugin and the CLI share) must finish with one clear warning and a usable cache: never
 * a crash, a hang, or a cache that later builds throw away.
 */

const TEXTS = ['Save', 'Cancel', 'Hello {name}!']
let server: RawServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const hash = (text: string) => createHash('md5').update(text).digest('hex')

/** A create-strings answer as the service gives it: one item per string sent. */
function created(
  hit: Hit,
  res: ServerResponse,
  patch: (item: Record<string, unknown>, i: number) => unknown,
) {
  const body = JSON.parse(hit.body) as { strings: { stringText: string }[] }
  const items = body.strings.map((s, i) =>
    patch(
      {
        hashcode: hash(s.stringText),
        stringText: s.stringText,
        parsedStringText: s.stringText.replace('{name}', '{0}'),
        variant: null,
        overWritten: false,
      },
      i,
    ),
  )
  envelope(res, 200, { code: 'SUCCESS', data: { wordCount: 4, stringCount: items.length, items } })
}

const isCreate = (hit: Hit) => hit.method === 'POST' && hit.url === `/strings-api/v2/projects/${PROJECT}`
const isTranslations = (hit: Hit) => hit.url.startsWith(`/strings-api/v2/projects/${PROJECT}/translations`)

async function build(handle: (hit: Hit, res: ServerResponse) => void, extra: { timeoutMs?: number } = {}) {
  server = await startRawServer((hit, res) => handle(hit, res))
  const root = makeApp(
    { 'src/App.js': TEXTS.map((t) => `t(${JSON.stringify(t)}, { name })`).join('\n') },
    { locales: ['fr-FR'] },
  )
  const options = frenchBuildOptions(root, server.url)
  const warnings: string[] = []
  const started = Date.now()
  const result = await runPipeline({
    options,
    logger: { info() {}, warn: (m) => warnings.push(m) },
    connect: connectService({
      retry: { retries: 2, minDelayMs: 5, maxDelayMs: 10 },
      timeoutMs: extra.timeoutMs ?? 10_000,
    }),
  })
  const cache = new DiskCache(join(root, '.tms-cache'), PROJECT)
  return { result, warnings, root, cache, ms: Date.now() - started, hits: server.hits }
}

function expectOneWarning(warnings: string[], ...parts: string[]): void {
  expect(warnings).toHaveLength(1)
  for (const part of parts) expect(warnings[0]).toContain(part)
  expect(warnings[0]).not.toContain(SECRET)
}

describe('malformed answers end in one warning and the source text', () => {
  it('an HTML error page', async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(50)}</body></html>`
    const { result, warnings, cache } = await build((_hit, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end(page)
    })
    expectOneWarning(
      warnings,
      `POST /strings-api/v2/projects/${PROJECT} failed: HTTP 502 answer is not a JSON envelope (text/html, ${page.length} bytes): "<!DOCTYPE html><html><head><title>502 Bad Gateway`,
      '3 new strings not created (they keep their source text)',
    )
    expect(result.sync.pushed).toBe(0)
    expect((await cache.readManifest()).hit).toBe(false)
  })

  it('JSON cut short, as a proxy that lost the connection sends it', async () => {
    const { warnings, result } = await build((hit, res) => {
      const full = JSON.stringify({ response: { code: 'SUCCESS', data: { items: [] } } })
      const cut = full.slice(0, 30)
      if (isCreate(hit)) res.writeHead(200, { 'content-type': 'application/json' }).end(cut)
      else res.writeHead(200, { 'content-type': 'application/json', 'content-length': full.length }).end(cut)
    })
    expectOneWarning(
      warnings,
      'is not a JSON envelope (application/json, 30 bytes): "{\\"response\\":{\\"code\\":\\"SUCCESS',
    )
    expect(result.sync.pushed).toBe(0)
  })

  it('a create answer whose hashcodes are not strings is refused, and the cache stays readable', async () => {
    const { warnings, cache, result } = await build((hit, res) => {
      if (isCreate(hit)) return created(hit, res, (item, i) => (i === 1 ? { ...item, hashcode: 42 } : item))
      envelope(res, 200, { code: 'SUCCESS', data: { totalCount: 0, items: [] } })
    })
    expectOneWarning(warnings, 'items[1].hashcode')
    expect(result.sync.pushed).toBe(0)
    // Nothing half-true went into the manifest: the next build reads it (or finds none), never "malformed".
    const manifest = await cache.readManifest()
    expect(manifest.hit || manifest.reason === 'no file').toBe(true)
  })

  it('translation items of the wrong shape name what is wrong', async () => {
    const { warnings, result } = await build((hit, res) => {
      if (isCreate(hit)) return created(hit, res, (item) => item)
      envelope(res, 200, {
        code: 'SUCCESS',
        data: { totalCount: 1, items: [{ hashcode: hash('Save'), translations: 'Enregistrer' }] },
      })
    })
    expectOneWarning(warnings, 'translations', 'fr-FR: source text (not in the cache)')
    expect(warnings[0]).not.toContain('is not a function')
    expect(result.sync.translations.get('fr-FR')?.size).toBe(0)
  })

  it('a 50 MB body is read, refused as not an envelope, and shown by its first bytes only', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x')
    const { warnings } = await build((_hit, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      for (let i = 0; i < 50; i++) res.write(chunk)
      res.end()
    })
    expectOneWarning(warnings, `is not a JSON envelope (text/plain, ${50 * 1024 * 1024} bytes): "xxxx`)
    expect(warnings[0]!.length).toBeLessThan(2_000)
  }, 600_000)

  it('a totalCount that never ends: the pull stops once it has as many items as strings asked for', async () => {
    const { warnings, hits, result } = await build((hit, res) => {
      if (isCreate(hit)) return created(hit, res, (item) => item)
      // Always the same page, always "more to come".
      envelope(res, 200, {
        code: 'SUCCESS',
        data: {
          totalCount: 1_000_000_000,
          items: [
            { hashcode: hash('Save'), translations: [{ translation: 'Enregistrer', pluralForm: null }] },
          ],
        },
      })
    })
    // One page per string asked for, at most; what arrived is used.
    expect(hits.filter(isTranslations)).toHaveLength(TEXTS.length)
    expect(warnings).toEqual([])
    expect([...result.sync.translations.get('fr-FR')!.values()]).toEqual(['Enregistrer'])
  })
})
