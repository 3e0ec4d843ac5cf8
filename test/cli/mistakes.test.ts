/**
 * A `tms` command in a CI script never passes a mistake: a typo in a command or a flag, a bare `tms`,
 * a pull on a fresh clone, wrong credentials with a full cache, a service that lost its strings, an
 * API root with a wrong path. Each exits non-zero with one line naming the fix, or does the work and
 * says what it did.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import { DEMO_CREDENTIALS as creds, tms } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { control as controlOf, PROJECT } from '../helpers/sync'

const emu = useEmulator()
const control = (method: string, path: string, body?: unknown) => controlOf(emu, method, path, body)

/** A temp app (one message, or `texts`) whose config points at the emulator. */
async function app(config: Record<string, unknown> = {}, texts = ['Goodbye']): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tms-cli-mistakes-'))
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: `mistakes-${Math.random().toString(36).slice(2)}` }),
  )
  await writeFile(
    join(root, 'tms.config.json'),
    JSON.stringify({ locales: ['fr-FR'], projectId: PROJECT, baseUrl: emu.url, ...config }),
  )
  await mkdir(join(root, 'src'))
  const calls = texts.map((text, i) => `export const m${i} = t(${JSON.stringify(text)})`)
  await writeFile(
    join(root, 'src/App.ts'),
    ["import { t } from 'unplugin-tms/runtime'", ...calls, ''].join('\n'),
  )
  return root
}

describe('typos and a bare tms', () => {
  it('exit 1 with one line, a guess when one is close, and no stack', async () => {
    const root = await app()
    expect(await tms(root, ['frobnicate'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: unknown command "frobnicate" (tms --help lists the commands)\n',
    })
    expect(await tms(root, ['pul'])).toMatchObject({
      code: 1,
      stderr: 'error: unknown command "pul": did you mean "tms pull"? (tms --help lists the commands)\n',
    })
    expect(await tms(root, ['push', '--jsn'])).toMatchObject({
      code: 1,
      stderr:
        'error: unknown option --jsn for tms push: did you mean --json? (tms push --help lists its options)\n',
    })
    expect(await tms(root, ['pull', '--allow-stail'])).toMatchObject({
      code: 1,
      stderr:
        'error: unknown option --allow-stail for tms pull: did you mean --allow-stale? (tms pull --help lists its options)\n',
    })
    expect(await tms(root, ['status', '--frobnicate'])).toMatchObject({
      code: 1,
      stderr: 'error: unknown option --frobnicate for tms status (tms status --help lists its options)\n',
    })
    const bare = await tms(root, [])
    expect(bare.code).toBe(1)
    expect(bare.stdout).toContain('Commands:\n  push ')
    expect(bare.stderr).toBe('error: no command given: tms <command> (the commands are listed above)\n')
    expect(await tms(root, ['--version'])).toMatchObject({ code: 0, stderr: '' })
  }, 60_000)
})

describe('tms pull on a fresh clone (no .tms-cache)', () => {
  it('creates the strings it needs, says so, and gets the published translations', async () => {
    const texts = ['Goodbye', 'Save']
    const first = await app({}, texts)
    expect(await tms(first, ['push'], creds)).toMatchObject({
      code: 0,
      stdout: '2 new strings pushed (2 messages), 2 requests made\n',
    })
    const manifest = await new DiskCache(join(first, '.tms-cache'), PROJECT).readManifest()
    const hashcodes = manifest.hit ? Object.values(manifest.value.entries).map((e) => e.hashcode) : []
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, { hashcodes })
    for (const hashcode of hashcodes) {
      await control('POST', `/_emulator/projects/${PROJECT}/translations`, {
        hashcode,
        localeId: 'fr-FR',
        translation: `fr ${hashcode.slice(0, 4)}`,
        published: true,
      })
    }
    // The clone: the same app, its cache not committed.
    await rm(join(first, '.tms-cache'), { recursive: true })
    const pull = await tms(first, ['pull'], creds)
    expect(pull.code).toBe(0)
    expect(pull.stdout).toBe(
      [
        'locale  messages  translated  missing  coverage',
        'fr-FR          2           2        0    100.0%',
        '3 requests made',
        '',
      ].join('\n'),
    )
    expect(pull.stderr).toBe(
      'extracting messages...\nwarning: 2 strings the cache did not know were created on the service first, as a build does (tms push creates new strings on its own; push: false stops tms pull from it)\n',
    )
  }, 120_000)

  it('with push: false fails naming tms push; with a wrong project id exits 1', async () => {
    const noPush = await app({ push: false })
    const pull = await tms(noPush, ['pull'], creds)
    expect(pull.code).toBe(1)
    expect(pull.stderr).toBe(
      `extracting messages...\nerror: 1 message of 1 has no string on the service yet (no hashcode in ${join(noPush, '.tms-cache')}), so tms pull cannot get its translations: run tms push first (push: false in the config keeps tms pull from creating strings)\n`,
    )
    const wrong = await tms(await app({ projectId: 'no-such-project' }), ['pull'], creds)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain(
      `[unplugin-tms] project no-such-project is unknown to ${emu.url} (POST /strings-api/v2/projects/no-such-project failed: 404 NOT_FOUND_ERROR: Project no-such-project not found)`,
    )
  }, 120_000)
})

describe('credentials and lost strings', () => {
  it('a wrong secret fails a push that has nothing new', async () => {
    const root = await app()
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    const again = await tms(root, ['push'], creds)
    expect(again).toMatchObject({ code: 0, stdout: '0 new strings pushed (1 message), 2 requests made\n' })
    const wrong = await tms(root, ['push'], { ...creds, TMS_USER_SECRET: 'wrong' })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('[unplugin-tms] the service refused the credentials')
  }, 120_000)

  it('a push creates again the strings a service restarted empty lost, and says so', async () => {
    const root = await app({}, ['Goodbye', 'Save', 'Open'])
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    await control('POST', '/_emulator/reset')
    const push = await tms(root, ['push'], creds)
    expect(push).toMatchObject({
      code: 0,
      stdout: '3 new strings pushed (3 messages), 3 requests made\n',
      stderr:
        "extracting and pushing new strings...\n3 strings the cache's manifest records are no longer on the service (project demo-project): creating them again\n",
    })
    const status = await tms(root, ['status', '--live'], creds)
    expect(status.stdout).toContain('3 strings await authorization on the service (fr-FR 3)')
  }, 120_000)
})

describe('the API root and requests that got no answer', () => {
  it('a wrong base URL path is named as such', async () => {
    const root = await app({ baseUrl: `${emu.url}/api/v2` })
    const push = await tms(root, ['push'], creds)
    expect(push.code).toBe(1)
    expect(push.stderr).toContain(
      `[unplugin-tms] ${emu.url}/api/v2 is not the API root of the service (POST /auth-api/v2/authenticate failed: 404 NOT_FOUND_ERROR: No endpoint POST /api/v2/auth-api/v2/authenticate): check the path of TMS_BASE_URL (or the baseUrl option)`,
    )
  }, 60_000)

  it('a service that is not there: the requests are counted as unanswered', async () => {
    const root = await app({ baseUrl: 'http://127.0.0.1:9' })
    const push = await tms(root, ['push', '--allow-stale'], creds)
    expect(push.code).toBe(0)
    expect(push.stdout).toMatch(/^0 new strings pushed \(1 message\), \d+ requests made, none answered\n$/)
  }, 120_000)
})
