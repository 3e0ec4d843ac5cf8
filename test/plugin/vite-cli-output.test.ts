/**
 * What a team sees in its terminal: `vite build` run as a user runs it (vite's own CLI, the package
 * linked into a fresh app made as `npm create vite` makes it, so the package is named `vite-project`),
 * against the emulator. Each warning once, every count in the right number, and a failure ends with
 * our message: no stack frame below it (ours or the bundler's) and no `errors:` of rolldown's. The
 * bundler lines (scripts/test-bundler-lines.mjs) run this file on vite 5 to 8.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO } from '../../scripts/pack-install'
import { DEMO_CREDENTIALS } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { PROJECT } from '../helpers/sync'

const emu = useEmulator()
let app: string

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'tms-vite-cli-'))
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'vite-project', private: true, type: 'module' }),
  )
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(REPO, join(app, 'node_modules', 'unplugin-tms'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'vite'), join(app, 'node_modules', 'vite'), 'dir')
  writeFileSync(
    join(app, 'vite.config.js'),
    "import tms from 'unplugin-tms/vite'\nexport default { plugins: [tms({ locales: ['fr-FR'] })] }\n",
  )
  writeFileSync(join(app, 'index.html'), '<script type="module" src="/src/main.js"></script>\n')
  mkdirSync(join(app, 'src'))
  writeFileSync(
    join(app, 'src', 'main.js'),
    "import { t } from 'unplugin-tms/runtime'\ndocument.body.textContent = t('Goodbye')\n",
  )
})

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true })
})

/** `vite build` in the app with only PATH and `env`; stdout and stderr together, colours removed. */
function viteBuild(env: Record<string, string>): Promise<{ code: number; output: string }> {
  rmSync(join(app, '.tms-cache'), { recursive: true, force: true })
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join('node_modules', 'vite', 'bin', 'vite.js'), 'build'],
      { cwd: app, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          output: stripVTControlCharacters(stdout + stderr),
        }),
    )
  })
}

const service = () => ({ TMS_BASE_URL: emu.url, TMS_PROJECT_ID: PROJECT })
const VITE_MAJOR = Number(
  JSON.parse(readFileSync(join(REPO, 'node_modules', 'vite', 'package.json'), 'utf8')).version.split('.')[0],
)

/**
 * What vite's CLI prints from its failure line on: every version prints the error's text there (vite 8
 * through util.inspect, which adds rolldown's `errors` to its stack), so these lines are the same on
 * every line when the failure is ours.
 */
function failureTail(output: string): string[] {
  const start = output.indexOf('error during build:\n')
  expect(start, output).toBeGreaterThanOrEqual(0)
  return output.slice(start).trimEnd().split('\n')
}
const times = (output: string, text: string) => output.split(text).length - 1

const TEMPLATE_NAME =
  `the namespace is package.json's name "vite-project", the default of a project template that many unrelated apps keep: ` +
  'apps with the same namespace in one service project share their strings. Rename the package, or set the namespace option (e.g. namespace: "shop-web")'
const HALF =
  'TMS_BASE_URL (or the baseUrl option) and TMS_PROJECT_ID (or the projectId option) are set, but TMS_USER_IDENTIFIER (or the userIdentifier option) and TMS_USER_SECRET (or the userSecret option) are not'

describe('vite build, as a team runs it', () => {
  it('warns once of a template package name and once of the strings awaiting authorization', async () => {
    const { code, output } = await viteBuild({ ...service(), ...DEMO_CREDENTIALS })
    expect(code).toBe(0)
    expect(times(output, TEMPLATE_NAME)).toBe(1)
    expect(times(output, '1 string awaits authorization on the service (fr-FR 1)')).toBe(1)
    expect(output).toContain('\n1 new string pushed, 4 requests made\n')
  }, 120_000)

  it("a warning about a message shows its file:line:col and code frame (vite's logger prints a warning's text alone)", async () => {
    const { code, output } = await viteBuild({ TMS_OFFLINE: '1' })
    expect(code).toBe(0)
    // Vite 8 prints the text alone, which names the place; rollup (vite 5 to 7) puts it in front itself.
    const place = VITE_MAJOR >= 8 ? 'src/main.js:2:29' : 'src/main.js (2:28)'
    const warning = `[plugin unplugin-tms] ${place}: t(...) runs once, when the module is evaluated`
    expect(times(output, warning)).toBe(1)
    const frame = output
      .slice(output.indexOf('\n', output.indexOf(warning)) + 1)
      .split('\n')
      .slice(0, 3)
    expect(frame).toEqual([
      "  1 | import { t } from 'unplugin-tms/runtime'",
      "> 2 | document.body.textContent = t('Goodbye')",
      '    |                             ^',
    ])
  }, 120_000)

  it('half-present credentials: one warning naming the variables; under CI a failure with no stack of ours', async () => {
    const local = await viteBuild(service())
    expect(local.code).toBe(0)
    expect(times(local.output, HALF)).toBe(1)
    expect(local.output).toContain(
      `${HALF}: nothing is pushed or pulled and the build uses the cache (${join(app, '.tms-cache')}) as it is. Set both, or set cache: 'offline' (TMS_OFFLINE=1) to build from the cache on purpose\n`,
    )

    const ci = await viteBuild({ ...service(), CI: 'true' })
    expect(ci.code).toBe(1)
    expect(failureTail(ci.output)).toEqual([
      'error during build:',
      `TmsSyncError: [unplugin-tms] ${HALF}, and CI is set: a CI build that skips the service would pass with old translations. Give this job the secrets, or set cache: 'frozen' (or 'offline', TMS_OFFLINE=1) to build from the committed cache on purpose`,
    ])
    expect(ci.output).not.toMatch(/^\s+at |^\s*errors:/m)
    expect(await viteBuild({ ...service(), CI: 'true', TMS_OFFLINE: '1' })).toMatchObject({ code: 0 })
  }, 120_000)

  it('a wrong secret: our message, and no stack frame below it', async () => {
    const { code, output } = await viteBuild({ ...service(), ...DEMO_CREDENTIALS, TMS_USER_SECRET: 'wrong' })
    expect(code).toBe(1)
    expect(failureTail(output)).toEqual([
      'error during build:',
      'TmsSyncError: [unplugin-tms] the service refused the credentials (POST /auth-api/v2/authenticate failed: 401 AUTHENTICATION_ERROR: Invalid user identifier or user secret): check TMS_USER_IDENTIFIER (or the userIdentifier option) and TMS_USER_SECRET (or the userSecret option)',
    ])
    expect(output).not.toMatch(/^\s+at |^\s*errors:/m)
  }, 120_000)

  it('an unknown project: our message, and no stack frame below it', async () => {
    const { code, output } = await viteBuild({
      ...service(),
      ...DEMO_CREDENTIALS,
      TMS_PROJECT_ID: 'no-such-project',
    })
    expect(code).toBe(1)
    const [line, said] = failureTail(output)
    expect(line).toBe('error during build:')
    expect(said).toMatch(
      /^TmsSyncError: \[unplugin-tms\] project no-such-project is unknown to http:\/\/127\.0\.0\.1:\d+ \(.*\): check TMS_PROJECT_ID \(or the projectId option\) and TMS_BASE_URL \(or the baseUrl option\)$/,
    )
    expect(failureTail(output)).toHaveLength(2)
    expect(output).not.toMatch(/^\s+at |^\s*errors:/m)
  }, 120_000)
})
