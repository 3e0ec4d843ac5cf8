import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEMO_CREDENTIALS, tms } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { control as controlOf, PROJECT } from '../helpers/sync'

/**
 * `tms push` / `tms pull` tell a configuration error (exit 1, naming the variable or option to fix)
 * from a bad network day (exit 2, the cache stands in with one warning; `--allow-stale` accepts it
 * with exit 0), and say when strings on the service wait for an authorization.
 */

const emu = useEmulator({ reset: false })
const control = (method: string, path: string, body?: unknown) => controlOf(emu, method, path, body)

const creds = DEMO_CREDENTIALS

const SOURCE = [
  "import { t } from 'unplugin-tms/runtime'",
  "export const a = t('Hello {name}!', { name: 'x' })",
  "export const b = t('Goodbye')",
  "export const c = t('Save')",
].join('\n')

/** A temp app with a config (no project id, base URL or credentials unless given) and one source file. */
async function app(config: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tms-cli-misconfig-'))
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: `misconfig-${Math.random().toString(36).slice(2)}` }),
  )
  await writeFile(join(root, 'tms.config.json'), JSON.stringify({ locales: ['fr-FR', 'de-DE'], ...config }))
  await mkdir(join(root, 'src'), { recursive: true })
  await writeFile(join(root, 'src/App.ts'), SOURCE)
  return root
}

const online = () => ({ projectId: PROJECT, baseUrl: emu.url })

const WRONG_SECRET =
  '[unplugin-tms] the service refused the credentials (POST /auth-api/v2/authenticate failed: 401 AUTHENTICATION_ERROR: Invalid user identifier or user secret): check TMS_USER_IDENTIFIER (or the userIdentifier option) and TMS_USER_SECRET (or the userSecret option)\n'

describe('configuration errors exit 1 and name the fix', () => {
  it('a wrong secret, for push and for pull', async () => {
    const root = await app(online())
    expect(await tms(root, ['push'], { ...creds, TMS_USER_SECRET: 'wrong' })).toMatchObject({
      code: 1,
      stderr: `extracting and pushing new strings...\n${WRONG_SECRET}`,
    })
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    expect(await tms(root, ['pull'], { ...creds, TMS_USER_SECRET: 'wrong' })).toMatchObject({
      code: 1,
      stderr: `extracting messages...\n${WRONG_SECRET}`,
    })
  }, 120_000)

  it('an unknown project', async () => {
    const root = await app({ projectId: 'no-such-project', baseUrl: emu.url })
    const run = await tms(root, ['push'], creds)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      `[unplugin-tms] project no-such-project is unknown to ${emu.url} (POST /strings-api/v2/projects/no-such-project failed: 404 NOT_FOUND_ERROR: Project no-such-project not found): check TMS_PROJECT_ID (or the projectId option) and TMS_BASE_URL (or the baseUrl option)\n`,
    )
  }, 120_000)

  it('credentials without TMS_BASE_URL, or without TMS_PROJECT_ID', async () => {
    const noUrl = await tms(await app({ projectId: PROJECT }), ['pull'], creds)
    expect(noUrl.code).toBe(1)
    expect(noUrl.stderr).toContain(
      '[unplugin-tms] TMS_BASE_URL (or the baseUrl option) is not set: the credentials are, but no request can be sent without the API root\n',
    )
    const noProject = await tms(await app({}), ['push'], { ...creds, TMS_BASE_URL: emu.url })
    expect(noProject.code).toBe(1)
    expect(noProject.stderr).toContain(
      '[unplugin-tms] TMS_PROJECT_ID (or the projectId option) is not set: the credentials are, but there is no project to push to or pull from\n',
    )
    expect(noProject.stderr).not.toContain('no credentials')
  }, 120_000)

  it('half of the credentials, or none for a pull', async () => {
    const root = await app(online())
    const half = await tms(root, ['pull'], { TMS_USER_IDENTIFIER: 'demo-user' })
    expect(half.code).toBe(1)
    expect(half.stderr).toContain(
      '[unplugin-tms] TMS_USER_SECRET (or the userSecret option) is not set, though TMS_USER_IDENTIFIER is: set both, or neither for an offline build from the cache\n',
    )
    const none = await tms(root, ['pull'])
    expect(none).toMatchObject({
      code: 1,
      stderr: '[unplugin-tms] tms pull needs credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET\n',
    })
  }, 120_000)

  it('an include that matches no file', async () => {
    const root = await app({ ...online(), include: ['source/**/*.ts'] })
    const run = await tms(root, ['pull'], creds)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      `[unplugin-tms] include matched no file under ${root} ("source/**/*.ts", less exclude): fix the include option or the root\n`,
    )
  }, 120_000)
})

describe('a bad network day exits 2 with the cache, or 0 with --allow-stale', () => {
  it('maintenance (503) on a pull, then a dead service on a push', async () => {
    const root = await app(online())
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    await control('POST', '/_emulator/faults', { rates: { '503': 1 } })
    const [stale, allowed] = await Promise.all([
      tms(root, ['pull'], creds),
      tms(root, ['pull', '--allow-stale'], creds),
    ]).finally(() => control('POST', '/_emulator/faults', {}))
    for (const run of [stale, allowed]) {
      expect(run.stderr).toContain(
        'warning: the service could not be reached (POST /auth-api/v2/authenticate failed: 503 MAINTENANCE_MODE_ERROR: The service is in maintenance mode); the build goes on with ',
      )
    }
    expect(stale.code).toBe(2)
    expect(stale.stderr).toContain(
      'error: tms pull did not finish its network work (see the warning above); pass --allow-stale to accept the cache and exit 0\n',
    )
    expect(allowed.code).toBe(0)
    expect(allowed.stderr).not.toContain('error:')

    const down = await app({ projectId: PROJECT, baseUrl: 'http://127.0.0.1:9' })
    const refused = await tms(down, ['push'], creds)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      'warning: the service could not be reached (POST /auth-api/v2/authenticate failed: network error: ECONNREFUSED',
    )
  }, 120_000)
})

describe('the committed cache without TMS_PROJECT_ID', () => {
  it('is read as the cache of its one project', async () => {
    const root = await app(online())
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    await control('POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
    await control('POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
    expect((await tms(root, ['pull'], creds)).code).toBe(0)
    await control('POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'off' })
    // A clone with the cache committed, no project id in its config and no variables.
    await writeFile(join(root, 'tms.config.json'), JSON.stringify({ locales: ['fr-FR', 'de-DE'] }))
    const status = await tms(root, ['status'])
    expect(status.code).toBe(0)
    expect(status.stderr).toBe(
      'extracting messages...\nTMS_PROJECT_ID is not set: the cache of project demo-project is read\n',
    )
    expect(status.stdout).toContain('fr-FR          3           3        0    100.0%')
  }, 120_000)
})

describe('strings that wait for an authorization', () => {
  it('tms status --live and tms pull count them and say how to fix it', async () => {
    const root = await app(online())
    expect((await tms(root, ['push'], creds)).code).toBe(0)
    const hint =
      '3 strings await authorization on the service (de-DE 3, fr-FR 3) and get no translation until authorized: authorize them in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings\n'
    const live = await tms(root, ['status', '--live'], creds)
    expect(live.code).toBe(0)
    expect(live.stdout).toContain(`\n4 requests made\n${hint}`)
    const pull = await tms(root, ['pull', '--json'], creds)
    expect(JSON.parse(pull.stdout).unauthorized).toEqual({ strings: 3, locales: { 'de-DE': 3, 'fr-FR': 3 } })
  }, 120_000)
})
