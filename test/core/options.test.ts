import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { loadOptions } from '../../src/config'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'
import { type Options, resolveOptions, TmsConfigError } from '../../src/options'

const env = {}

describe('resolveOptions', () => {
  it('fills every default', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tms-opt-'))
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'my-app' }))
    const o = resolveOptions({ locales: ['fr-FR'], root }, { command: 'build', env })
    expect(o).toEqual({
      root,
      projectId: undefined,
      baseUrl: undefined,
      locales: ['fr-FR'],
      sourceLocale: 'en-US',
      namespace: 'my-app',
      namespaceFromPackage: true,
      include: ['src/**/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}'],
      exclude: ['**/node_modules/**', '**/*.{test,spec}.*', '**/__tests__/**'],
      keywords: ['t'],
      placeholder: { format: null, custom: APP_PLACEHOLDER_SOURCE },
      mode: 'runtime',
      sourceCatalog: true,
      formats: {},
      retrievalType: 'published',
      push: false,
      job: undefined,
      cache: 'prefer-network',
      cacheDir: join(root, '.tms-cache'),
      pseudo: [],
      failOnMissing: false,
      minCoverage: 0,
      report: true,
      concurrency: 8,
      maxRequestLineBytes: 6144,
      ci: false,
    })
  })

  it('takes the request-line limit from the option, else TMS_MAX_REQUEST_LINE_BYTES, and names a bad one', () => {
    const limit = (raw: object, vars: Record<string, string>) =>
      resolveOptions({ locales: ['fr-FR'], ...raw }, { command: 'build', env: vars }).maxRequestLineBytes
    expect(limit({}, { TMS_MAX_REQUEST_LINE_BYTES: '16384' })).toBe(16384)
    expect(limit({ maxRequestLineBytes: 4096 }, { TMS_MAX_REQUEST_LINE_BYTES: '16384' })).toBe(4096)
    const run = () => limit({}, { TMS_MAX_REQUEST_LINE_BYTES: '8k' })
    expect(run).toThrow(TmsConfigError)
    expect(run).toThrow(
      '[unplugin-tms] TMS_MAX_REQUEST_LINE_BYTES is "8k": set it to a whole number of bytes from 1024 to 1048576, e.g. 6144',
    )
  })

  it('reads the environment, and pushes by default only in a build with credentials', () => {
    const withCreds = {
      TMS_USER_IDENTIFIER: 'id',
      TMS_USER_SECRET: 's3cret-value',
      TMS_PROJECT_ID: 'p1',
      TMS_BASE_URL: 'http://127.0.0.1:1/',
    }
    const build = resolveOptions({ locales: ['fr-FR'] }, { command: 'build', env: withCreds })
    expect(build.push).toBe(true)
    expect(build.projectId).toBe('p1')
    expect(build.baseUrl).toBe('http://127.0.0.1:1')
    expect(build.credentials).toEqual({ userIdentifier: 'id', userSecret: 's3cret-value' })
    expect(resolveOptions({ locales: ['fr-FR'] }, { command: 'serve', env: withCreds }).push).toBe(false)
    expect(
      resolveOptions({ locales: ['fr-FR'] }, { command: 'build', env: { TMS_OFFLINE: '1', ...withCreds } }),
    ).toMatchObject({
      cache: 'offline',
      push: false,
    })
  })

  it('never shows the credentials when the options are printed or serialised', () => {
    const o = resolveOptions(
      { locales: ['fr-FR'], userIdentifier: 'id', userSecret: 's3cret-value' },
      { command: 'cli', env },
    )
    expect(JSON.stringify(o)).not.toContain('s3cret-value')
    expect(inspect(o, { depth: 5 })).not.toContain('s3cret-value')
    expect({ ...o }).not.toHaveProperty('credentials')
  })

  const bad: [string, unknown, RegExp][] = [
    ['locales', undefined, /option "locales" is required/],
    ['locales', ['fr-FR', '../../etc'], /locales has "..\/..\/etc", which is not a locale id/],
    ['locales', ['en-US'], /locales lists the source locale "en-US"/],
    ['placeholderFormat', 'php', /placeholderFormat must be one of "none", "c"/],
    [
      'placeholderFormat',
      { custom: '([' },
      /placeholderFormat.custom: placeholderFormatCustom is not a valid regular expression/,
    ],
    ['mode', 'both', /mode must be "runtime" or "inline"/],
    ['cache', 'sometimes', /cache must be one of "prefer-network"/],
    ['minCoverage', 120, /minCoverage must be a number from 0 to 100/],
    ['keywords', ['t:x'], /keywords entries must be xgettext-style specs/],
    ['job', { authorize: true }, /option "job.name" is required/],
    ['baseUrl', 'ftp://x', /baseUrl must be an http\(s\) URL/],
    ['maxRequestLineBytes', 512, /maxRequestLineBytes must be a whole number of bytes from 1024 to 1048576/],
    ['locale', ['fr-FR'], /unknown option "locale". Did you mean "locales"\? Known options: projectId/],
    ['sourceCatalog', 'yes', /sourceCatalog must be true or false/],
  ]
  for (const [option, value, message] of bad) {
    it(`names the option and the fix for a bad ${option}`, () => {
      const raw = option === 'locale' ? { locale: value } : { locales: ['fr-FR'], [option]: value }
      if (option === 'locales') Object.assign(raw, { locales: value })
      const run = () => resolveOptions(raw as never, { command: 'build', env })
      expect(run).toThrow(TmsConfigError)
      expect(run).toThrow(message)
      expect(run).toThrow(/^\[unplugin-tms\] /)
    })
  }
})

describe('loadOptions', () => {
  it('finds tms.config.ts upward and lets inline options win', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tms-cfg-'))
    await writeFile(
      join(root, 'tms.config.ts'),
      "const locales: string[] = ['fr-FR', 'de-DE']\nexport default { locales, namespace: 'from-file', cacheDir: 'c' }\n",
    )
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(root, 'src', 'deep'), { recursive: true })
    const options = await loadOptions({ namespace: 'inline' }, join(root, 'src', 'deep'))
    expect(options).toEqual({ root, locales: ['fr-FR', 'de-DE'], namespace: 'inline', cacheDir: 'c' })
  })

  it('reads JSON and names the file when it is broken', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tms-cfg-'))
    await writeFile(join(root, 'tms.config.json'), '{ "locales": [')
    await expect(loadOptions({}, root)).rejects.toThrow(`cannot read ${join(root, 'tms.config.json')}`)
  })

  it("refuses sourceCatalog with mode: 'inline', naming the option and both fixes", () => {
    const run = () =>
      resolveOptions({ locales: ['fr-FR'], mode: 'inline', sourceCatalog: true }, { command: 'build', env })
    expect(run).toThrow(
      expect.objectContaining({
        name: 'TmsConfigError',
        option: 'sourceCatalog',
        message:
          "[unplugin-tms] sourceCatalog: true works only with mode: 'runtime' (an inline copy holds its texts already): remove sourceCatalog or set mode: 'runtime'",
      }),
    )
    expect(
      resolveOptions({ locales: ['fr-FR'], sourceCatalog: true }, { command: 'build', env }).sourceCatalog,
    ).toBe(true)
  })

  it('defaults sourceCatalog to true for a production build in runtime mode only', () => {
    const sourceCatalog = (o: Options, command: 'build' | 'serve' | 'cli') =>
      resolveOptions({ locales: ['fr-FR'], ...o }, { command, env }).sourceCatalog
    expect(sourceCatalog({}, 'build')).toBe(true)
    expect(sourceCatalog({}, 'serve')).toBe(false)
    expect(sourceCatalog({ mode: 'inline' }, 'build')).toBe(false)
    expect(sourceCatalog({ sourceCatalog: false }, 'build')).toBe(false)
    expect(sourceCatalog({ sourceCatalog: true }, 'serve')).toBe(true)
  })
})
