import { createHash } from 'node:crypto'
import { isAbsolute, resolve } from 'node:path'
import { APP_PLACEHOLDER_SOURCE, type PlaceholderSpec, placeholderRegex } from '../model/placeholders'
import { ExtractOptionsError } from './errors'
import { type KeywordSpec, parseKeywordSpec } from './keywords'
import { lazySupported } from './oxc'

/** The ways a program can be read (scan.ts says why each exists). */
export type ScannerName = 'lazy' | 'lazy-nodes' | 'json' | 'json-nodes' | 'estree'

const SCANNER_NAMES: readonly string[] = ['lazy', 'lazy-nodes', 'json', 'json-nodes', 'estree']

/** What `extractMessages` / `tms extract` read. Every field is optional. */
export interface ExtractOptions {
  /**
   * Directory the globs are relative to, and that `tms extract` prints paths against.
   * @default process.cwd()
   */
  cwd?: string
  /**
   * Globs (picomatch syntax, read by tinyglobby) of the files to extract from.
   * @default ['src/**\/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}']
   */
  include?: string[]
  /**
   * Globs left out.
   * @default ['**\/node_modules/**', '**\/*.{test,spec}.*', '**\/__tests__/**']
   */
  exclude?: string[]
  /**
   * xgettext-style keyword specs: `t`, `__`, `_x:1,2c`, `_n:1,2`, `_nx:1,2,4c`, `i18n.t`.
   * @default ['t']
   */
  keywords?: string[]
  /**
   * Which spellings in a text are placeholders; decides `parsed` (the service's `parsedStringText`).
   * @default { custom: APP_PLACEHOLDER_SOURCE } (the app's `{name}` and `{0}`)
   */
  placeholder?: PlaceholderSpec
  /**
   * Namespace sent with every string; part of the message key.
   * @default null
   */
  namespace?: string | null
  /**
   * Module whose `t` export is the message function under any local name.
   * @default 'unplugin-tms/runtime'
   */
  runtimeModule?: string
  /**
   * Directory of the content-hash cache of per-file results, shared across processes. No disk cache
   * when absent (the in-process cache still applies).
   * @default undefined
   */
  cacheDir?: string
  /**
   * Worker threads for the parse. `'auto'` uses them only for trees large enough to pay for their
   * start-up; `0` or `1` parses on the calling thread.
   * @default 'auto'
   */
  workers?: number | 'auto'
  /**
   * Messages and diagnostics only, for a one-off run: no call sites, no content hashes, no stat, and
   * the in-process cache is neither read nor filled; on one thread each file is merged as soon as it
   * is read, so `files` lists the files with empty results. `tms extract --no-cache` runs so; it
   * cannot be combined with `cacheDir`.
   * @default false
   */
  messagesOnly?: boolean
  /**
   * How programs are read. Every scanner finds the same calls; `'auto'` takes the fastest this Node
   * has (`lazy` on Node >= 22, else `json`). The others are there so that tests and benchmarks can
   * hold each one to the same fixtures (src/core/extract/scan.ts).
   * @default 'auto'
   */
  scanner?: ScannerName | 'auto'
}

/** Options after defaults and validation; what the extractor functions take. */
export interface ResolvedExtractOptions {
  cwd: string
  include: string[]
  exclude: string[]
  keywords: KeywordSpec[]
  placeholder: PlaceholderSpec
  namespace: string | null
  runtimeModule: string
  cacheDir: string | null
  workers: number | 'auto'
  messagesOnly: boolean
  scanner: ScannerName
  /**
   * The scanner of one module read on the bundler's own thread (`extractFromCode`: a module changed
   * since the build start, such as a dev server's edit). Under `auto` it is `json`: `lazy` parses into
   * raw transfer's buffer, several GiB that V8 counts as memory outside its heap, and V8 answers its
   * allocation with a full collection of the bundler's heap (about 100 ms on a dev server of 200
   * components, more on larger ones), where `json` allocates only the AST's string. A scanner named
   * in the options is used everywhere.
   */
  oneFileScanner: ScannerName
  /** Digest of every option that changes a file's result: part of each cached file's identity. */
  digest: string
}

export const EXTRACT_DEFAULTS: {
  readonly include: readonly string[]
  readonly exclude: readonly string[]
  readonly keywords: readonly string[]
  readonly runtimeModule: string
  readonly workers: 'auto'
} = {
  include: ['src/**/*.{js,jsx,ts,tsx,mjs,cjs,vue,svelte}'],
  exclude: ['**/node_modules/**', '**/*.{test,spec}.*', '**/__tests__/**'],
  keywords: ['t'],
  runtimeModule: 'unplugin-tms/runtime',
  workers: 'auto',
} as const satisfies Partial<ExtractOptions>

/** Bumped whenever the extractor's output for the same input changes, so old cached files miss. */
export const EXTRACTOR_REVISION = 7

function globList(option: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((g) => typeof g !== 'string' || g === '')) {
    throw new ExtractOptionsError(option, `${option} must be an array of non-empty glob strings`)
  }
  return [...value]
}

/** Applies the defaults and checks every field; throws {@link ExtractOptionsError} naming the option. */
export function resolveExtractOptions(options: ExtractOptions = {}): ResolvedExtractOptions {
  const cwd = resolve(options.cwd ?? process.cwd())
  const include = globList('include', options.include ?? EXTRACT_DEFAULTS.include)
  if (include.length === 0) throw new ExtractOptionsError('include', 'include must list at least one glob')
  const exclude = globList('exclude', options.exclude ?? EXTRACT_DEFAULTS.exclude)
  const keywordSources = options.keywords ?? EXTRACT_DEFAULTS.keywords
  if (!Array.isArray(keywordSources) || keywordSources.length === 0) {
    throw new ExtractOptionsError('keywords', 'keywords must be a non-empty array of keyword specs')
  }
  const keywords = keywordSources.map((k) => parseKeywordSpec(k))
  const seen = new Set<string>()
  for (const k of keywords) {
    if (seen.has(k.name)) {
      throw new ExtractOptionsError('keywords', `keywords lists "${k.name}" twice; keep one spec per name`)
    }
    seen.add(k.name)
  }
  const placeholder: PlaceholderSpec = options.placeholder ?? { custom: APP_PLACEHOLDER_SOURCE }
  try {
    placeholderRegex(placeholder)
  } catch (error) {
    throw new ExtractOptionsError('placeholderFormat', (error as Error).message)
  }
  const namespace = options.namespace ?? null
  if (namespace !== null && typeof namespace !== 'string') {
    throw new ExtractOptionsError('namespace', 'namespace must be a string or null')
  }
  const runtimeModule = options.runtimeModule ?? EXTRACT_DEFAULTS.runtimeModule
  if (typeof runtimeModule !== 'string' || runtimeModule === '') {
    throw new ExtractOptionsError('runtimeModule', 'runtimeModule must be a non-empty module specifier')
  }
  const workers = options.workers ?? EXTRACT_DEFAULTS.workers
  if (workers !== 'auto' && !(Number.isInteger(workers) && workers >= 0)) {
    throw new ExtractOptionsError('workers', `workers must be "auto" or a whole number >= 0; got ${workers}`)
  }
  const cacheDir =
    options.cacheDir == null
      ? null
      : isAbsolute(options.cacheDir)
        ? options.cacheDir
        : resolve(cwd, options.cacheDir)
  const messagesOnly = options.messagesOnly ?? false
  if (typeof messagesOnly !== 'boolean') {
    throw new ExtractOptionsError('messagesOnly', 'messagesOnly must be true or false')
  }
  if (messagesOnly && cacheDir !== null) {
    throw new ExtractOptionsError(
      'messagesOnly',
      'messagesOnly results are never cached: leave cacheDir unset, or messagesOnly false',
    )
  }
  const scanner = options.scanner ?? 'auto'
  if (scanner !== 'auto' && !SCANNER_NAMES.includes(scanner)) {
    throw new ExtractOptionsError(
      'scanner',
      `scanner must be "auto" or one of ${SCANNER_NAMES.join(', ')}; got ${scanner}`,
    )
  }
  if ((scanner === 'lazy' || scanner === 'lazy-nodes') && !lazySupported()) {
    throw new ExtractOptionsError(
      'scanner',
      `the ${scanner} scanner needs raw transfer (Node >= 22); use json on Node ${process.versions.node}`,
    )
  }
  const digest = createHash('sha1')
    .update(
      JSON.stringify([
        EXTRACTOR_REVISION,
        // Diagnostics name files relative to cwd.
        cwd,
        keywordSources,
        placeholder.custom ?? null,
        placeholder.format ?? null,
        namespace,
        runtimeModule,
        messagesOnly,
        // Every scanner finds the same calls, but one named apart from `auto` keeps its results apart, so
        // that a test of one scanner never reads what another one found.
        options.scanner ?? 'auto',
      ]),
    )
    .digest('hex')
  const resolved: ResolvedExtractOptions = {
    cwd,
    include,
    exclude,
    keywords,
    placeholder,
    namespace,
    runtimeModule,
    cacheDir,
    workers,
    messagesOnly,
    scanner: scanner === 'auto' ? 'json' : scanner,
    oneFileScanner: scanner === 'auto' ? 'json' : scanner,
    digest,
  }
  // Under `auto`, whether raw transfer runs here is the parser's to tell (lazy on Node >= 22, json
  // before), asked when a run first parses: a run that parses nothing never loads it (oxc.ts).
  if (scanner === 'auto') {
    Object.defineProperty(resolved, 'scanner', {
      get: (): ScannerName => (lazySupported() ? 'lazy' : 'json'),
      enumerable: true,
    })
  }
  return resolved
}
