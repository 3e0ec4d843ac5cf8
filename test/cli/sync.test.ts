import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { DEMO_CREDENTIALS, tms } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { control as controlOf, PROJECT } from '../helpers/sync'

const emu = useEmulator({ reset: false })
const control = (method: string, path: string, body?: unknown) => controlOf(emu, method, path, body)

const creds = DEMO_CREDENTIALS

async function app(files: Record<string, string>, config: Record<string, unknown> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tms-cli-'))
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: `cli-app-${Math.random().toString(36).slice(2)}` }),
  )
  await writeFile(
    join(root, 'tms.config.json'),
    JSON.stringify({ locales: ['fr-FR', 'de-DE'], projectId: PROJECT, baseUrl: emu.url, ...config }),
  )
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true })
    await writeFile(join(root, file), text)
  }
  return root
}

const appSource = [
  "import { t } from 'unplugin-tms/runtime'",
  "export const a = t('Hello {name}!', { name: 'x' })",
  "export const b = t('Goodbye')",
  "export const c = t('Save', undefined, { variant: 'button' })",
  "export const d = t('Untranslated')",
].join('\n')

describe('tms push / pull / status', () => {
  it('pushes new strings once, pulls, and shows the coverage the service holds', async () => {
    const root = await app({ 'src/App.ts': appSource })
    const push = await tms(root, ['push'], creds)
    expect(push).toMatchObject({ code: 0, stdout: '4 new strings pushed (4 messages), 2 requests made\n' })
    expect((await tms(root, ['push', '--json'], creds)).stdout).toContain('"pushed": 0')

    const manifest = await new DiskCache(join(root, '.tms-cache'), PROJECT).readManifest()
    expect(manifest.hit).toBe(true)
    const hashcodes = manifest.hit
      ? Object.values(manifest.value.entries).map((e) => [e.parsed, e.hashcode])
      : []
    const hash = Object.fromEntries(hashcodes)
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {
      hashcodes: Object.values(hash),
    })
    const publish = (text: string, localeId: string, translation: string) =>
      control('POST', `/_emulator/projects/${PROJECT}/translations`, {
        hashcode: hash[text],
        localeId,
        translation,
        published: true,
      })
    await publish('Hello {0}!', 'fr-FR', 'Bonjour {0} !')
    await publish('Goodbye', 'fr-FR', 'Au revoir')
    await publish('Save', 'fr-FR', 'Enregistrer')
    await publish('Goodbye', 'de-DE', 'Auf Wiedersehen')

    const live = await tms(root, ['status', '--live'], creds)
    expect(live.code).toBe(0)
    expect(live.stdout).toBe(
      [
        'locale  messages  translated  missing  coverage',
        'de-DE          4           1        3     25.0%',
        'fr-FR          4           3        1     75.0%',
        // status never pushes: no count of strings pushed.
        '3 requests made',
        '',
      ].join('\n'),
    )
    const pull = await tms(root, ['pull'], creds)
    expect(pull).toMatchObject({
      code: 0,
      stdout: [
        'locale  messages  translated  missing  coverage',
        'de-DE          4           1        3     25.0%',
        'fr-FR          4           3        1     75.0%',
        '3 requests made',
        '',
      ].join('\n'),
    })
    // Offline status reads what the live one cached, and makes no request.
    const cached = JSON.parse((await tms(root, ['status', '--json'])).stdout)
    expect(cached).toMatchObject({
      messages: 4,
      requests: 0,
      sources: { 'fr-FR': 'cache', 'de-DE': 'cache' },
      locales: { 'fr-FR': { translated: 3, coverage: 75 }, 'de-DE': { translated: 1, coverage: 25 } },
    })
  })

  it('keeps a valid cache when two pulls share the cache directory at once', async () => {
    const root = await app({ 'src/App.ts': appSource })
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    await control('POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
    const runs = await Promise.all([
      tms(root, ['pull', '--json'], creds),
      tms(root, ['pull', '--json'], creds),
    ])
    for (const run of runs) expect(run.code).toBe(0)
    expect(JSON.parse(runs[0]!.stdout).locales).toEqual(JSON.parse(runs[1]!.stdout).locales)
    const cache = new DiskCache(join(root, '.tms-cache'), PROJECT)
    expect((await cache.readManifest()).hit).toBe(true)
    for (const locale of ['fr-FR', 'de-DE']) {
      const read = await cache.readLocale(locale, 'published')
      expect(read.hit && Object.keys(read.value.translations).length).toBe(4)
    }
    expect((await readdir(join(root, '.tms-cache', 'locales'))).sort()).toEqual([
      'de-DE.published.json',
      'fr-FR.published.json',
    ])
    await control('POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'off' })
  })

  it('exits 1 with a message naming the option when frozen meets a new message, or push lacks credentials', async () => {
    const root = await app(
      { 'src/App.ts': "import { t } from 'unplugin-tms/runtime'\nt('Only here')\n" },
      { cache: 'frozen' },
    )
    const frozen = await tms(root, ['pull'])
    expect(frozen.code).toBe(1)
    expect(frozen.stderr).toContain(
      `[unplugin-tms] cache: 'frozen' and the message "Only here" (src/App.ts:2:1) is not in`,
    )
    const push = await tms(root, ['push'])
    expect(push.code).toBe(1)
    expect(push.stderr).toContain('tms push needs credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET')
    const bad = await tms(root, ['pull', '--cache', 'sometimes'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain(
      '[unplugin-tms] cache must be one of "prefer-network", "offline", "frozen", "refresh"',
    )
  })
})
