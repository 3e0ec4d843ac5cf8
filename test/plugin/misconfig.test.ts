import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { Options } from '../../src/options'
import {
  type Built,
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildVite,
  buildWebpack,
  outputFiles,
} from './bundlers'
import { suiteProject } from './helpers'

/**
 * A production build that cannot be right fails and names what to fix; a bad network day builds from
 * the cache with one warning. Every bundler family: rollup, rolldown and vite; webpack and rspack;
 * esbuild.
 */

const project = suiteProject(true)

const BUILDS: Record<string, (o: Options) => Promise<Built>> = {
  rollup: (o) => buildRollup(project.current.root, o),
  rolldown: (o) => buildRolldown(project.current.root, o),
  vite: (o) => buildVite(project.current.root, o),
  webpack: (o) => buildWebpack(project.current.root, o),
  rspack: (o) => buildRspack(project.current.root, o),
  esbuild: (o) => buildEsbuild(project.current.root, o),
}

/** The plugin options of the suite's project with some of them unset. */
function without(names: (keyof Options)[], extra: Options = {}): Options {
  const options: Options = { ...project.current.options(), ...extra }
  for (const name of names) delete options[name]
  return options
}

/** Whether some output file of a build holds the text. */
function shipped(built: Built, text: string): boolean {
  return [...outputFiles(built.outDir).values()].some((code) => code.includes(text))
}

const WRONG_SECRET =
  '[unplugin-tms] the service refused the credentials (POST /auth-api/v2/authenticate failed: 401 AUTHENTICATION_ERROR: Invalid user identifier or user secret): check TMS_USER_IDENTIFIER (or the userIdentifier option) and TMS_USER_SECRET (or the userSecret option)'

describe.each(Object.entries(BUILDS))('%s production build', (_name, build) => {
  test('a wrong secret fails the build naming the credential variables', async () => {
    await expect(build(project.current.options({ userSecret: 'not-the-secret' }))).rejects.toThrow(
      WRONG_SECRET,
    )
  }, 120_000)

  test('an unknown project fails the build naming TMS_PROJECT_ID', async () => {
    const url = project.current.emu.url
    await expect(build(project.current.options({ projectId: 'no-such-project' }))).rejects.toThrow(
      `[unplugin-tms] project no-such-project is unknown to ${url} (POST /strings-api/v2/projects/no-such-project failed: 404 NOT_FOUND_ERROR: Project no-such-project not found): check TMS_PROJECT_ID (or the projectId option) and TMS_BASE_URL (or the baseUrl option)`,
    )
  }, 120_000)

  test('credentials without a base URL fail the build naming TMS_BASE_URL', async () => {
    await expect(build(without(['baseUrl']))).rejects.toThrow(
      '[unplugin-tms] TMS_BASE_URL (or the baseUrl option) is not set: the credentials are, but no request can be sent without the API root',
    )
  }, 120_000)

  test('credentials without a project id fail the build naming TMS_PROJECT_ID', async () => {
    await expect(build(without(['projectId']))).rejects.toThrow(
      '[unplugin-tms] TMS_PROJECT_ID (or the projectId option) is not set: the credentials are, but there is no project to push to or pull from',
    )
  }, 120_000)

  test('an include that matches no file fails the build naming the option', async () => {
    await expect(build(project.current.options({ include: ['source/**/*.js'] }))).rejects.toThrow(
      `[unplugin-tms] include matched no file under ${project.current.root} ("source/**/*.js", less exclude): fix the include option or the root`,
    )
  }, 120_000)

  test('with no project id and no credentials, the committed cache of its one project is used', async () => {
    const built = await build(without(['projectId', 'userIdentifier', 'userSecret', 'baseUrl']))
    expect(built.warnings).toEqual([])
    expect(shipped(built, 'Bienvenue dans la boutique')).toBe(true)
  }, 120_000)
})

describe.each(['rollup', 'webpack', 'esbuild'])('%s on a bad network day', (name) => {
  test('a dead service: the build passes from the cache with one warning', async () => {
    const built = await BUILDS[name]!(project.current.options({ baseUrl: 'http://127.0.0.1:9' }))
    expect(built.warnings).toHaveLength(1)
    expect(built.warnings[0]).toContain(
      'the service could not be reached (POST /auth-api/v2/authenticate failed: network error: ECONNREFUSED',
    )
    expect(built.warnings[0]).toContain('the build goes on with fr-FR: cached translations of ')
    expect(shipped(built, 'Bienvenue dans la boutique')).toBe(true)
  }, 120_000)
})

describe.each(['rollup', 'webpack', 'esbuild'])(
  '%s with a string that waits for an authorization',
  (name) => {
    test('the build warns how to fix it, and the report counts it', async () => {
      // A new message: the build pushes it (the first of these builds) and the service holds it unauthorized.
      writeFileSync(
        join(project.current.root, 'src/extra.js'),
        "import { t } from 'unplugin-tms/runtime'\nexport const extra = () => t('Not authorized yet')\n",
      )
      const built = await BUILDS[name]!(project.current.options())
      expect(built.warnings).toEqual([
        `${name === 'rollup' ? '[plugin unplugin-tms] ' : name === 'webpack' ? '[unplugin-tms] ' : ''}1 string awaits authorization on the service (fr-FR 1) and gets no translation until authorized: authorize it in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings`,
      ])
      const report = JSON.parse(readFileSync(join(built.outDir, 'tms-report.json'), 'utf8'))
      expect(report.unauthorized).toEqual({ strings: 1, locales: { 'fr-FR': 1 } })
    })
  },
)
