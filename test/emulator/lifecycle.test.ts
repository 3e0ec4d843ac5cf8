import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_SEED, type EmulatorOptions, startEmulator } from '../../src/emulator/index'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tms-emulator-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function withEmulator<T>(options: EmulatorOptions, fn: (url: string) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ port: 0, ...options })
  try {
    return await fn(emulator.url)
  } finally {
    await emulator.close()
  }
}

async function post(url: string, body: unknown, token?: string) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: await r.json() }
}

async function login(url: string, userIdentifier = 'demo-user', userSecret = 'demo-secret'): Promise<string> {
  const r = await post(`${url}/auth-api/v2/authenticate`, { userIdentifier, userSecret })
  return r.body.response.data.accessToken
}

describe('startEmulator', () => {
  it('starts with DEMO_SEED by default', async () => {
    expect(DEMO_SEED.users).toEqual([{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }])
    await withEmulator({}, async (url) => {
      const state = await (await fetch(`${url}/_emulator/state`)).json()
      expect(
        state.response.data.projects.map(
          (p: { projectId: string; accountUid: string; targetLocaleIds: string[] }) => [
            p.accountUid,
            p.projectId,
            p.targetLocaleIds,
          ],
        ),
      ).toEqual([['demo-account', 'demo-project', ['fr-FR', 'de-DE', 'ja-JP']]])
      expect(await login(url)).toEqual(expect.any(String))
    })
  })

  it('reads a seed file', async () => {
    const file = join(dir, 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({
        users: [{ userIdentifier: 'ci', userSecret: 'ci-secret' }],
        accounts: [
          {
            accountUid: 'acc',
            projects: [{ projectId: 'web', sourceLocaleId: 'en-US', targetLocaleIds: ['nl-NL'] }],
          },
        ],
        translationMemory: [{ localeId: 'nl-NL', source: 'Save', target: 'Opslaan' }],
      }),
    )
    await withEmulator({ seed: file, autoTranslate: { mode: 'memory' } }, async (url) => {
      const token = await login(url, 'ci', 'ci-secret')
      const created = await post(
        `${url}/strings-api/v2/projects/web`,
        { strings: [{ stringText: 'Save' }] },
        token,
      )
      const hashcode = created.body.response.data.items[0].hashcode
      await post(`${url}/_emulator/projects/web/strings/authorize`, {})
      const r = await fetch(
        `${url}/strings-api/v2/projects/web/translations?targetLocaleId=nl-NL&hashcodes=${hashcode}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      )
      expect((await r.json()).response.data.items[0].translations[0].translation).toBe('Opslaan')
    })
  })

  it('rejects a bad seed with the file and the field, never the secret', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(
      file,
      JSON.stringify({
        users: [{ userIdentifier: 'u', userSecret: 'top-secret-value' }],
        accounts: [
          { accountUid: 'a', projects: [{ projectId: 'p', sourceLocaleId: 'en', targetLocaleIds: 'fr' }] },
        ],
      }),
    )
    const error = await startEmulator({ port: 0, seed: file }).catch((e: Error) => e)
    expect((error as Error).message).toBe(
      `[unplugin-tms] emulator seed ${file}: accounts[0].projects[0].targetLocaleIds must be an array`,
    )
    writeFileSync(file, '{"users": [')
    expect(
      ((await startEmulator({ port: 0, seed: file }).catch((e: Error) => e)) as Error).message,
    ).toContain(`emulator seed ${file} is not valid JSON`)
    const missing = join(dir, 'missing.json')
    expect(
      ((await startEmulator({ port: 0, seed: missing }).catch((e: Error) => e)) as Error).message,
    ).toContain(`cannot read emulator seed ${missing}`)
    const dup = await startEmulator({
      port: 0,
      seed: {
        users: [],
        accounts: [
          { accountUid: 'a', projects: [] },
          { accountUid: 'a', projects: [] },
        ],
      },
    }).catch((e: Error) => e)
    expect((dup as Error).message).toBe(
      '[unplugin-tms] emulator seed (object): accounts[1].accountUid is a duplicate',
    )
  })

  it('rejects bad numeric options naming the option', async () => {
    const error = await startEmulator({ port: 0, expiresIn: -5 }).catch((e: Error) => e)
    expect((error as Error).message).toBe(
      '[unplugin-tms] startEmulator: options.expiresIn: must be an integer between 1 and 31536000',
    )
    const faults = await startEmulator({ port: 0, faults: { dropRate: 3 } }).catch((e: Error) => e)
    expect((faults as Error).message).toContain('dropRate')
  })

  it('applies the faults option at start', async () => {
    await withEmulator({ faults: { rates: { '503': 1 } } }, async (url) => {
      const r = await post(`${url}/auth-api/v2/authenticate`, {})
      expect(r.status).toBe(503)
      expect(r.body.response.code).toBe('MAINTENANCE_MODE_ERROR')
    })
  })

  it('sends request lines to log, without tokens or secrets', async () => {
    const lines: string[] = []
    await withEmulator({ log: (line) => lines.push(line) }, async (url) => {
      const token = await login(url)
      await fetch(`${url}/strings-api/v2/projects/demo-project/source-strings?hashcodes=x`, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(lines.join('\n')).not.toContain(token)
    })
    expect(lines).toEqual([
      expect.stringMatching(/^POST \/auth-api\/v2\/authenticate 200 \d+ms$/),
      expect.stringMatching(
        /^GET \/strings-api\/v2\/projects\/demo-project\/source-strings\?hashcodes=x 200 \d+ms$/,
      ),
    ])
    expect(lines.join('\n')).not.toContain('demo-secret')
  })

  it('close() is idempotent and frees the port', async () => {
    const emulator = await startEmulator({ port: 0 })
    await Promise.all([emulator.close(), emulator.close()])
    await expect(fetch(`${emulator.url}/_emulator/state`)).rejects.toThrow()
  })
})

describe('dataFile', () => {
  it('persists strings, translations and tokens across a restart, atomically', async () => {
    const dataFile = join(dir, 'state', 'emulator.json')
    const { token, hashcode } = await withEmulator({ dataFile }, async (url) => {
      const token = await login(url)
      const created = await post(
        `${url}/strings-api/v2/projects/demo-project`,
        { strings: [{ stringText: 'Kept' }] },
        token,
      )
      const hashcode = created.body.response.data.items[0].hashcode as string
      await post(`${url}/_emulator/projects/demo-project/strings/authorize`, { localeIds: ['fr-FR'] })
      await post(`${url}/_emulator/projects/demo-project/translations`, {
        hashcode,
        localeId: 'fr-FR',
        translation: 'Gardé',
        published: true,
      })
      return { token, hashcode }
    })
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'))
    expect(saved.version).toBe(1)
    expect(saved.state.strings['demo-project'][0].hashcode).toBe(hashcode)
    expect(readdirSync(join(dir, 'state'))).toEqual(['emulator.json'])
    await withEmulator({ dataFile }, async (url) => {
      const r = await fetch(
        `${url}/strings-api/v2/projects/demo-project/translations?targetLocaleId=fr-FR&hashcodes=${hashcode}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      expect(r.status).toBe(200)
      expect((await r.json()).response.data.items[0].translations[0].translation).toBe('Gardé')
    })
  })

  it('a reset is persisted too', async () => {
    const dataFile = join(dir, 'emulator.json')
    await withEmulator({ dataFile }, async (url) => {
      const token = await login(url)
      await post(`${url}/strings-api/v2/projects/demo-project`, { strings: [{ stringText: 'Gone' }] }, token)
      await post(`${url}/_emulator/reset`, {})
    })
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).state.strings).toEqual({})
  })

  it('refuses a damaged data file, naming it', async () => {
    const dataFile = join(dir, 'emulator.json')
    writeFileSync(dataFile, 'not json')
    const error = await startEmulator({ port: 0, dataFile }).catch((e: Error) => e)
    expect((error as Error).message).toContain(`emulator data file ${dataFile} is not valid JSON`)
    writeFileSync(dataFile, JSON.stringify({ version: 99, state: {} }))
    const newer = await startEmulator({ port: 0, dataFile }).catch((e: Error) => e)
    expect((newer as Error).message).toBe(
      `[unplugin-tms] emulator data file ${dataFile} has an unknown format; delete it to start empty`,
    )
  })
})
