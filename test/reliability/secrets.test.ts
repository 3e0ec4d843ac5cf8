import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClient } from '../../src/client/index'
import { type EmulatorSeed, type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { resolveOptions } from '../../src/options'
import { control, untilIdle } from '../helpers/sync'
import {
  filesBelow,
  mainModule,
  makeApp,
  messageModules,
  PROJECT,
  rollupBuild,
  tms,
  writeFiles,
} from './helpers'

/**
 * Runs with known credentials, then a scan of everything they left: bundles, cache directories,
 * reports, the CLI's stdout and stderr in every mode, warnings through the bundler, thrown errors
 * with their request copies (as message, JSON and util.inspect), the resolved options, and the
 * emulator's request log. Neither the secret, nor a wrong secret tried along the way, nor any access
 * or refresh token the emulator issued (read from its data file) may appear anywhere.
 */

const USER = 'reliability-user'
const SECRET = 'S3cr3t-reliability-7c1e9a4b2d'
const WRONG = 'Wr0ng-reliability-5ecret-aa11'
const SEED: EmulatorSeed = {
  users: [{ userIdentifier: USER, userSecret: SECRET }],
  accounts: [
    {
      accountUid: 'a',
      projects: [{ projectId: PROJECT, sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR', 'de-DE'] }],
    },
  ],
}

let emu: RunningEmulator
const dataFile = join(mkdtempSync(join(tmpdir(), 'tms-secrets-')), 'state.json')
const emulatorLog: string[] = []
/** Every text an output of a run produced, with where it came from. */
const outputs: { where: string; text: string }[] = []
const roots: string[] = []
const record = (where: string, value: unknown) =>
  outputs.push({ where, text: typeof value === 'string' ? value : inspect(value, { depth: 20 }) })

beforeAll(async () => {
  emu = await startEmulator({ seed: SEED, dataFile, log: (line) => emulatorLog.push(line) })
})
afterAll(async () => {
  await emu?.close()
})

function app(): string {
  const { files } = messageModules(30)
  const root = makeApp(files, { locales: ['fr-FR', 'de-DE'], baseUrl: emu.url })
  writeFiles(root, { 'src/main.js': mainModule(files) })
  roots.push(root)
  return root
}

it('no output of any run holds the secret or a token', async () => {
  const options = { baseUrl: emu.url, projectId: PROJECT, userIdentifier: USER, locales: ['fr-FR', 'de-DE'] }

  // Plugin builds: a good one, one with the service in maintenance, one with a wrong secret.
  const root = app()
  const good = await rollupBuild(root, { ...options, userSecret: SECRET })
  record('build warnings', good.warnings)
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
  await control(emu, 'POST', `/_emulator/projects/${PROJECT}/strings/authorize`, {})
  await untilIdle(emu)
  record(
    'build warnings (translated)',
    (await rollupBuild(root, { ...options, userSecret: SECRET }, 'dist2')).warnings,
  )
  await control(emu, 'POST', '/_emulator/faults', { rates: { '503': 1 } })
  const down = await rollupBuild(root, { ...options, userSecret: SECRET }, 'dist3')
  await control(emu, 'POST', '/_emulator/faults', {})
  expect(down.warnings.join('\n')).toContain('MAINTENANCE_MODE_ERROR')
  record('build warnings (maintenance)', down.warnings)
  // A wrong secret is a configuration error: the build fails, and its error names the variables.
  const wrong = await rollupBuild(app(), { ...options, userSecret: WRONG }).catch((e: Error) => e)
  expect(wrong).toBeInstanceOf(Error)
  expect((wrong as Error).message).toContain('401 AUTHENTICATION_ERROR')
  record('build error (wrong secret)', String(wrong))
  record('build error stack (wrong secret)', (wrong as Error).stack ?? '')

  // The CLI, every command, plain and --json, with good and wrong credentials.
  const cliRoot = app()
  const env = { TMS_USER_IDENTIFIER: USER, TMS_USER_SECRET: SECRET }
  for (const args of [
    ['push'],
    ['push', '--json'],
    ['pull'],
    ['pull', '--json'],
    ['status'],
    ['status', '--live'],
    ['status', '--live', '--json'],
  ]) {
    const run = await tms(cliRoot, args, env)
    expect(run.code, run.stderr).toBe(0)
    record(`tms ${args.join(' ')} stdout`, run.stdout)
    record(`tms ${args.join(' ')} stderr`, run.stderr)
  }
  for (const args of [['push'], ['pull', '--json'], ['status', '--live']]) {
    const run = await tms(app(), args, { ...env, TMS_USER_SECRET: WRONG })
    record(`tms ${args.join(' ')} (wrong secret) stdout`, run.stdout)
    record(`tms ${args.join(' ')} (wrong secret) stderr`, run.stderr)
    if (args[0] === 'push') expect(run.stderr).toContain('401 AUTHENTICATION_ERROR')
  }

  // Errors thrown by the client, after it holds tokens, in every form a caller might log them.
  const client = createClient({ baseUrl: emu.url, userIdentifier: USER, userSecret: SECRET })
  const wrongClient = createClient({ baseUrl: emu.url, userIdentifier: USER, userSecret: WRONG })
  try {
    const token = await client.auth.accessToken()
    expect(token.length).toBeGreaterThan(10)
    const errors = await Promise.all([
      client.strings.create('no-such-project', { strings: [{ stringText: 'x' }] }).catch((e: unknown) => e),
      client.strings.translationsPage(PROJECT, { targetLocaleId: 'xx-XX' }).catch((e: unknown) => e),
      wrongClient.auth.authenticate().catch((e: unknown) => e),
      wrongClient.strings.create(PROJECT, { strings: [{ stringText: 'x' }] }).catch((e: unknown) => e),
    ])
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error)
      const e = error as Error & { request?: unknown }
      record('error message', e.message)
      record('error stack', e.stack)
      record('error JSON', JSON.stringify(e))
      record('error request', JSON.stringify(e.request))
      record('error inspect', e)
      record('error string', String(e))
    }
  } finally {
    await client.close()
    await wrongClient.close()
  }

  // The options object a plugin or a logger could print.
  const resolved = resolveOptions({ ...options, userSecret: SECRET }, { command: 'build', env: {} })
  record('options JSON', JSON.stringify(resolved))
  record('options inspect', resolved)
  record('options spread', { ...resolved })

  await emu.close()
  const state = JSON.parse(readFileSync(dataFile, 'utf8')) as {
    state: { tokens: { access: [string, unknown][]; refresh: [string, unknown][] } }
  }
  const tokens = [...state.state.tokens.access, ...state.state.tokens.refresh].map(([t]) => t)
  // Every run above authenticated: the CLI runs, the builds, the clients.
  expect(tokens.length).toBeGreaterThanOrEqual(10)

  for (const root of roots) {
    for (const [file, bytes] of filesBelow(root))
      outputs.push({ where: file, text: bytes.toString('latin1') })
  }
  expect(outputs.some((o) => o.where.endsWith('tms-report.json'))).toBe(true)
  expect(outputs.some((o) => o.where.includes(`${join('.tms-cache', 'locales')}`))).toBe(true)
  outputs.push({ where: 'emulator log', text: emulatorLog.join('\n') })
  expect(emulatorLog.length).toBeGreaterThan(20)

  const leaks: string[] = []
  for (const { where, text } of outputs) {
    for (const [name, value] of [
      ['secret', SECRET],
      ['wrong secret', WRONG],
      ...tokens.map((t) => ['token', t]),
    ]) {
      if (text.includes(value!)) leaks.push(`${name} in ${where}`)
    }
  }
  expect(leaks).toEqual([])
  // The scan saw real content: the user name is not secret and shows in the error copies.
  expect(outputs.length).toBeGreaterThan(100)
}, 600_000)
