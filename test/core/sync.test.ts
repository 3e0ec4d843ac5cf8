import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { syncTranslations, TmsSyncError } from '../../src/core/sync'
import { type Options, resolveOptions } from '../../src/options'
import { useEmulator } from '../helpers/emulator'
import {
  control as controlOf,
  memoryLogger as logger,
  message,
  NAMESPACE,
  PROJECT,
  requestsTo,
  runSync as sync,
  syncOptions,
} from '../helpers/sync'

const emu = useEmulator()

const control = (method: string, path: string, body?: unknown) => controlOf(emu, method, path, body)
const createRequests = () => requestsTo(emu, 'POST /strings-api/v2/projects/:projectId')
const setup = (overrides: Options = {}) => syncOptions(emu, overrides)

async function publish(hashcode: string, localeId: string, translation: string) {
  await control('POST', `/_emulator/projects/${PROJECT}/translations`, {
    hashcode,
    localeId,
    translation,
    published: true,
  })
}

describe('push', () => {
  it('creates 2,000 new messages in exactly 20 requests, then nothing when nothing changed', async () => {
    const options = await setup()
    const messages = Array.from({ length: 2000 }, (_, i) => message(`Message number ${i} for {name}`))
    const first = await sync(options, messages)
    expect(first.result.pushed).toBe(2000)
    expect(await createRequests()).toBe(20)
    expect(first.result.hashcodes.size).toBe(2000)
    for (const h of first.result.hashcodes.values()) expect(h).toMatch(/^[0-9a-f]{32}$/)

    await control('DELETE', '/_emulator/requests')
    const second = await sync(options, messages)
    expect(second.result.pushed).toBe(0)
    expect(await createRequests()).toBe(0)

    await control('DELETE', '/_emulator/requests')
    const changed = messages.map((m, i) => (i === 7 ? { ...m, instruction: 'A button label' } : m))
    const third = await sync(options, changed)
    expect(third.result.pushed).toBe(1)
    expect(await createRequests()).toBe(1)
    const state = (await control('GET', '/_emulator/state')) as unknown
    expect(JSON.stringify(state)).toContain('A button label')
  })
})

describe('pull', () => {
  it('fills the cache for 3 locales, checks placeholders, and serves the same translations offline', async () => {
    const options = await setup()
    const hello = message('Hello {name}!')
    const bye = message('Goodbye')
    const broken = message('You have {count} messages')
    const first = await sync(options, [hello, bye, broken])
    const h = first.result.hashcodes
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
    await publish(h.get(hello.key)!, 'fr-FR', 'Bonjour {0} !')
    await publish(h.get(bye.key)!, 'fr-FR', 'Au revoir')
    await publish(h.get(hello.key)!, 'de-DE', 'Hallo {0}!')
    await publish(h.get(broken.key)!, 'de-DE', 'Sie haben Nachrichten')

    const online = await sync(options, [hello, bye, broken])
    expect(online.result.sources).toEqual({ 'fr-FR': 'network', 'de-DE': 'network', 'ja-JP': 'network' })
    const fr = online.result.translations.get('fr-FR')!
    expect(Object.fromEntries(fr)).toEqual({ [hello.key]: 'Bonjour {name} !', [bye.key]: 'Au revoir' })
    expect(Object.fromEntries(online.result.translations.get('de-DE')!)).toEqual({
      [hello.key]: 'Hallo {name}!',
    })
    expect(online.log).toContain(
      `warn: translation of ${h.get(broken.key)} for de-DE rejected: it drops the placeholder {count}; the source text "You have {count} messages" (/app/src/App.tsx:3:7) is used until the translation is corrected on the service`,
    )
    expect(online.result.coverage['fr-FR']).toEqual({
      messages: 3,
      translated: 2,
      missing: 1,
      coverage: 66.6,
    })
    const cache = new DiskCache(options.cacheDir, PROJECT)
    for (const locale of ['fr-FR', 'de-DE', 'ja-JP'])
      expect((await cache.readLocale(locale, 'published')).hit).toBe(true)

    // The service goes away: offline and prefer-network both give the same catalogs from the cache.
    const down = await setup({ root: options.root, baseUrl: 'http://127.0.0.1:9' })
    const dead = await sync(down, [hello, bye, broken])
    expect(dead.result.translations).toEqual(online.result.translations)
    expect(dead.result.sources['fr-FR']).toBe('cache')
    expect(dead.log.filter((l) => l.startsWith('warn: the service could not be reached'))).toHaveLength(1)
    const offline = await sync(await setup({ root: options.root, cache: 'offline' }), [hello, bye, broken])
    expect(offline.result.translations).toEqual(online.result.translations)
    expect(offline.requests).toBe(0)
  })

  it('frozen fails on a message the cache does not know, naming its location and the option', async () => {
    const options = await setup()
    await sync(options, [message('Known')])
    const frozen = await setup({ root: options.root, cache: 'frozen' })
    const known = await sync(frozen, [message('Known')])
    expect(known.requests).toBe(0)
    const unknown = message('Brand new', {
      locations: [{ file: `${options.root}/src/New.tsx`, line: 12, column: 5 }],
    })
    await expect(sync(frozen, [message('Known'), unknown])).rejects.toThrow(TmsSyncError)
    await expect(sync(frozen, [message('Known'), unknown])).rejects.toThrow(
      `[unplugin-tms] cache: 'frozen' and the message "Brand new" (src/New.tsx:12:5) is not in`,
    )
  })

  it('treats a truncated locale file as a miss and goes on with the source text', async () => {
    const options = await setup({ locales: ['fr-FR'] })
    const hello = message('Hello')
    const { result } = await sync(options, [hello])
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
    await publish(result.hashcodes.get(hello.key)!, 'fr-FR', 'Bonjour')
    await sync(options, [hello])
    const file = new DiskCache(options.cacheDir, PROJECT).localeFile('fr-FR', 'published')
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.slice(0, 20))
    const offline = await sync(await setup({ root: options.root, locales: ['fr-FR'], cache: 'offline' }), [
      hello,
    ])
    expect(offline.result.translations.get('fr-FR')!.size).toBe(0)
    expect(offline.result.sources['fr-FR']).toBe('none')
  })

  it('builds with source text and one clear message when there are no credentials and no cache', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tms-sync-'))
    const options = resolveOptions(
      { root, locales: ['fr-FR'], namespace: NAMESPACE },
      { command: 'build', env: {} },
    )
    const log = logger()
    const result = await syncTranslations({ options, messages: [message('Hello')], logger: log })
    expect(result.translations.get('fr-FR')!.size).toBe(0)
    expect(log.lines).toEqual([
      `warn: no translations for fr-FR: no credentials (set TMS_USER_IDENTIFIER and TMS_USER_SECRET) and the cache (${options.cacheDir}) has none, so the build uses the source text`,
    ])
  })

  it('adds pseudo-locales generated from the source text', async () => {
    const options = await setup({ locales: ['fr-FR'], pseudo: ['en-XA'], cache: 'offline' })
    const { result } = await sync(options, [message('Hello {name}')])
    const text = [...result.translations.get('en-XA')!.values()][0]!
    expect(text).toContain('{name}')
    expect(text).not.toBe('Hello {name}')
    expect(result.sources['en-XA']).toBe('pseudo')
  })
})
