import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import * as esbuild from 'esbuild'
import { type Browser, chromium, type Page } from 'playwright-core'
import { rolldown } from 'rolldown'
import { VERSION as ROLLUP_VERSION, type RollupOptions, rollup } from 'rollup'
import { build as viteBuild } from 'vite'
import webpack from 'webpack'
import tmsEsbuild from '../../src/esbuild'
import type { Options } from '../../src/options'
import tmsRolldown from '../../src/rolldown'
import tmsRollup from '../../src/rollup'
import tmsRspack from '../../src/rspack'
import tmsVite from '../../src/vite'
import tmsWebpack from '../../src/webpack'
import type { Rendered } from './helpers'

/**
 * Rollup 3.25 and later print info logs (the plugin's report) on the console unless an onLog takes
 * them: these builds keep them quiet and hand warnings on to onwarn. Rollup before 3.25 has neither
 * info logs nor onLog (an unknown option there).
 */
const [rollupMajor, rollupMinor] = ROLLUP_VERSION.split('.').map(Number) as [number, number]
export const quietRollupInfo: Pick<RollupOptions, 'onLog'> =
  rollupMajor > 3 || rollupMinor >= 25
    ? {
        onLog: (level, log, handler) => {
          if (level === 'warn') handler(level, log)
        },
      }
    : {}

/** A build of the fixture app: where it went, and the entry module to run in Node (absent for vite). */
export interface Built {
  outDir: string
  entry?: string
  warnings: string[]
}

export async function buildRollup(
  root: string,
  options: Options,
  outDir = join(root, 'dist-rollup'),
): Promise<Built> {
  rmSync(outDir, { recursive: true, force: true })
  const warnings: string[] = []
  const bundle = await rollup({
    input: join(root, 'src/main.js'),
    plugins: [tmsRollup(options)],
    // onwarn: rollup 3 before 3.25 knows only onwarn. Rollup 4 puts the plugin's name in front of the
    // message, rollup 3 only in `plugin`: written as rollup 4 writes it on both.
    onwarn: (log) => {
      const named = log.plugin === undefined || log.message.startsWith('[plugin ')
      warnings.push(named ? log.message : `[plugin ${log.plugin}] ${log.message}`)
    },
    ...quietRollupInfo,
  })
  await bundle.write({ dir: outDir, format: 'es', sourcemap: true })
  await bundle.close()
  return { outDir, entry: join(outDir, 'main.js'), warnings }
}

export async function buildRolldown(root: string, options: Options): Promise<Built> {
  const outDir = join(root, 'dist-rolldown')
  rmSync(outDir, { recursive: true, force: true })
  const warnings: string[] = []
  const bundle = await rolldown({
    input: join(root, 'src/main.js'),
    plugins: [tmsRolldown(options)],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message)
    },
  })
  await bundle.write({ dir: outDir, format: 'es', minify: true })
  await bundle.close()
  return { outDir, entry: join(outDir, 'main.js'), warnings }
}

export async function buildEsbuild(root: string, options: Options): Promise<Built> {
  const outDir = join(root, 'dist-esbuild')
  rmSync(outDir, { recursive: true, force: true })
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/main.js'],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    outdir: outDir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    logLevel: 'silent',
    plugins: [tmsEsbuild(options)],
  })
  return { outDir, entry: join(outDir, 'main.js'), warnings: result.warnings.map((w) => w.text) }
}

/** What webpack's and rspack's compilers have in common, as far as these builds go. */
interface LikeStats {
  hasErrors(): boolean
  toJson(options: object): { errors?: { message: string }[]; warnings?: { message: string }[] }
}
export interface LikeCompiler {
  run(callback: (error: Error | null, stats?: LikeStats) => void): void
  close(callback: () => void): void
}

/** The node ESM build of the fixture app that the webpack and rspack tests share. */
export function webpackConfig(
  root: string,
  outDir: string,
  plugin: unknown,
  mode: 'production' | 'development',
  cacheDirectory?: string,
) {
  return {
    ...(cacheDirectory ? { cache: { type: 'filesystem', cacheDirectory } } : {}),
    mode,
    context: root,
    entry: './src/main.js',
    target: 'node',
    devtool: mode === 'development' ? 'eval' : false,
    output: {
      path: outDir,
      filename: 'main.mjs',
      chunkFilename: '[name].[contenthash].mjs',
      module: true,
      chunkFormat: 'module',
      chunkLoading: 'import',
      library: { type: 'module' },
      clean: true,
    },
    experiments: { outputModule: true },
    plugins: [plugin],
    infrastructureLogging: { level: 'none' },
  }
}

/** A webpack or rspack build of an app (`src/main.js`) for the browser: `/main.js`, its chunks beside it. */
export function browserWebpackConfig(
  root: string,
  outDir: string,
  plugin: unknown,
  mode: 'production' | 'development',
) {
  return {
    mode,
    context: root,
    entry: './src/main.js',
    target: 'web',
    devtool: false as const,
    output: { path: outDir, filename: 'main.js', publicPath: '/', clean: true },
    plugins: [plugin],
    infrastructureLogging: { level: 'none' as const },
    stats: 'none' as const,
  }
}

/** Runs a webpack or rspack build; its errors are thrown, its warnings returned. */
export async function runWebpackLike<C extends object>(
  compilerOf: (config: C) => LikeCompiler,
  config: C,
): Promise<string[]> {
  const compiler = compilerOf(config)
  const stats = await new Promise<LikeStats>((resolve, reject) =>
    compiler.run((error, result) => (error ? reject(error) : resolve(result!))),
  )
  await new Promise<void>((resolve) => compiler.close(() => resolve()))
  const info = stats.toJson({ all: false, errors: true, warnings: true })
  if (stats.hasErrors()) {
    throw new Error(info.errors!.map((e) => e.message).join('\n'))
  }
  return (info.warnings ?? []).map((w) => w.message)
}

export async function buildWebpack(
  root: string,
  options: Options,
  mode: 'production' | 'development' = 'production',
  cacheDirectory?: string,
): Promise<Built> {
  const outDir = join(root, `dist-webpack-${mode}`)
  const warnings = await runWebpackLike(
    (config) => webpack(config as webpack.Configuration) as unknown as LikeCompiler,
    webpackConfig(root, outDir, tmsWebpack(options), mode, cacheDirectory),
  )
  return { outDir, entry: join(outDir, 'main.mjs'), warnings }
}

export async function buildRspack(root: string, options: Options): Promise<Built> {
  const { rspack } = await import('@rspack/core')
  const outDir = join(root, 'dist-rspack')
  const warnings = await runWebpackLike(
    (config) => rspack(config as never) as unknown as LikeCompiler,
    webpackConfig(root, outDir, tmsRspack(options), 'production'),
  )
  return { outDir, entry: join(outDir, 'main.mjs'), warnings }
}

export async function buildVite(root: string, options: Options): Promise<Built> {
  const outDir = join(root, 'dist-vite')
  const warnings: string[] = []
  await viteBuild({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [tmsVite(options)],
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        onLog: (level, log) => {
          if (level === 'warn') warnings.push(log.message)
        },
      },
    },
  })
  return { outDir, warnings }
}

/** Every JS file of an output directory with its text. */
export function outputFiles(outDir: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.m?js$/.test(entry.name)) files.set(path, readFileSync(path, 'utf8'))
    }
  }
  walk(outDir)
  return files
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
}

/** A static file server on 127.0.0.1 for a built app. */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    const file = join(dir, path === '/' ? 'index.html' : path)
    if (!file.startsWith(dir)) {
      res.writeHead(403).end()
      return
    }
    try {
      const body = readFileSync(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * `page.goto(url)` of a page that vite's dev server serves, resolved once the page's HMR socket is
 * connected too: vite sends a custom event (a catalog pushed) only to the pages connected by then,
 * and a loaded machine can connect a page's socket seconds after the page ran.
 */
export function gotoViteDev(page: Page, url: string): Promise<void> {
  return connectedAfter(page, () => page.goto(url))
}

/** `page.reload()` of a page that vite's dev server serves, resolved once its new socket is connected (see {@link gotoViteDev}). */
export function reloadViteDev(page: Page): Promise<void> {
  return connectedAfter(page, () => page.reload())
}

async function connectedAfter(page: Page, navigate: () => Promise<unknown>): Promise<void> {
  const connected = page.waitForEvent('console', {
    predicate: (m) => m.text() === '[vite] connected.',
    timeout: 60_000,
  })
  try {
    await navigate()
  } catch (error) {
    connected.catch(() => undefined)
    throw error
  }
  await connected
}

/** Debian's Chromium, headless; never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** The built fixture app's text in each locale, from its page in Chromium. */
export async function renderInChromium(browser: Browser, dir: string): Promise<Rendered> {
  const server = await serveStatic(dir)
  const page = await browser.newPage()
  try {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${server.url}/index.html`)
    await page.waitForFunction(() => document.querySelector('#out')?.textContent !== '')
    // The app's own render(), and the page it painted (through onLocaleChange) must agree.
    const text = async (): Promise<string[]> => {
      const [lines, painted] = await page.evaluate(
        () =>
          [
            (window as unknown as { app: { render(): string[] } }).app.render(),
            document.querySelector('#out')!.textContent!,
          ] as const,
      )
      if (painted !== lines.join('\n')) throw new Error(`the page shows ${JSON.stringify(painted)}`)
      return [...lines]
    }
    const setLocale = (locale: string) =>
      page.evaluate(
        (l) => (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale(l),
        locale,
      )
    const source = await text()
    await setLocale('fr-FR')
    const fr = await text()
    await setLocale('en-XA')
    const pseudo = await text()
    const pwned = await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned !== undefined)
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`)
    return { source, fr, pseudo, pwned }
  } finally {
    await page.close()
    await server.close()
  }
}
