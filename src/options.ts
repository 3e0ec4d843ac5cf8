import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import * as v from 'valibot'
import { closestName } from './core/closest'
import { type Formats, resolveFormats } from './core/model/formats'
import {
  type CacheMode,
  type Credentials,
  failOption,
  isLocaleId,
  mayUseNetwork,
  type PseudoLocale,
  type ResolvedOptions,
  TmsConfigError,
} from './core/model/options'
import {
  APP_PLACEHOLDER_SOURCE,
  PLACEHOLDER_FORMATS,
  type PlaceholderFormat,
  placeholderRegex,
} from './core/model/placeholders'
import { requestLineFromEnv, serviceSettings } from './options-env'

export type { CacheMode, Credentials, Formats, PseudoLocale, ResolvedOptions }
export { isLocaleId, TmsConfigError }

/**
 * Options of the plugin and the CLI (one shape). Every field is optional in code; `locales` and, for
 * network work, `projectId`, `baseUrl` and the credentials must come from here, the environment or
 * `tms.config.*`.
 */
export interface Options {
  /**
   * The TMS project that holds the strings.
   * @default process.env.TMS_PROJECT_ID
   * @example 'a1b2c3d4-...'
   */
  projectId?: string
  /**
   * The API root of the service, without a trailing slash.
   * @default process.env.TMS_BASE_URL
   * @example 'https://api.tms.example.com'
   */
  baseUrl?: string
  /**
   * API user identifier. Prefer the environment variable: options end up in config files.
   * @default process.env.TMS_USER_IDENTIFIER
   */
  userIdentifier?: string
  /**
   * API user secret. Never written to a bundle, the cache, a log or an error message.
   * @default process.env.TMS_USER_SECRET
   */
  userSecret?: string
  /**
   * Required. Target locales: one catalog (runtime mode) or one copy of the output (inline mode) each.
   * @example ['fr-FR', 'de-DE', 'ja-JP']
   */
  locales?: string[]
  /**
   * The language the source text is written in; it ships no catalog unless `sourceCatalog`.
   * @default 'en-US'
   */
  sourceLocale?: string
  /**
   * Sent with every string; part of its identity (hashcode). `null` sends the service's default.
   * @default the `name` field of the nearest package.json
   */
  namespace?: string | null
  /**
   * Globs of the files to extract messages from, relative to `root`. A file created while a dev server
   * or a watch runs is included once imported, also before the file watcher reports it.
   * @default ['src/**\/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}']
   */
  include?: string[]
  /**
   * Globs left out of extraction.
   * @default ['**\/node_modules/**', '**\/*.{test,spec}.*', '**\/__tests__/**']
   */
  exclude?: string[]
  /**
   * xgettext-style keyword specs: `t`, `__`, `_x:1,2c` (2nd argument is the variant), `_n:1,2` (plural),
   * member calls such as `i18n.t`.
   * @default ['t']
   */
  keywords?: string[]
  /**
   * What the service treats as a placeholder: a named format or `{ custom: regex }`.
   * @default { custom: '\\{[A-Za-z_$][\\w$]*\\}|\\{\\d+\\}|<\\/?[A-Za-z0-9_-]+>' } (the app's `{name}`, `{0}` and rich-text tags)
   * @example 'c'
   */
  placeholderFormat?: PlaceholderFormat | { custom: string }
  /**
   * `runtime`: message calls become catalog lookups, one lazy chunk per locale. `inline`: one build
   * emits a copy of the output per locale with the translations inlined.
   * @default 'runtime'
   */
  mode?: 'runtime' | 'inline'
  /**
   * Runtime mode: ship the source locale's messages as a lazy catalog chunk like every target
   * locale's, so each call site keeps only its id (a smaller entry chunk). The app then
   * `await`s `setLocale(...)`, for the source locale too, before its first render: until a catalog is
   * loaded a message shows its id. `false` keeps the source text at each call site (the first render
   * needs no catalog). Not available with `mode: 'inline'`, whose copies hold their texts.
   * @default true in a production build in runtime mode; false on a dev server or watch
   */
  sourceCatalog?: boolean
  /**
   * Named formats that messages' styles name, in react-intl's `<IntlProvider formats>` shape: `Intl`
   * options per kind (`number`, `date`, `time`) and name. Compiled into the messages at build time.
   * @default {} (the built-in styles only: integer, percent, currency; short, medium, long, full)
   * @example { number: { GBP: { style: 'currency', currency: 'GBP' } } }
   */
  formats?: Formats
  /**
   * `published`: only translations that finished the workflow. `pending`: any saved translation
   * (previews).
   * @default 'published'
   */
  retrievalType?: 'published' | 'pending'
  /**
   * Create new strings in the service during the build.
   * @default true in production builds when credentials are set; false in dev servers
   */
  push?: boolean
  /**
   * Add new strings to this translation job (found by name or created), and authorize it if asked.
   * @example { name: 'Website release 42', authorize: true }
   */
  job?: { name: string; authorize?: boolean }
  /**
   * `prefer-network`: the network, else the cache with a warning. `offline`: never the network.
   * `frozen`: fail when a message or locale is not in the cache. `refresh`: ignore cached translations.
   * @default 'prefer-network' ('offline' when TMS_OFFLINE=1)
   */
  cache?: CacheMode
  /**
   * Where the disk cache lives, relative to `root`. Keep it between CI runs.
   * @default '.tms-cache'
   */
  cacheDir?: string
  /**
   * Pseudo-locales generated locally: `true` is `['en-XA']`.
   * @default false
   */
  pseudo?: boolean | PseudoLocale[]
  /**
   * Fail a production build when any message of a target locale has no translation.
   * @default false
   */
  failOnMissing?: boolean
  /**
   * Fail a production build when a target locale's coverage (percent of messages translated) is below
   * this.
   * @default 0
   * @example 90
   */
  minCoverage?: number
  /**
   * Print the coverage report and write `tms-report.json`.
   * @default true
   */
  report?: boolean
  /**
   * The project root: globs, the cache directory and `tms.config.*` are relative to it.
   * @default process.cwd()
   */
  root?: string
  /**
   * Requests in flight at once against the service.
   * @default 8
   */
  concurrency?: number
  /**
   * Longest request line sent to the service; long lists of hashcodes (a pull) are split into several
   * requests below it. The default fits behind proxies with the common 8 KiB limit on the request line
   * and headers together (2 KiB left to the headers); raise it to make fewer requests when every hop
   * accepts longer lines, lower it for a stricter proxy (answers 414 or 431).
   * @default 6144 (or process.env.TMS_MAX_REQUEST_LINE_BYTES)
   * @example 16384
   */
  maxRequestLineBytes?: number
}

/** Defaults in one place, so docs and code agree. */
const DEFAULTS = {
  sourceLocale: 'en-US',
  include: ['src/**/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}'],
  exclude: ['**/node_modules/**', '**/*.{test,spec}.*', '**/__tests__/**'],
  keywords: ['t'],
  mode: 'runtime',
  retrievalType: 'published',
  cache: 'prefer-network',
  cacheDir: '.tms-cache',
  pseudo: false,
  failOnMissing: false,
  minCoverage: 0,
  report: true,
  concurrency: 8,
  maxRequestLineBytes: 6 * 1024,
} as const satisfies Partial<Options>

/** Where the options are used: decides the `push` and `sourceCatalog` defaults. */
export interface ResolveContext {
  /** `build` (production bundle), `serve` (dev server or watch), `cli`. */
  command: 'build' | 'serve' | 'cli'
  env?: Record<string, string | undefined>
}

const localeId = (option: string) =>
  v.pipe(
    v.string(`${option} must be a string like "fr-FR"`),
    v.check(
      isLocaleId,
      (issue) => `${option} has ${JSON.stringify(issue.input)}, which is not a locale id like "fr-FR"`,
    ),
  )

const nonEmpty = (option: string) =>
  v.pipe(v.string(`${option} must be a string`), v.minLength(1, `${option} must not be empty`))

const globList = (option: string) =>
  v.array(nonEmpty(`every entry of ${option}`), `${option} must be an array of glob strings`)

const MAX_REQUEST_LINE_RANGE = 'maxRequestLineBytes must be a whole number of bytes from 1024 to 1048576'

const OptionsSchema = v.strictObject(
  {
    projectId: v.optional(nonEmpty('projectId')),
    baseUrl: v.optional(
      v.pipe(
        v.string('baseUrl must be a string'),
        v.check(
          (s) => /^https?:\/\/[^\s/]+/.test(s),
          'baseUrl must be an http(s) URL such as "https://api.example.com"',
        ),
      ),
    ),
    userIdentifier: v.optional(nonEmpty('userIdentifier')),
    userSecret: v.optional(nonEmpty('userSecret')),
    locales: v.optional(
      v.pipe(
        v.array(localeId('locales'), 'locales must be an array of locale ids, e.g. ["fr-FR", "de-DE"]'),
        v.minLength(1, 'locales must name at least one target locale, e.g. ["fr-FR"]'),
      ),
    ),
    sourceLocale: v.optional(localeId('sourceLocale')),
    namespace: v.optional(v.nullable(v.string('namespace must be a string or null'))),
    include: v.optional(globList('include')),
    exclude: v.optional(globList('exclude')),
    keywords: v.optional(
      v.array(
        v.pipe(
          v.string('every keyword must be a string'),
          v.regex(
            /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?::\d+c?(?:,\d+c?)*)?$/,
            'keywords entries must be xgettext-style specs such as "t", "_x:1,2c", "_n:1,2" or "i18n.t"',
          ),
        ),
        'keywords must be an array of keyword specs',
      ),
    ),
    placeholderFormat: v.optional(
      v.union(
        [
          v.picklist(PLACEHOLDER_FORMATS),
          v.strictObject(
            { custom: nonEmpty('placeholderFormat.custom') },
            'placeholderFormat object takes only "custom"',
          ),
        ],
        `placeholderFormat must be one of ${PLACEHOLDER_FORMATS.map((f) => `"${f}"`).join(', ')} or { custom: "regex" }`,
      ),
    ),
    mode: v.optional(v.picklist(['runtime', 'inline'], 'mode must be "runtime" or "inline"')),
    sourceCatalog: v.optional(v.boolean('sourceCatalog must be true or false')),
    formats: v.optional(v.unknown()),
    retrievalType: v.optional(
      v.picklist(['published', 'pending'], 'retrievalType must be "published" or "pending"'),
    ),
    push: v.optional(v.boolean('push must be true or false')),
    job: v.optional(
      v.strictObject(
        {
          name: v.pipe(nonEmpty('job.name'), v.maxLength(170, 'job.name must be at most 170 characters')),
          authorize: v.optional(v.boolean('job.authorize must be true or false')),
        },
        'job must be { name: string, authorize?: boolean }',
      ),
    ),
    cache: v.optional(
      v.picklist(
        ['prefer-network', 'offline', 'frozen', 'refresh'],
        'cache must be one of "prefer-network", "offline", "frozen", "refresh"',
      ),
    ),
    cacheDir: v.optional(nonEmpty('cacheDir')),
    pseudo: v.optional(
      v.union(
        [v.boolean(), v.array(v.picklist(['en-XA', 'ar-XB']))],
        'pseudo must be true, false or a list of "en-XA", "ar-XB"',
      ),
    ),
    failOnMissing: v.optional(v.boolean('failOnMissing must be true or false')),
    minCoverage: v.optional(
      v.pipe(
        v.number('minCoverage must be a number from 0 to 100'),
        v.minValue(0, 'minCoverage must be a number from 0 to 100'),
        v.maxValue(100, 'minCoverage must be a number from 0 to 100'),
      ),
    ),
    report: v.optional(v.boolean('report must be true or false')),
    root: v.optional(nonEmpty('root')),
    concurrency: v.optional(
      v.pipe(
        v.number('concurrency must be a whole number from 1 to 64'),
        v.integer('concurrency must be a whole number from 1 to 64'),
        v.minValue(1, 'concurrency must be a whole number from 1 to 64'),
        v.maxValue(64, 'concurrency must be a whole number from 1 to 64'),
      ),
    ),
    maxRequestLineBytes: v.optional(
      v.pipe(
        v.number(MAX_REQUEST_LINE_RANGE),
        v.integer(MAX_REQUEST_LINE_RANGE),
        v.minValue(1024, MAX_REQUEST_LINE_RANGE),
        v.maxValue(1024 * 1024, MAX_REQUEST_LINE_RANGE),
      ),
    ),
  },
  'options must be an object',
)

function validationError(issues: v.BaseIssue<unknown>[]): TmsConfigError {
  const first = issues[0]!
  const path = v.getDotPath(first)
  if (first.type === 'strict_object' && path) {
    if (first.expected !== 'never') return new TmsConfigError(path, `option "${path}" is required`)
    const names = Object.keys(OptionsSchema.entries)
    const guess = path.includes('.') ? undefined : closestName(path, names)
    const known = path.includes('.') ? '' : ` Known options: ${names.join(', ')}.`
    return new TmsConfigError(
      path,
      `unknown option "${path}".${guess ? ` Did you mean "${guess}"?` : ''}${known}`,
    )
  }
  return new TmsConfigError(path ?? 'options', first.message)
}

function packageName(root: string): string | null {
  for (let dir = root; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      try {
        const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name
        return typeof name === 'string' && name !== '' ? name : null
      } catch {
        return null
      }
    }
    if (dirname(dir) === dir) return null
  }
}

/**
 * The placeholder spec an app's `placeholderFormat` option means: a named format, a custom regex, or
 * (unset) the app's own `{name}` and `{0}`. The plugin and `tms extract` both read the option so.
 */
export function placeholderSpecOf(format: Options['placeholderFormat']): {
  format: PlaceholderFormat | null
  custom: string | null
} {
  if (typeof format === 'object') return { format: null, custom: format.custom }
  return format ? { format, custom: null } : { format: null, custom: APP_PLACEHOLDER_SOURCE }
}

/**
 * Merges options with the environment and the defaults, validates every field, and returns the one
 * shape hooks and commands read. Throws {@link TmsConfigError} naming the option and the fix.
 */
export function resolveOptions(raw: Options | undefined, context: ResolveContext): ResolvedOptions {
  const env = context.env ?? process.env
  const parsed = v.safeParse(OptionsSchema, raw ?? {})
  if (!parsed.success) throw validationError(parsed.issues)
  const o = parsed.output

  const root = resolve(o.root ?? process.cwd())
  const locales = o.locales ?? []
  if (locales.length === 0) {
    throw new TmsConfigError(
      'locales',
      'option "locales" is required: list the target locales, e.g. locales: ["fr-FR"]',
    )
  }
  const sourceLocale = o.sourceLocale ?? DEFAULTS.sourceLocale
  if (locales.includes(sourceLocale)) {
    throw new TmsConfigError(
      'locales',
      `locales lists the source locale "${sourceLocale}": it needs no translation, remove it (or change sourceLocale)`,
    )
  }

  const mode = o.mode ?? DEFAULTS.mode
  // A dev server keeps the texts at the call sites: an edit then needs no catalog made again.
  const sourceCatalog = o.sourceCatalog ?? (mode === 'runtime' && context.command === 'build')
  if (o.sourceCatalog && mode === 'inline') {
    throw new TmsConfigError(
      'sourceCatalog',
      "sourceCatalog: true works only with mode: 'runtime' (an inline copy holds its texts already): remove sourceCatalog or set mode: 'runtime'",
    )
  }

  const placeholder = placeholderSpecOf(o.placeholderFormat)
  try {
    placeholderRegex(placeholder)
  } catch (error) {
    throw new TmsConfigError('placeholderFormat', `placeholderFormat.custom: ${(error as Error).message}`)
  }

  const { credentials, ...service } = serviceSettings(o, env, DEFAULTS.cache)
  const pseudo: PseudoLocale[] =
    o.pseudo === true ? ['en-XA'] : o.pseudo === false || !o.pseudo ? [] : [...new Set(o.pseudo)]

  const resolved: Omit<ResolvedOptions, 'credentials'> = {
    root,
    projectId: service.projectId,
    baseUrl: service.baseUrl,
    locales: [...new Set(locales)],
    sourceLocale,
    namespace: o.namespace !== undefined ? o.namespace : packageName(root),
    namespaceFromPackage: o.namespace === undefined,
    include: o.include ?? [...DEFAULTS.include],
    exclude: o.exclude ?? [...DEFAULTS.exclude],
    keywords: o.keywords ?? [...DEFAULTS.keywords],
    placeholder,
    mode,
    sourceCatalog,
    formats: resolveFormats(o.formats, failOption),
    retrievalType: o.retrievalType ?? DEFAULTS.retrievalType,
    push: o.push ?? (context.command === 'build' && credentials !== undefined && mayUseNetwork(service)),
    job: o.job ? { name: o.job.name, authorize: o.job.authorize ?? false } : undefined,
    cache: service.cache,
    cacheDir: isAbsolute(o.cacheDir ?? DEFAULTS.cacheDir)
      ? (o.cacheDir as string)
      : join(root, o.cacheDir ?? DEFAULTS.cacheDir),
    pseudo,
    failOnMissing: o.failOnMissing ?? DEFAULTS.failOnMissing,
    minCoverage: o.minCoverage ?? DEFAULTS.minCoverage,
    report: o.report ?? DEFAULTS.report,
    concurrency: o.concurrency ?? DEFAULTS.concurrency,
    maxRequestLineBytes: o.maxRequestLineBytes ?? requestLineFromEnv(env) ?? DEFAULTS.maxRequestLineBytes,
    ci: service.ci,
  }
  // Not enumerable: JSON.stringify, spread and util.inspect of the options never show the secret.
  Object.defineProperty(resolved, 'credentials', { value: credentials, enumerable: false })
  return resolved as ResolvedOptions
}

/** The error for `mode: 'inline'` with a bundler that cannot make the copies. */
export function inlineUnsupportedMessage(bundler: string): string {
  return `mode: 'inline' is not available with ${bundler}: use vite, rollup, rolldown, webpack or rspack for inline builds, or mode: 'runtime' with ${bundler}`
}
